// The server: the one actor that owns the simulation state. It receives every
// message, turns them into protocol events for the decision process, applies the
// decisions, and starts a decision round whenever the decision process is ready,
// something is pending, and no other message is waiting (so simultaneous events are
// batched into one round, as in Batsim). As in Batsim 4.2.1 (server.cpp 108-136),
// SIMULATION_ENDS is sent at that same point, alone, once nothing is left to send and
// no job, killer or CALL_ME_LATER waiter is pending.
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Mailbox.hpp>

#include "common/fatal.hpp"
#include "execution/actors.hpp"
#include "execution/context.hpp"
#include "execution/data_mover.hpp"
#include "execution/item_traffic.hpp"
#include "execution/messages.hpp"
#include "execution/power_switching.hpp"
#include "model/run_cost.hpp"

namespace datasched {

namespace {

using simgrid::s4u::Engine;

class Server {
public:
  explicit Server(Context* context) : ctx_(context)
  {
    for (const auto& [name, w] : ctx_->workloads.workloads())
      if (w->is_static)
        expected_submitters_++;
    registration_finished_ = !ctx_->protocol_config.dynamic_jobs_enabled;
  }

  void run()
  {
    auto* mailbox = simgrid::s4u::Mailbox::by_name("server");
    ctx_->writer.append_simulation_begins(ctx_->machines, ctx_->workloads, ctx_->protocol_config, now());
    start_decision_round();

    while (!end_acknowledged_) {
      std::unique_ptr<Message> message(mailbox->get<Message>());
      handle(*message);
      if (!sched_ready_ || end_acknowledged_ || !mailbox->empty())
        continue;
      // As Batsim: SIMULATION_ENDS goes alone, once a round had nothing else to say, so
      // the decision process can still act on the last events (e.g. switch hosts off
      // after the last job, which the end then waits for).
      if (!ctx_->writer.empty()) {
        start_decision_round();
      } else if (!end_sent_ && simulation_finished()) {
        ctx_->writer.append_simulation_ends(now());
        end_sent_ = true;
        start_decision_round();
      }
    }
    check_nothing_pending_after_end();
    ctx_->simulation_completed = true;
    ctx_->job_pool.stop(); // the idle job actors wait for no more jobs (job_pool.hpp)
  }

private:
  static double now() { return Engine::get_clock(); }

  void start_decision_round()
  {
    ctx_->decision_request = ctx_->writer.generate(now());
    ctx_->writer.clear();
    ctx_->decision_requested->release(); // the decision actor is waiting for it
    sched_ready_ = false;
  }

  /// Batsim's is_simulation_finished (server.cpp 1057-1067): nothing left to run, kill,
  /// wait for or switch.
  bool simulation_finished() const
  {
    return nb_submitters_finished_ == expected_submitters_ && registration_finished_ && nb_running_ == 0 &&
           nb_completed_ == nb_submitted_ && nb_killers_ == 0 && nb_waiters_ == 0 && nb_switching_ == 0 &&
           nb_stagers_ == 0;
  }

  /// Batsim aborts when its loop ends with a waiter, killer or switching host left
  /// (server.cpp 147-151): only a CALL_ME_LATER, KILL_JOB or SET_RESOURCE_STATE sent in
  /// reply to SIMULATION_ENDS can leave one.
  void check_nothing_pending_after_end() const
  {
    if (nb_waiters_ == 0 && nb_killers_ == 0 && nb_switching_ == 0)
      return;
    const char* event = nb_waiters_ > 0 ? "CALL_ME_LATER" : nb_killers_ > 0 ? "KILL_JOB" : "SET_RESOURCE_STATE";
    fatal("the decision process sent " + std::string(event) +
          " in reply to SIMULATION_ENDS: the simulation is over (Batsim 4.2.1 aborts too); a decision process "
          "must answer SIMULATION_ENDS with no event");
  }

