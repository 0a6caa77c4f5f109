#include <algorithm>
#include <utility>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>

#include "common/fatal.hpp"
#include "execution/actors.hpp"
#include "execution/context.hpp"
#include "execution/messages.hpp"
#include "model/workload.hpp"

namespace datasched {

static void submit_static_jobs(Context* context, Workload* workload)
{
  using simgrid::s4u::Engine;
  std::vector<Job*> jobs = workload->static_jobs;
  // Submission order: by date, then by id as a string (Batsim's order).
  std::stable_sort(jobs.begin(), jobs.end(), [](const Job* a, const Job* b) {
    if (a->submission_time != b->submission_time)
      return a->submission_time < b->submission_time;
    return a->number < b->number;
  });

  // The date taken just before each send is what the next sleep is computed from, so
  // every wake-up is delayed by the previous send's duration, as in Batsim.
  send_to_server(new_message(MessageType::SubmitterHello, workload->name));
  double reference_date = Engine::get_clock();

  // The job slept for is submitted on waking, even when the clock, being rounded, stops
  // one step short of its date (c + fl(s - c) < s): as Batsim's loop, which pushes the job
  // after its sleep without comparing again. Comparing again (as we did) sent an empty
  // JOB_SUBMITTED and slept a second time: one control message more before the job
  // (0.6 ms on a cluster platform; issue 32 item 5, TIMING.md "Submitter drift").
  Message* batch = nullptr;
  for (size_t index = 0; index < jobs.size(); ++index) {
    const double next = jobs[index]->submission_time;
    if (next > reference_date) {
      if (batch != nullptr)
        send_to_server(std::exchange(batch, nullptr));
      // The difference is taken in long double and then rounded to double, as Batsim's
      // submitter does (its dates are long double): at far dates (1e17 s, one double step
      // is 16 s) two roundings can give another sleep than one double subtraction.
      simgrid::s4u::this_actor::sleep_for(
          static_cast<double>(static_cast<long double>(next) - static_cast<long double>(reference_date)));
      reference_date = Engine::get_clock();
    }
    if (batch == nullptr)
      batch = new_message(MessageType::JobSubmitted, workload->name);
    if (index == 0) // -E: the schedule's consumed_joules start here, read where Batsim reads them
      context->energy.note_first_submission(context->machines);
    batch->jobs.push_back(jobs[index]);
  }
  if (batch != nullptr)
    send_to_server(batch);
  send_to_server(new_message(MessageType::SubmitterBye, workload->name));
}

void static_submitter_actor(Context* context, Workload* workload)
{
  run_actor_guarded([context, workload] { submit_static_jobs(context, workload); });
}

static void send_external_events(std::vector<ExternalEvent> events)
{
  using simgrid::s4u::Engine;
  double reference_date = Engine::get_clock();
  for (auto& e : events) {
    if (e.timestamp > reference_date)
      simgrid::s4u::this_actor::sleep_for(e.timestamp - reference_date);
    reference_date = Engine::get_clock();
    auto* m        = new_message(MessageType::MachineEvent);
    m->event_type  = e.type;
    m->resources   = e.resources;
    m->event       = std::move(e.object);
    send_to_server(m);
  }
  auto* last       = new_message(MessageType::MachineEvent);
  last->event_type = "no_more_external_event_to_occur";
  send_to_server(last);
}

void external_events_actor(std::vector<ExternalEvent> events)
{
  run_actor_guarded([&events] { send_external_events(std::move(events)); });
}

} // namespace datasched
