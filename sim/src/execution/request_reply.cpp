#include <algorithm>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>

#include "common/fatal.hpp"
#include "execution/actors.hpp"
#include "execution/context.hpp"
#include "execution/messages.hpp"

namespace datasched {

namespace {
/// Waits until `date` (if it is in the future), then sends `message`.
void send_at(double date, Message* message)
{
  const double now = simgrid::s4u::Engine::get_clock();
  if (date > now)
    simgrid::s4u::this_actor::sleep_for(date - now);
  send_to_server(message);
}
} // namespace

static void run_decision_rounds(Context* context)
{
  // One actor for every decision round, woken by the server through a semaphore.
  // It replaces an actor created per round (twice per job on a typical run: each
  // creation allocated and cleared a stack and ended with an unwinding exception)
  // and keeps the same simulated behaviour, actor for actor:
  //  - it is always blocked in acquire() when the server releases it, so it becomes
  //    runnable at exactly the point where the new actor used to be started;
  //  - the SchedReady message is a detached 1-byte transfer, so its completion wakes
  //    the server only, as when the sending actor ended right after it.
  for (;;) {
    context->decision_requested->acquire();
    std::string request = std::move(context->decision_request);
    // The exchange itself takes no simulated time; its wall time is scheduling_time.
    DecisionMessage reply;
    try {
      reply = parse_decision_message(context->decisions->exchange(request));
    } catch (const std::exception& e) {
      fatal(e.what());
    }
    if (!(reply.now <= kMaxTime)) { // also NaN
      // Past the largest date, the clock may have got there first (an activity that ran past
      // it; a job's is named by the job runner before this): then a decision process echoing
      // the clock is not to blame.
      const double clock = simgrid::s4u::Engine::get_clock();
      if (!(clock <= kMaxTime))
        fatal("the simulation reached t = " + format_date(clock) + " s, beyond the largest date Batsim can write (" +
              kMaxTimeText + " s)");
      fatal("the decision process's reply has now = " + format_date(reply.now) +
            ", beyond the largest date Batsim can write (" + kMaxTimeText + " s)");
    }
    for (auto& decision : reply.decisions) {
      const double date = decision.timestamp;
      auto* message     = new_message(MessageType::Decision);
      message->decision = std::move(decision);
      send_at(date, message);
    }
    const double now = simgrid::s4u::Engine::get_clock();
    if (reply.now > now)
      simgrid::s4u::this_actor::sleep_for(reply.now - now);
    send_to_server_detached(new_message(MessageType::SchedReady));
  }
}

void decision_actor(Context* context)
{
  run_actor_guarded([context] { run_decision_rounds(context); });
}

static void wait_until(double target_time)
{
  // As Batsim's waiter_process (jobs_execution.cpp): a wait shorter than 1e-5 s is
  // lengthened to 1e-5 s, so a CALL_ME_LATER just ahead of the clock fires 10 us later.
  const double now = simgrid::s4u::Engine::get_clock();
  if (target_time > now)
    simgrid::s4u::this_actor::sleep_for(std::max(target_time - now, 1e-5));
  send_to_server(new_message(MessageType::WaitingDone));
}

void waiter_actor(double target_time)
{
  run_actor_guarded([target_time] { wait_until(target_time); });
}

} // namespace datasched