  void handle(Message& m)
  {
    switch (m.type) {
      case MessageType::SubmitterHello:
        return; // submitters are counted from the workloads; the hello only costs its message
      case MessageType::SubmitterBye:
        nb_submitters_finished_++;
        if (nb_submitters_finished_ == expected_submitters_)
          ctx_->writer.append_notify("no_more_static_job_to_submit", now());
        return;
      case MessageType::JobSubmitted:
        for (Job* job : m.jobs)
          submit(*job);
        return;
      case MessageType::JobCompleted:
        on_job_completed(*m.jobs.at(0));
        return;
      case MessageType::SchedReady:
        sched_ready_ = true;
        if (end_sent_)
          end_acknowledged_ = true;
        return;
      case MessageType::WaitingDone:
        nb_waiters_--;
        ctx_->writer.append_requested_call(now());
        return;
      case MessageType::KillingDone:
        on_killing_done(m);
        return;
      case MessageType::MachineEvent:
        on_machine_event(m);
        return;
      case MessageType::Decision:
        apply(m.decision);
        return;
      case MessageType::Switched:
        on_switched(m);
        return;
      case MessageType::StageDone:
        nb_stagers_--;
        ctx_->writer.append_stage_done(m.stage, now());
        return;
      case MessageType::ItemsEvicted:
        for (const nlohmann::json& evicted : m.evicted)
          ctx_->writer.append_item_evicted(evicted, now());
        return;
    }
  }

  void submit(Job& job)
  {
    job.state = JobState::Submitted;
    nb_submitted_++;
    const std::string* profile = nullptr;
    if (ctx_->protocol_config.profiles_forwarded_on_submission)
      profile = &ctx_->workloads.profile_of(job).json_description; // already compact JSON, as dump() writes it
    ctx_->writer.append_job_submitted(job.id, job.description, profile, now());
  }

  void release_machines(const Job& job)
  {
    for (int id : job.allocation.elements()) {
      auto& running = ctx_->machines.at(id).running_jobs;
      running.erase(std::remove(running.begin(), running.end(), &job), running.end());
    }
  }

  void finish(Job& job)
  {
    nb_running_--;
    nb_completed_++;
    ctx_->nb_completed_jobs++;
    release_machines(job);
    job.worker = nullptr;
    ctx_->jobs_csv.add(job);
    ctx_->io_csv.add(job);
  }

  void on_job_completed(Job& job)
  {
    finish(job);
    ctx_->writer.append_job_completed(job.id, job_state_to_string(job.state), job.allocation.to_string(" "),
                                      job.return_code, now());
    ctx_->maybe_print_progress(now());
  }

  /// As Batsim's server_on_killing_done (server.cpp 616-670): JOB_COMPLETED for each job
  /// the killer really killed, then JOB_KILLED naming every job of its KILL_JOB (a job
  /// already complete is listed without progress).
  void on_killing_done(Message& m)
  {
    nb_killers_--;
    for (Job* job : m.jobs) {
      finish(*job);
      ctx_->writer.append_job_completed(job->id, job_state_to_string(job->state), job->allocation.to_string(" "),
                                        job->return_code, now());
    }
    ctx_->writer.append_job_killed(m.job_ids, m.progress, now());
  }

  void on_machine_event(Message& m)
  {
    if (m.event_type == "no_more_external_event_to_occur") {
      ctx_->writer.append_notify("no_more_external_event_to_occur", now());
      return;
    }
    if (m.event_type != "machine_available" && m.event_type != "machine_unavailable") {
      ctx_->writer.append_notify_object(m.event, now()); // an unknown event, forwarded as is
      return;
    }
    IntervalSet machines = IntervalSet::from_string(m.resources);
    const bool available = m.event_type == "machine_available";
    for (int id : machines.elements()) {
      Machine& machine = ctx_->machines.at(id);
      if (machine.available != available)
        ctx_->machine_states.set_available(id, available, now()); // Batsim writes no row here
      machine.available = available;
    }
    ctx_->writer.append_notify(available ? "event_machine_available" : "event_machine_unavailable", now(),
                               machines.to_string(" "));
  }

  // ---- decisions -------------------------------------------------------------

  Job& job_for(const std::string& id, const std::string& decision)
  {
    Job* job = ctx_->workloads.find_job(id);
    if (!job)
      fatal(decision + " references job '" + id + "', which does not exist");
    return *job;
  }

  void apply(Decision& d)
  {
    std::visit([&](auto& payload) { apply_one(payload); }, d.payload);
  }

  void apply_one(ExecuteJob& d)
  {
    Job& job = job_for(d.job_id, "EXECUTE_JOB");
    if (job.state != JobState::Submitted)
      fatal("EXECUTE_JOB: job '" + job.id + "' cannot start: it is " + job_state_to_string(job.state) +
            " (only a SUBMITTED job can start)");
    const int nb_hosts = d.allocation.size();
    for (int id : d.allocation.elements()) {
      if (!ctx_->machines.exists(id))
        fatal("EXECUTE_JOB: job '" + job.id + "' is allocated host " + std::to_string(id) +
              ", which does not exist (the platform has " + std::to_string(ctx_->machines.size()) + " resources)");
      const Machine& m = ctx_->machines.at(id);
      if (m.role == Role::Storage && !places_transfers_explicitly(job))
        check_not_storage_endpoint(job, m); // only storage hosts pay the profile lookup
      if (!m.available)
        fatal("EXECUTE_JOB: job '" + job.id + "' is allocated host " + std::to_string(id) + " (" + m.name +
              "), which is unavailable");
      if (m.power != PowerState::On)
        fatal("EXECUTE_JOB: job '" + job.id + "' is allocated host " + std::to_string(id) + " (" + m.name +
              "), which is " + power_state_to_string(m.power) + " (a job needs hosts in a computation pstate)");
      const bool sharing = m.role == Role::Storage ? ctx_->protocol_config.allow_storage_sharing
                                                   : ctx_->protocol_config.allow_compute_sharing;
      if (!sharing && !m.running_jobs.empty())
        fatal("EXECUTE_JOB: job '" + job.id + "' is allocated host " + std::to_string(id) + " (" + m.name +
              "), which is busy with job '" + m.running_jobs.front()->id + "'");
    }
    if (d.mapping.empty()) {
      if (nb_hosts != job.requested_resources)
        fatal("EXECUTE_JOB: job '" + job.id + "' requested " + std::to_string(job.requested_resources) +
              " hosts but was allocated " + std::to_string(nb_hosts) + " ('" + d.allocation.to_string(" ") + "')");
    } else {
      if (static_cast<int>(d.mapping.size()) != job.requested_resources)
        fatal("EXECUTE_JOB: job '" + job.id + "': the mapping has " + std::to_string(d.mapping.size()) +
              " executors but the job requested " + std::to_string(job.requested_resources));
      for (int index : d.mapping)
        if (index < 0 || index >= nb_hosts)
          fatal("EXECUTE_JOB: job '" + job.id + "': mapping index " + std::to_string(index) +
                " is outside the allocation of " + std::to_string(nb_hosts) + " hosts");
    }
    for (const auto& [label, id] : d.storage_mapping)
      if (!ctx_->machines.exists(id))
        fatal("EXECUTE_JOB: job '" + job.id + "': storage_mapping['" + label + "'] = " + std::to_string(id) +
              " is not a resource id");
    if (d.additional_io_job)
      attach_io_job(job, *d.additional_io_job);
    if (d.storage && ctx_->workloads.profile_of(job).type != ProfileType::Phases)
      fatal("EXECUTE_JOB: job '" + job.id +
            "': datasched_storage applies to datasched_phases jobs only (its profile is " +
            profile_type_to_string(ctx_->workloads.profile_of(job).type) + ")");

    job.state             = JobState::Running;
    job.allocation        = d.allocation;
    job.mapping           = d.mapping;
    job.storage_mapping   = d.storage_mapping;
    job.requested_storage = d.storage;
    job.starting_time     = now();
    for (int id : job.allocation.elements())
      ctx_->machines.at(id).running_jobs.push_back(&job);
    ctx_->machines_job_started(job, now());
    nb_running_++;
    check_route_to_master(job, job.allocation.first());
    ctx_->job_pool.start(job, ctx_->machines.at(job.allocation.first()).host);
  }

  /// Batsim's additional_io_job: {"alloc": "...", "profile": {...} or "name", "profile_name": "..."}.
  /// Its parallel task is merged into the job's (same hosts add up) before it starts.
  void attach_io_job(Job& job, const nlohmann::json& io)
  {
    const std::string ctx = "EXECUTE_JOB: job '" + job.id + "': additional_io_job";
    if (!io.is_object() || !io.contains("alloc") || !io.at("alloc").is_string() || !io.contains("profile"))
      fatal(ctx + " must be an object with 'alloc' (string) and 'profile' (object or profile name)");
    try {
      job.io_allocation = IntervalSet::from_string(io.at("alloc").get<std::string>());
    } catch (const InputError& e) {
      fatal(ctx + ": " + e.what());
    }
    for (int id : job.io_allocation.elements())
      if (!ctx_->machines.exists(id))
        fatal(ctx + ": host " + std::to_string(id) + " does not exist");
    const auto& profile = io.at("profile");
    try {
      if (profile.is_string()) {
        auto it = job.workload->profiles.find(profile.get<std::string>());
        if (it == job.workload->profiles.end())
          fatal(ctx + ": unknown profile '" + profile.get<std::string>() + "'");
        job.io_profile = std::make_shared<Profile>(it->second);
      } else {
        std::string name = io.value("profile_name", std::string("additional_io_job"));
        job.io_profile   = std::make_shared<Profile>(Profile::from_json(name, profile, ctx));
      }
    } catch (const InputError& e) {
      fatal(e.what());
    }
    if (job.io_profile->type != ProfileType::Parallel)
      fatal(ctx + ": its profile must be of type 'parallel'");
    if (static_cast<int>(job.io_profile->cpu.size()) != job.io_allocation.size())
      fatal(ctx + ": its profile has " + std::to_string(job.io_profile->cpu.size()) + " executors but its alloc has " +
            std::to_string(job.io_allocation.size()) + " hosts");
    const ProfileType t = ctx_->workloads.profile_of(job).type;
    if (t == ProfileType::Delay || t == ProfileType::Composed)
      fatal(ctx + ": the job's own profile must be a parallel task (not " + profile_type_to_string(t) + ")");
  }

  /// Profiles whose per-host work is written explicitly (`parallel`'s cpu/com matrices,
  /// data staging, PFS I/O): they may target a device endpoint on purpose (e.g. to time a
  /// transfer to a node's NVM). Any other profile would compute on it as on a node.
  bool places_transfers_explicitly(const Job& job) const
  {
    const ProfileType t = ctx_->workloads.profile_of(job).type;
    return t == ProfileType::Parallel || t == ProfileType::DataStaging || t == ProfileType::ParallelHomogeneousPfs;
  }

  /// Node DRAM and NVM endpoints (datasched_role dram/nvm, Batsim role storage) model
  /// a node's memory devices for the storage model: they do not run jobs as nodes do.
  void check_not_storage_endpoint(const Job& job, const Machine& m)
  {
    const StorageEndpoints& endpoints = ctx_->storage_endpoints;
    if (endpoints.owner_of(m.id) < 0) // neither a DRAM nor an NVM endpoint
      return;
    fatal("EXECUTE_JOB: job '" + job.id + "' is allocated host " + std::to_string(m.id) + " (" + m.name +
          "), a storage resource (datasched_role=" + (endpoints.is_nvm(m.id) ? "nvm" : "dram") +
          ": a node's memory device in the storage model), not a compute node; a decision process must allocate "
          "jobs among the compute_resources of SIMULATION_BEGINS (ids 0-" +
          std::to_string(ctx_->machines.nb_compute() - 1) +
          "; only explicit parallel/data_staging profiles may place transfers on a device). pybatsim's "
          "easyBackfill counts nb_resources, which includes storage resources: use datasched's 'easy' policy on "
          "platforms with storage");
  }

  /// A job's control actor runs on its first allocated host and reports its completion
  /// to the master: that host needs a route to the master (checked once per host).
  void check_route_to_master(const Job& job, int id)
  {
    if (route_checked_.empty())
      route_checked_.assign(ctx_->machines.size(), false);
    if (route_checked_[id])
      return;
    const Machine& m = ctx_->machines.at(id);
    if (std::string why = RouteChecker::route_problem(m.host, ctx_->machines.master().host); !why.empty())
      fatal("EXECUTE_JOB: job '" + job.id + "': its first allocated host " + std::to_string(id) + " (" + m.name +
            ") cannot report the job's end to the master: " + why +
            "; as in Batsim, a job runs on its smallest allocated host id: allocate hosts that reach the master");
    route_checked_[id] = true;
  }

  void apply_one(RejectJob& d)
  {
    Job& job = job_for(d.job_id, "REJECT_JOB");
    if (job.state != JobState::Submitted)
      fatal("REJECT_JOB: job '" + job.id + "' cannot be rejected: it is " + job_state_to_string(job.state));
    job.state = JobState::Rejected;
    nb_completed_++;
    ctx_->nb_completed_jobs++;
    ctx_->jobs_csv.add(job);
  }

  /// As Batsim's server_on_kill_jobs (server.cpp 877-915): a job whose kill was already
  /// requested is dropped (so it gets no second JOB_KILLED), and no killer starts (no
  /// KILLING_DONE, no JOB_KILLED) when nothing is left. A completed job may be named: its
  /// killer kills nothing and JOB_KILLED lists it without progress.
  void apply_one(KillJobs& d)
  {
    std::vector<std::string> to_kill;
    for (const auto& id : d.job_ids) {
      Job& job = job_for(id, "KILL_JOB");
      if (job.kill_requested)
        continue;
      // Batsim aborts on a job not started yet (server.cpp 896, jobs_execution.cpp 653).
      if (job.state != JobState::Running && (!job_state_is_final(job.state) || job.state == JobState::Rejected))
        fatal("KILL_JOB: job '" + id + "' cannot be killed: it is " + job_state_to_string(job.state) +
              " (only a running or completed job can be, as in Batsim)");
      // Batsim would cancel the task of a job it never executed (a null pointer): refuse.
      if (job.state == JobState::Running && !job.worker && !job.completion_sent)
        fatal("KILL_JOB: job '" + id +
              "' has no execution to kill: it was set RUNNING by CHANGE_JOB_STATE, not "
              "started by EXECUTE_JOB (set its final state with CHANGE_JOB_STATE instead)");
      job.kill_requested = true;
      to_kill.push_back(id);
    }
    if (to_kill.empty())
      return;
    nb_killers_++;
    simgrid::s4u::Actor::create("killer", ctx_->machines.master().host, killer_actor, ctx_, std::move(to_kill));
  }

  void apply_one(CallMeLater& d)
  {
    if (!(d.when <= kMaxTime)) // also NaN
      fatal("CALL_ME_LATER: timestamp " + format_date(d.when) + " is beyond the largest date Batsim can write (" +
            kMaxTimeText + " s)");
    // Counted until its WAITING_DONE arrives: the simulation does not end before (Batsim's
    // nb_waiters). A daemon only so that SimGrid does not wait for it if the run stops
    // early (check_nothing_pending_after_end).
    nb_waiters_++;
    simgrid::s4u::Actor::create("waiter", ctx_->machines.master().host, waiter_actor, d.when)->daemonize();
  }

  /// datasched extension: a data mover copies an item while jobs run (data_mover.hpp).
  void apply_one(DataStage& d)
  {
    PlannedStage stage;
    try {
      stage = plan_data_stage(d, ctx_->data, ctx_->storage_endpoints, ctx_->machines.nb_compute(),
                              [this](int id) { return ctx_->machines.at(id).name; });
    } catch (const InputError& e) {
      fatal(e.what());
    }
    if (ctx_->protocol_config.item_evictions_notified) // the stage's room was made now
      for (const Eviction& e : stage.evictions)
        ctx_->writer.append_item_evicted(eviction_event(e, ctx_->storage_endpoints, now()), now());
    nb_stagers_++; // until its DATASCHED_STAGE_DONE: the simulation does not end before
    simgrid::s4u::Actor::create("data_mover", ctx_->machines.master().host, data_mover_actor, ctx_, std::move(stage));
  }

  void apply_one(NotifyDecision& d)
  {
    if (d.type == "registration_finished") {
      registration_finished_ = true;
    } else if (d.type == "continue_registration") {
      registration_finished_ = !ctx_->protocol_config.dynamic_jobs_enabled;
    } else {
      fatal("NOTIFY: unknown notification type '" + d.type + "'");
    }
  }

  void require_dynamic(const std::string& what)
  {
    if (!ctx_->protocol_config.dynamic_jobs_enabled)
      fatal(what + " needs dynamic jobs, which are disabled (run the engine with --enable-dynamic-jobs)");
    if (registration_finished_)
      fatal(what + " after NOTIFY registration_finished");
  }

  void apply_one(RegisterJob& d)
  {
    require_dynamic("REGISTER_JOB '" + d.job_id + "'");
    auto bang = d.job_id.find('!');
    if (bang == std::string::npos)
      fatal("REGISTER_JOB: job id '" + d.job_id + "' must be 'workload!id'");
    Workload& w           = ctx_->workloads.get_or_create_dynamic(d.job_id.substr(0, bang));
    nlohmann::json object = d.job;
    object["id"]          = d.job_id;
    if (!object.contains("subtime"))
      object["subtime"] = now();
    Job* job = nullptr;
    try {
      job = &ctx_->workloads.add_job(w, object, "REGISTER_JOB");
    } catch (const InputError& e) {
      fatal(e.what());
    }
    job->submission_time = now();
    submit_dynamic(*job);
  }

  void submit_dynamic(Job& job)
  {
    job.state = JobState::Submitted;
    nb_submitted_++;
    if (ctx_->protocol_config.dynamic_jobs_acknowledged)
      ctx_->writer.append_job_submitted(job.id, job.description, nullptr, now());
  }

  void apply_one(RegisterProfile& d)
  {
    require_dynamic("REGISTER_PROFILE '" + d.profile_name + "'");
    Workload& w = ctx_->workloads.get_or_create_dynamic(d.workload_name);
    try {
      ctx_->workloads.add_profile(w, d.profile_name, d.profile, "REGISTER_PROFILE");
      ctx_->workloads.check_profile_references(w, "REGISTER_PROFILE");
      check_run_cost("REGISTER_PROFILE '" + d.profile_name + "'", "repeat", ctx_->workloads.largest_profile(w),
                     ctx_->config.allow_long_run);
    } catch (const InputError& e) {
      fatal(e.what());
    }
  }

  void apply_one(SetJobMetadata& d)
  {
    Job& job     = job_for(d.job_id, "SET_JOB_METADATA");
    job.metadata = d.metadata;
  }

  void apply_one(ChangeJobState& d)
  {
    Job& job = job_for(d.job_id, "CHANGE_JOB_STATE");
    try {
      JobState state = job_state_from_string(d.job_state);
      if (job_state_is_final(state) && !job_state_is_final(job.state) && job.state != JobState::Running) {
        job.state = state;
        nb_completed_++;
        ctx_->nb_completed_jobs++;
        ctx_->jobs_csv.add(job);
      } else {
        job.state = state;
      }
    } catch (const InputError& e) {
      fatal("CHANGE_JOB_STATE: job '" + job.id + "': " + e.what());
    }
  }

  /// Batsim 4.2.1 knows one query, consumed_energy (with -E), and answers each with an
  /// ANSWER event of its own.
  void apply_one(Query& d)
  {
    if (d.requests.empty())
      fatal("QUERY: 'requests' is empty (Batsim's only request is {\"consumed_energy\": {}})");
    for (const auto& [key, value] : d.requests.items()) {
      if (key != "consumed_energy")
        fatal("QUERY: unknown request '" + key + "' (Batsim's only request is consumed_energy)");
      if (!value.is_object() || !value.empty())
        fatal("QUERY consumed_energy: its value must be an empty object {}, got " + value.dump());
      if (!ctx_->energy.enabled())
        fatal("QUERY consumed_energy: energy is not simulated: run the engine with -E (--energy)");
      const double joules = static_cast<double>(ctx_->energy.consumed_total(ctx_->machines));
      ctx_->writer.append_answer(nlohmann::json{{"consumed_energy", joules}}, now());
    }
  }

  // ---- power states (-E), as Batsim 4.2.1's server_on_pstate_modification -------

  void apply_one(SetResourceState& d)
  {
    const std::string what = "SET_RESOURCE_STATE '" + d.resources.to_string(" ") + "' -> " + std::to_string(d.pstate);
    if (!ctx_->energy.enabled())
      fatal(what + ": power states need energy: run the engine with -E (--energy)");
    for (int id : d.resources.elements())
      check_switch(what, id, d.pstate);

    EnergyTracker& energy = ctx_->energy;
    const Machine& first  = ctx_->machines.at(d.resources.first());
    const bool to_sleep   = first.pstates->is(d.pstate, PStateKind::Sleep);
    pending_switches_.add(d.resources, d.pstate);
    energy.trace(ctx_->machines, now(), 'p');
    // Until the switch is over, Batsim writes -1 (towards a computation pstate) or -2
    // (towards a sleep pstate).
    energy.pstate_changes.add(now(), d.resources, to_sleep ? -2 : -1);
    energy.nb_grouped_switches++;
    energy.nb_machine_switches += d.resources.size();

    for (int id : d.resources.elements()) {
      Machine& m        = ctx_->machines.at(id);
      const int current = static_cast<int>(m.host->get_pstate());
      const bool waking = m.pstates->is(current, PStateKind::Sleep);
      const bool dozing = !waking && m.pstates->is(d.pstate, PStateKind::Sleep);
      if (!waking && !dozing) { // between computation pstates: immediate
        m.host->set_pstate(d.pstate);
        IntervalSet all;
        if (pending_switches_.done(id, d.pstate, all))
          on_switch_request_done(all, d.pstate);
        continue;
      }
      ctx_->set_power_state(m, waking ? PowerState::SwitchingOn : PowerState::SwitchingOff, now());
      nb_switching_++;
      simgrid::s4u::Actor::create(waking ? "switch_on" : "switch_off", m.host, power_switch_actor, ctx_, id, d.pstate,
                                  waking);
    }
    ctx_->machine_states_csv.add_row(now(), ctx_->machine_states); // Batsim: one row per request
  }

  /// What Batsim forbids (it asserts, or logs and goes on): unknown hosts and pstates,
  /// virtual pstates, sleep to sleep, a busy host to sleep, a host already switching.
  void check_switch(const std::string& what, int id, int pstate)
  {
    if (!ctx_->machines.exists(id))
      fatal(what + ": host " + std::to_string(id) + " does not exist (the platform has " +
            std::to_string(ctx_->machines.size()) + " resources)");
    const Machine& m        = ctx_->machines.at(id);
    const PowerStates& p    = *m.pstates;
    const std::string where = what + ": host " + std::to_string(id) + " (" + m.name + ")";
    if (!p.exists(pstate))
      fatal(where + " has no pstate " + std::to_string(pstate) + " (its pstates are 0-" +
            std::to_string(p.kinds.size() - 1) + ")");
    if (p.is(pstate, PStateKind::Transition))
      fatal(where + ": pstate " + std::to_string(pstate) +
            " is a virtual switching pstate of its sleep_pstates; only computation and sleep pstates can be requested");
    if (m.power == PowerState::SwitchingOn || m.power == PowerState::SwitchingOff)
      fatal(where + " is " + power_state_to_string(m.power) + ": wait for its RESOURCE_STATE_CHANGED");
    const bool sleeping = m.power == PowerState::Sleeping;
    if (sleeping && !p.is(pstate, PStateKind::Computation))
      fatal(where + " is sleeping: it can only switch on, to a computation pstate");
    if (!sleeping && p.is(pstate, PStateKind::Sleep) && !m.running_jobs.empty())
      fatal(where + " runs job '" + m.running_jobs.front()->id + "': it cannot switch to sleep pstate " +
            std::to_string(pstate));
  }

  /// Every host of a request reached its pstate: trace it and tell the decision process.
  void on_switch_request_done(const IntervalSet& all, int pstate)
  {
    ctx_->energy.pstate_changes.add(now(), all, pstate);
    ctx_->energy.trace(ctx_->machines, now(), 'p');
    ctx_->writer.append_resource_state_changed(all.to_string(" "), std::to_string(pstate), now());
  }

  void on_switched(const Message& m)
  {
    IntervalSet all;
    if (pending_switches_.done(m.machine_id, m.pstate, all)) {
      ctx_->machine_states_csv.add_row(now(), ctx_->machine_states); // Batsim: a row when a request is done
      on_switch_request_done(all, m.pstate);
    }
    nb_switching_--;
  }

  Context* ctx_;
  int expected_submitters_    = 0;
  int nb_submitters_finished_ = 0;
  int nb_submitted_           = 0;
  int nb_completed_           = 0;
  int nb_running_             = 0;
  int nb_killers_             = 0;
  int nb_switching_           = 0; ///< hosts switching on or off (-E)
  PendingSwitches pending_switches_;
  int nb_waiters_             = 0;
  int nb_stagers_             = 0; ///< data movers under way (DATASCHED_STAGE)
  bool registration_finished_ = true;
  bool sched_ready_           = false;
  bool end_sent_              = false;
  bool end_acknowledged_      = false;
  std::vector<bool> route_checked_;
};

} // namespace

void server_actor(Context* context)
{
  run_actor_guarded([context] { Server(context).run(); });
}

} // namespace datasched
