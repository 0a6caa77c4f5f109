// Runs a job's profile on its allocation and reports its completion to the server;
// kills jobs.
#include <algorithm>
#include <limits>

#include <simgrid/Exception.hpp>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/Semaphore.hpp>
#include <xbt/asserts.h>

#include "common/fatal.hpp"
#include "execution/actors.hpp"
#include "execution/context.hpp"
#include "execution/item_traffic.hpp"
#include "execution/messages.hpp"
#include "execution/page_cache_flush.hpp"
#include "execution/phase_plan.hpp"
#include "execution/ptask.hpp"
#include "execution/san_path.hpp"

namespace datasched {

namespace {

using simgrid::s4u::Engine;
using simgrid::s4u::Host;

enum class Outcome { Completed, WalltimeReached, Killed };

class ProfileRunner {
public:
  ProfileRunner(Context* context, Job* job, simgrid::s4u::Semaphore& wakeup)
      : context_(context), job_(job), wakeup_(wakeup)
  {
    const std::vector<int> allocated = job->allocation.elements();
    if (job->mapping.empty()) {
      executor_ids_ = allocated;
    } else {
      for (int index : job->mapping)
        executor_ids_.push_back(allocated.at(index));
    }
    for (int id : executor_ids_)
      executors_.push_back(context->machines.at(id).host);
    if (job->walltime > 0)
      remaining_ = job->walltime;
  }

  Outcome run(const Profile& profile)
  {
    switch (profile.type) {
      case ProfileType::Delay:
        return run_delay(profile);
      case ProfileType::Composed:
        return run_composed(profile);
      case ProfileType::Phases:
        return run_phases(profile);
      default:
        return run_ptask(profile);
    }
  }

  /// Ptasks that reached the walltime keep running until the completion message has
  /// been delivered (as in Batsim); they are cancelled afterwards.
  std::vector<simgrid::s4u::ExecPtr> timed_out_execs;

  /// Whether the killer's release of the wakeup semaphore ended one of our waits.
  bool kill_release_consumed() const { return kill_release_consumed_; }

private:
  /// As in Batsim, the walltime left is a duration, never recomputed from an absolute
  /// deadline: each step subtracts what it took (a delay its own length, a ptask the
  /// clock difference around its wait). A negative value means no limit, and a ptask
  /// that overran by a rounding error lifts the limit for the steps after it, as it
  /// does in Batsim (jobs_execution.cpp do_delay_task, task_execution.cpp
  /// execute_parallel_task).
  bool limited() const { return remaining_ >= 0; }

  /// Checked after every wait. Once the killer has marked the job killed, the job must
  /// act no more (as a killed actor never runs again) and must not touch
  /// job_->progress, which the killer cleared.
  bool killed() const { return job_->killed; }

  /// Waits for one of `pending` and returns its index, or -1 when the walltime left is
  /// used up (subtracting the time waited).
  ssize_t wait_any(std::vector<simgrid::s4u::ExecPtr>& pending)
  {
    const double before = Engine::get_clock();
    const ssize_t index = simgrid::s4u::Exec::wait_any_for(pending, limited() ? remaining_ : -1.0);
    if (limited())
      remaining_ -= Engine::get_clock() - before;
    if (index >= 0 && index < static_cast<ssize_t>(pending.size()))
      return index;
    return -1;
  }

  /// this_actor::sleep_for(duration), but a kill ends it early. A semaphore timeout is
  /// the same CPU sleep action as sleep_for's (so the wait ends at the same date, and
  /// in the same order as other events of that date); the only release it can get
  /// while the job runs is the killer's. Returns true if the job was killed.
  bool sleep_unless_killed(double duration)
  {
    if (duration <= 0) // sleep_for's no-op: no simcall either
      return killed();
    if (!wakeup_.acquire_timeout(duration))
      kill_release_consumed_ = true;
    return killed();
  }

  /// Waits for a step's streams (or the walltime, or a kill) on the wakeup semaphore
  /// that both the streams' completion and a kill release once: counts which of them it
  /// consumed (a kill while completion is pending leaves the killer's).
  Outcome wait_streams(StreamedIo& streamed)
  {
    const double before = Engine::get_clock();
    bool timed_out      = false;
    if (limited())
      timed_out = wakeup_.acquire_timeout(remaining_);
    else
      wakeup_.acquire();
    if (limited())
      remaining_ -= Engine::get_clock() - before;
    if (!timed_out) {
      if (streamed.released())
        streamed.token_consumed = true;
      else
        kill_release_consumed_ = true;
    }
    if (killed())
      return Outcome::Killed;
    return timed_out ? Outcome::WalltimeReached : Outcome::Completed;
  }

  Outcome run_delay(const Profile& profile)
  {
    job_->progress.push_back(ProgressFrame{profile.name, 0, Engine::get_clock(), profile.delay, nullptr, {}});
    // A delay succeeds only when strictly shorter than the walltime left: a delay equal
    // to it is a walltime kill (Batsim's rule).
    if (limited() && !(profile.delay < remaining_)) {
      const double left = remaining_;
      remaining_        = 0;
      return sleep_unless_killed(left) ? Outcome::Killed : Outcome::WalltimeReached;
    }
    if (sleep_unless_killed(profile.delay))
      return Outcome::Killed;
    if (remaining_ > 0)
      remaining_ -= profile.delay;
    job_->progress.pop_back();
    return Outcome::Completed;
  }

  Outcome run_composed(const Profile& profile)
  {
    const auto& profiles = job_->workload->profiles;
    job_->progress.push_back(ProgressFrame{profile.name, 0, Engine::get_clock(), 0, nullptr, {}});
    const size_t frame = job_->progress.size() - 1;
    int index          = 0;
    for (int r = 0; r < profile.repeat; ++r)
      for (const auto& name : profile.sequence) {
        job_->progress[frame].task_index = index++;
        const Outcome outcome            = run(profiles.at(name));
        if (outcome != Outcome::Completed)
          return outcome;
      }
    job_->progress.pop_back();
    return Outcome::Completed;
  }

  int storage_host_index(const std::string& label, const char* what)
  {
    auto it = job_->storage_mapping.find(label);
    if (it != job_->storage_mapping.end()) {
      if (!context_->machines.exists(it->second))
        fatal("job '" + job_->id + "': storage_mapping['" + label + "'] = " + std::to_string(it->second) +
              " is not a resource id");
      return it->second;
    }
    if (context_->machines.nb_storage() == 1)
      return context_->machines.nb_compute();
    fatal("job '" + job_->id + "': cannot resolve the " + what + " storage label '" + label +
          "': EXECUTE_JOB has no storage_mapping for it and the platform has " +
          std::to_string(context_->machines.nb_storage()) + " storage hosts (inference needs exactly one)");
  }

  Outcome run_ptask(const Profile& profile)
  {
    std::vector<Host*> hosts;
    std::vector<double> flops, bytes;
    build_ptask(profile, hosts, flops, bytes);
    if (job_->io_profile && job_->progress.empty())
      merge_io_job(hosts, flops, bytes);
    // The pairs are read by the route check of a host list not yet trusted and by the arbiter:
    // a job repeating its tasks on trusted hosts without a traffic policy skips the n^2 scan.
    const bool arbitrated = context_->traffic.policy().active();
    PairBytes pairs;
    if (arbitrated || !context_->routes.trusted(hosts)) {
      pairs = PairBytes::from_dense(bytes, hosts.size());
      if (std::string why = context_->routes.problem(hosts, pairs); !why.empty())
        fatal("job '" + job_->id + "' (profile '" + profile.name + "'): " + why);
    }
    auto exec = simgrid::s4u::this_actor::exec_init(hosts, flops, bytes);
    job_->progress.push_back(ProgressFrame{profile.name, 0, Engine::get_clock(), 0, exec, {}});
    exec->start();
    if (arbitrated)
      context_->traffic.started(exec, traffic_class_of(profile.type), hosts, pairs);
    const double before = Engine::get_clock();
    bool timed_out      = false;
    try {
      if (!limited())
        exec->wait();
      else
        exec->wait_for(remaining_);
    } catch (const simgrid::TimeoutException&) {
      timed_out = true;
    } catch (const simgrid::CancelException&) { // only killer_actor cancels a running job's ptask
      return Outcome::Killed;
    }
    if (timed_out) {
      timed_out_execs.push_back(exec);
      return Outcome::WalltimeReached;
    }
    if (limited())
      remaining_ -= Engine::get_clock() - before;
    if (arbitrated)
      context_->traffic.ended(exec.get());
    if (killed())
      return Outcome::Killed;
    job_->progress.pop_back();
    return Outcome::Completed;
  }

  static TrafficClass traffic_class_of(ProfileType type)
  {
    return type == ProfileType::ParallelHomogeneousPfs || type == ProfileType::DataStaging ? TrafficClass::Storage
                                                                                           : TrafficClass::Ipc;
  }

  /// A datasched_phases profile: stage-in, the phases in order, stage-out. Each step's
  /// activities (phase_plan.hpp) start together; the step ends when all have ended.
  Outcome run_phases(const Profile& profile)
  {
    const PhaseProfile& phases        = *profile.phases;
    const StorageEndpoints& endpoints = context_->storage_endpoints;
    // The planner throws InputError for what this job cannot do here: fatal, naming it.
    auto or_fatal = [&](auto&& make) {
      try {
        return make();
      } catch (const InputError& e) {
        fatal("job '" + job_->id + "' (profile '" + profile.name + "'): " + e.what());
      }
    };
    const StorageAssignment storage = or_fatal([&] {
      return resolve_storage(phases, executor_ids_, job_->requested_storage, endpoints,
                             context_->machines.nb_compute());
    });
    job_->io                        = std::make_unique<IoRecord>();
    job_->io->devices               = storage.devices;
    job_->io->access                = storage.access;
    job_->io->allocation            = storage.allocation;
    job_->progress.push_back(ProgressFrame{profile.name, 0, Engine::get_clock(), 0, nullptr, {}});
    const size_t frame = job_->progress.size() - 1;
    const int nb_steps = static_cast<int>(phases.phases.size()) + 2;
    const ItemPins pins(context_->data, phases.item_names());
    for (int step = 0; step < nb_steps; ++step) {
      const bool stage_in = step == 0, stage_out = step == nb_steps - 1;
      std::vector<ActivitySpec> specs;
      PlannedItems items; // the phase's named data items (item_traffic.hpp)
      job_->progress[frame].task_index = step;
      Phase phase;              // a middle step's phase, without the bytes of its named items
      double absorb_start = -1; // when the page caches started absorbing this phase's writes
      if (stage_in || stage_out)
        specs = or_fatal([&] { return plan_stage(stage_in, phases, executor_ids_, storage, endpoints); });
      else {
        phase = phases.phases[step - 1];
        if (!phase.items.empty()) {
          items = or_fatal([&] { return plan_phase_items(phases, phase); });
          notify_evictions(items);
          phase.amount = items.anonymous_amount;
          if (const Outcome saved = run_writeback(items, frame); saved != Outcome::Completed)
            return abandon(items, saved);
          // Page-cache writes: the dirty pages first (DRAM rate), then the written-through rest.
          absorb_start = Engine::get_clock();
          if (const Outcome absorbed = run_activities(items.cached, frame, absorb_start);
              absorbed != Outcome::Completed)
            return abandon(items, absorbed);
        }
        specs = or_fatal([&] {
          return plan_phase(phases, phase, executor_ids_, storage, endpoints, context_->config.ipc_fanout,
                            context_->config.io_groups);
        });
        specs.insert(specs.end(), items.activities.begin(), items.activities.end());
      }
      const double start = Engine::get_clock();
      // SAN I/O through a service (san_path.hpp: forwarders, staging servers)
      std::shared_ptr<StreamedIo> streamed;
      const bool read         = phase.kind == PhaseKind::Read;
      SanPath* const san_path = context_->services.san.get();
      if (san_path != nullptr && !stage_in && !stage_out && (read || phase.kind == PhaseKind::Write) &&
          san_path->carries(read)) {
        const auto streams = plan_san_streams(phases, phase, executor_ids_, storage);
        if (!streams.empty())
          streamed = san_path->start(*context_, *job_, wakeup_, read, streams, storage.devices, san_files_);
      }
      const Outcome outcome = run_activities(specs, frame, start, streamed.get());
      if (streamed) { // no more requests; a completion release the job did not consume is taken back
        streamed->stop();
        if (streamed->released() && !streamed->token_consumed)
          wakeup_.acquire();
      }
      if (outcome != Outcome::Completed)
        return abandon(items, outcome);
      if (!items.empty()) {
        commit_items(items, context_->data, Engine::get_clock(), &context_->page_cache);
        start_page_cache_flush(context_, std::move(items.flushes), job_->id);
        record_items(items, *job_->io, context_->data_csv, job_->id, absorb_start >= 0 ? absorb_start : start,
                     Engine::get_clock());
      }
      if (!(Engine::get_clock() <= kMaxTime)) // a phase of absurd bytes or flops for the platform's rates
        fatal("job '" + job_->id + "' (profile '" + profile.name + "'): " +
              (stage_in    ? std::string("its stage-in")
               : stage_out ? std::string("its stage-out")
                           : "phase " + std::to_string(step - 1) + " (" + phase_kind_to_string(phase.kind) + ", " +
                                 format_date(phases.phases[step - 1].amount) +
                                 (phase.kind == PhaseKind::Compute ? " flops)" : " bytes)")) +
              " started at " + format_date(start) + " s and ended at " + format_date(Engine::get_clock()) +
              " s, beyond the largest date Batsim can write (" + kMaxTimeText + " s)");
      const double elapsed = Engine::get_clock() - (absorb_start >= 0 ? absorb_start : start);
      if (stage_in || stage_out)
        job_->io->stage_seconds += elapsed;
      else
        job_->io->phase_seconds[static_cast<int>(phases.phases[step - 1].kind)] += elapsed;
    }
    job_->progress.pop_back();
    return Outcome::Completed;
  }

  /// Pins the items a phase job names for as long as it runs: no eviction takes them.
  struct ItemPins {
    DataRegistry& registry;
    std::vector<std::string> names;
    ItemPins(DataRegistry& r, std::vector<std::string> n) : registry(r), names(std::move(n))
    {
      for (const auto& name : names)
        registry.pin(name);
    }
    ~ItemPins()
    {
      for (const auto& name : names)
        registry.unpin(name);
    }
  };

  PlannedItems plan_phase_items(const PhaseProfile& phases, const Phase& phase)
  {
    const auto& requested = job_->requested_storage;
    return plan_items(
        phases, phase, executor_ids_, context_->data, context_->storage_endpoints,
        requested ? requested->items_to : std::nullopt, [this](int id) { return context_->machines.at(id).name; },
        Engine::get_clock(), &context_->page_cache);
  }

  /// --datasched-item-evictions: the server tells the decision process which items the
  /// phase's writes evicted, dated now (their room is free now, their write-back starts
  /// now). Detached: the job does not wait for the 1-byte control message.
  void notify_evictions(const PlannedItems& items)
  {
    if (!context_->protocol_config.item_evictions_notified || items.evictions.empty())
      return;
    auto* message = new_message(MessageType::ItemsEvicted);
    for (const Eviction& e : items.evictions)
      message->evicted.push_back(eviction_event(e, context_->storage_endpoints, Engine::get_clock()));
    send_to_server_detached(message);
  }

  /// Evicted dirty items go to central storage before the phase that needed their room.
  Outcome run_writeback(PlannedItems& items, size_t frame)
  {
    const double start    = Engine::get_clock();
    const Outcome outcome = run_activities(items.writeback, frame, start);
    record_evictions(items, context_->data_csv, job_->id, start, Engine::get_clock());
    return outcome;
  }

  /// The phase will not end (kill, walltime): the room its writes reserved is free again.
  Outcome abandon(const PlannedItems& items, Outcome outcome)
  {
    abandon_items(items, context_->data);
    return outcome;
  }

  /// Starts the SimGrid activities of `spec` on `hosts` with `bytes` (calibrated for an
  /// approximate all-to-all): the spec as one ptask, or under --sharing flow one
  /// single-flow ptask per flow plus one for its computation (traffic.hpp). `bytes` is
  /// taken over: SimGrid gets its pairs in sparse form, without a copy
  /// (simgrid/patches/0006 and 0007).
  std::vector<simgrid::s4u::ExecPtr> start_spec(const ActivitySpec& spec, const std::vector<Host*>& hosts,
                                                PairBytes bytes)
  {
    std::vector<simgrid::s4u::ExecPtr> execs;
    // The arbiter reads the amounts after the start, so it gets a copy, only when a
    // traffic policy weighs activities. The amounts are built finite and of the right
    // sizes (checked workload numbers), so this_actor::exec_init's re-checks are skipped.
    const bool arbitrated = context_->traffic.policy().active();
    auto start            = [&](const std::vector<Host*>& where, std::vector<double> flops, PairBytes amounts) {
      PairBytes seen_by_arbiter = arbitrated ? amounts : PairBytes{};
      auto exec                 = init_ptask(where, std::move(flops), std::move(amounts));
      exec->start();
      context_->traffic.started(exec, spec.traffic, where, seen_by_arbiter);
      execs.push_back(exec);
    };
    if (context_->config.sharing == SharingUnit::Activity) {
      start(hosts, spec.flops, std::move(bytes));
      return execs;
    }
    if (std::any_of(spec.flops.begin(), spec.flops.end(), [](double f) { return f > 0; }))
      start(hosts, spec.flops, {});
    for (const PairBytes::Pair& flow : bytes)
      start({hosts[flow.src], hosts[flow.dst]}, {0, 0}, PairBytes::from_flows({{0, 1, flow.bytes}}));
    if (execs.empty()) // nothing to compute or move: one empty ptask, as in activity mode
      start(hosts, spec.flops, std::move(bytes));
    return execs;
  }

  /// Starts every activity of one step whose predecessors (ActivitySpec::after) have ended,
  /// each of the others when its last predecessor ends, and waits for all of them (or the
  /// walltime), recording when each ends (a spec ends with the last of its SimGrid activities).
  /// `specs` is the step's plan: each spec's byte matrix is handed to SimGrid as it starts
  /// (the rest of the step reads only its other fields).
  Outcome run_activities(std::vector<ActivitySpec>& specs, size_t frame, double start, StreamedIo* streamed = nullptr)
  {
    if (specs.empty() && !streamed)
      return Outcome::Completed;
    std::vector<simgrid::s4u::ExecPtr> pending;
    std::vector<size_t> pending_specs; ///< index in specs of each pending activity
    std::vector<size_t> left(specs.size(), 0);
    std::vector<size_t> waiting(specs.size(), 0); ///< predecessors not ended yet
    std::vector<std::vector<size_t>> successors(specs.size());
    for (size_t k = 0; k < specs.size(); ++k)
      for (size_t before : specs[k].after) {
        xbt_assert(before < k, "activity %zu of a step waits for a later one (%zu)", k, before);
        successors[before].push_back(k);
        waiting[k]++;
      }
    auto launch = [&](size_t k) {
      ActivitySpec with_daemons;
      const ActivitySpec& spec = served_by(context_->services.nodes.get(), specs[k], with_daemons);
      std::vector<Host*> hosts;
      hosts.reserve(spec.hosts.size());
      for (int id : spec.hosts)
        hosts.push_back(context_->machines.at(id).host);
      // An approximate all-to-all (--ipc-fanout, ipc_sampling.hpp) is calibrated first: that
      // routes, and so checks, every pair of its hosts, and the check below is then free.
      std::string why;
      if (spec.exact_pair_bytes > 0)
        why = context_->all_to_all.calibrate(spec, hosts, context_->routes);
      if (why.empty())
        why = context_->routes.problem(hosts, spec.bytes);
      if (!why.empty())
        fatal("job '" + job_->id + "': " + why);
      ActivitySpec& planned = &spec == &with_daemons ? with_daemons : specs[k];
      PairBytes bytes       = std::move(planned.bytes);
      if (spec.exact_pair_bytes > 0)
        bytes.scale(context_->all_to_all.scale(spec));
      for (auto& exec : start_spec(spec, hosts, std::move(bytes))) {
        pending.push_back(exec);
        pending_specs.push_back(k);
        left[k]++;
      }
    };
    for (size_t k = 0; k < specs.size(); ++k)
      if (waiting[k] == 0)
        launch(k);
    job_->progress[frame].execs = pending;
    std::array<double, kNbTrafficClasses> class_end{};
    std::array<double, kNbTiers> tier_end{};
    while (!pending.empty()) {
      ssize_t index = -1;
      try {
        index = wait_any(pending);
      } catch (const simgrid::CancelException&) {
        return Outcome::Killed;
      }
      if (killed())
        return Outcome::Killed;
      if (index < 0 || index >= static_cast<ssize_t>(pending.size())) { // the walltime
        timed_out_execs = pending;
        return Outcome::WalltimeReached;
      }
      const size_t k = pending_specs[index];
      context_->traffic.ended(pending[index].get());
      pending.erase(pending.begin() + index);
      pending_specs.erase(pending_specs.begin() + index);
      job_->progress[frame].execs = pending; // a kill cancels (and reports progress of) only these
      if (--left[k] > 0)
        continue;
      const double took        = Engine::get_clock() - start;
      const ActivitySpec& spec = specs[k];
      IoRecord& io             = *job_->io;
      io.bytes[static_cast<int>(spec.tier)] += spec.total_bytes;
      tier_end[static_cast<int>(spec.tier)]     = std::max(tier_end[static_cast<int>(spec.tier)], took);
      class_end[static_cast<int>(spec.traffic)] = std::max(class_end[static_cast<int>(spec.traffic)], took);
      if (!successors[k].empty()) {
        for (size_t next : successors[k])
          if (--waiting[next] == 0)
            launch(next);
        job_->progress[frame].execs = pending; // a kill must also cancel the activities just started
      }
    }
    if (streamed) {
      if (const Outcome outcome = wait_streams(*streamed); outcome != Outcome::Completed)
        return outcome;
      const double took = streamed->end() - start;
      const int san     = static_cast<int>(Tier::San);
      const int storage = static_cast<int>(TrafficClass::Storage);
      job_->io->bytes[san] += streamed->bytes();
      tier_end[san]      = std::max(tier_end[san], took);
      class_end[storage] = std::max(class_end[storage], took);
    }
    for (int c = 0; c < kNbTrafficClasses; ++c)
      job_->io->class_seconds[c] += class_end[c];
    for (int t = 0; t < kNbTiers; ++t)
      job_->io->seconds[t] += tier_end[t];
    job_->progress[frame].execs.clear();
    return Outcome::Completed;
  }

  /// Adds the additional I/O job's ptask to the job's: hosts present in both add up,
  /// the I/O job's other hosts are appended.
  void merge_io_job(std::vector<Host*>& hosts, std::vector<double>& flops, std::vector<double>& bytes)
  {
    const Profile& io             = *job_->io_profile;
    const std::vector<int> io_ids = job_->io_allocation.elements();
    const size_t n                = hosts.size();
    std::vector<size_t> index_of_io(io_ids.size());
    std::vector<Host*> merged_hosts = hosts;
    for (size_t k = 0; k < io_ids.size(); ++k) {
      Host* h        = context_->machines.at(io_ids[k]).host;
      auto it        = std::find(merged_hosts.begin(), merged_hosts.end(), h);
      index_of_io[k] = static_cast<size_t>(it - merged_hosts.begin());
      if (it == merged_hosts.end())
        merged_hosts.push_back(h);
    }
    const size_t m = merged_hosts.size();
    std::vector<double> merged_flops(m, 0), merged_bytes(m * m, 0);
    for (size_t i = 0; i < n; ++i) {
      merged_flops[i] = flops[i];
      if (!bytes.empty())
        for (size_t j = 0; j < n; ++j)
          merged_bytes[i * m + j] = bytes[i * n + j];
    }
    const size_t k_n = io_ids.size();
    for (size_t a = 0; a < k_n; ++a) {
      merged_flops[index_of_io[a]] += io.cpu[a];
      for (size_t b = 0; b < k_n; ++b)
        merged_bytes[index_of_io[a] * m + index_of_io[b]] += io.com[a * k_n + b];
    }
    hosts = std::move(merged_hosts);
    flops = std::move(merged_flops);
    bytes = std::move(merged_bytes);
  }

  void build_ptask(const Profile& p, std::vector<Host*>& hosts, std::vector<double>& flops, std::vector<double>& bytes)
  {
    const size_t n = executors_.size();
    switch (p.type) {
      case ProfileType::Parallel: {
        if (p.cpu.size() != n)
          fatal("job '" + job_->id + "': profile '" + p.name + "' has " + std::to_string(p.cpu.size()) +
                " executors but the job runs on " + std::to_string(n) + " hosts");
        hosts        = executors_;
        flops        = p.cpu;
        bool any_com = std::any_of(p.com.begin(), p.com.end(), [](double b) { return b > 0; });
        if (any_com)
          bytes = p.com;
        return;
      }
      case ProfileType::ParallelHomogeneous:
      case ProfileType::ParallelHomogeneousTotal: {
        const bool total = p.type == ProfileType::ParallelHomogeneousTotal;
        const double cpu = total ? p.cpu_amount / n : p.cpu_amount;
        const double com = total ? p.com_amount / n : p.com_amount;
        hosts            = executors_;
        flops.assign(n, cpu);
        if (com > 0) {
          bytes.assign(n * n, com);
          for (size_t i = 0; i < n; ++i)
            bytes[i * n + i] = 0;
        }
        return;
      }
      case ProfileType::ParallelHomogeneousPfs: {
        const int storage = storage_host_index(p.storage_label, "pfs");
        hosts             = executors_;
        hosts.push_back(context_->machines.at(storage).host);
        const size_t m = n + 1;
        flops.assign(m, 0);
        bytes.assign(m * m, 0);
        for (size_t i = 0; i < n; ++i) {
          bytes[i * m + n] = p.bytes_to_write;
          bytes[n * m + i] = p.bytes_to_read;
        }
        return;
      }
      case ProfileType::DataStaging: {
        const int from = storage_host_index(p.from_label, "source");
        const int to   = storage_host_index(p.to_label, "destination");
        if (from == to)
          fatal("job '" + job_->id + "': data_staging profile '" + p.name + "' moves data from host " +
                std::to_string(from) + " to itself ('" + p.from_label + "' and '" + p.to_label +
                "' map to the same storage host)");
        hosts = {context_->machines.at(from).host, context_->machines.at(to).host};
        flops = {0, 0};
        bytes = {0, p.nb_bytes, 0, 0};
        return;
      }
      default:
        fatal("job '" + job_->id + "': profile '" + p.name + "' of type " + profile_type_to_string(p.type) +
              " cannot run as a parallel task");
    }
  }

  Context* context_;
  Job* job_;
  simgrid::s4u::Semaphore& wakeup_;
  bool kill_release_consumed_ = false;
  std::vector<int> executor_ids_;
  std::vector<Host*> executors_;
  std::vector<int> san_files_; ///< what the SAN path keeps for the job between its phases (san_path.hpp)
  double remaining_ = -1;      ///< walltime left (s); negative: no limit
};

} // namespace

namespace {

/// -E: the job's energy is its hosts' energy at its end minus at its start, read in the
/// job's actor where Batsim reads it (a kill reads the end in the killer).
void measure_energy_at_start(Context* context, Job* job)
{
  if (!context->energy.enabled())
    return;
  job->consumed_energy = context->energy.consumed_on(context->machines, job->allocation);
  context->energy.trace(context->machines, Engine::get_clock(), 's');
}

void measure_energy_at_end(Context* context, Job* job)
{
  if (!context->energy.enabled())
    return;
  job->consumed_energy = context->energy.consumed_on(context->machines, job->allocation) - job->consumed_energy;
  context->energy.trace_job_end(context->machines, Engine::get_clock());
}

} // namespace

void run_job(Context* context, Job* job, simgrid::s4u::Semaphore& wakeup)
{
  measure_energy_at_start(context, job);
  if (job->killed) {  // by a killer that ran while the reading above yielded
    wakeup.acquire(); // its interruption
    return;
  }
  ProfileRunner runner(context, job, wakeup);
  const Profile& profile = context->workloads.profile_of(*job);
  const Outcome outcome  = runner.run(profile);
  if (outcome == Outcome::Killed) {
    // The killer did the job's bookkeeping. Its release of `wakeup` (one per kill) did
    // not end a wait of ours if the kill cancelled a ptask: consume it here, so that
    // the worker's next wait on `wakeup` is for its next job.
    if (!runner.kill_release_consumed())
      wakeup.acquire();
    return;
  }
  // Any other profile whose work outlasts the largest date (a parallel task of 1e300 flops):
  // the job is named here, not the decision process that would echo the date.
  if (!(Engine::get_clock() <= kMaxTime))
    fatal("job '" + job->id + "' (profile '" + profile.name + "') started at " + format_date(job->starting_time) +
          " s and ended at " + format_date(Engine::get_clock()) + " s, beyond the largest date Batsim can write (" +
          kMaxTimeText + " s)");
  // Batsim's runtime is the clock difference in long double, also at a walltime kill.
  job->runtime = static_cast<long double>(Engine::get_clock()) - job->starting_time;
  if (outcome == Outcome::WalltimeReached) {
    job->state       = JobState::CompletedWalltimeReached;
    job->return_code = -1;
  } else {
    job->return_code = profile.return_code;
    job->state       = profile.return_code == 0 ? JobState::CompletedSuccessfully : JobState::CompletedFailed;
  }
  context->machines_job_ended(*job, Engine::get_clock());
  job->progress.clear();
  job->completion_sent = true; // before the energy reading, which yields: too late to kill now
  measure_energy_at_end(context, job);
  auto* message = new_message(MessageType::JobCompleted);
  message->jobs = {job};
  send_to_server(message);
  for (auto& exec : runner.timed_out_execs) {
    context->traffic.ended(exec.get());
    exec->cancel();
  }
}

namespace {
nlohmann::json progress_of(const Job& job, size_t level)
{
  const ProgressFrame& f = job.progress.at(level);
  nlohmann::json out{{"profile_name", f.profile_name}};
  if (level + 1 < job.progress.size() && !f.exec && f.delay == 0) {
    out["current_task_index"] = f.task_index;
    out["current_task"]       = progress_of(job, level + 1);
    return out;
  }
  double progress = 0;
  if (!f.execs.empty()) { // a phase step: its least advanced activity
    progress = 1.0;
    for (const auto& exec : f.execs)
      if (exec->get_state() == simgrid::s4u::Activity::State::STARTED)
        progress = std::min(progress, 1.0 - exec->get_remaining_ratio());
    out["current_task_index"] = f.task_index;
  } else if (f.exec)
    progress = 1.0 - f.exec->get_remaining_ratio();
  else if (f.delay > 0)
    progress = (Engine::get_clock() - f.start_time) / f.delay;
  out["progress"] = progress;
  return out;
}
} // namespace

static void kill_jobs(Context* context, const std::vector<std::string>& job_ids)
{
  auto* message     = new_message(MessageType::KillingDone);
  message->job_ids  = job_ids;
  message->progress = nlohmann::json::object();
  const double now  = Engine::get_clock();
  for (const auto& id : job_ids) {
    Job* job = context->workloads.find_job(id);
    if (!job || job->state != JobState::Running || job->completion_sent || job->killed)
      continue;
    message->progress[id] = job->progress.empty() ? nlohmann::json::object() : progress_of(*job, 0);
    job->killed           = true;
    context->cancel_activities(*job);
    // One simcall, as the Actor::kill() of the former actor-per-job design: it wakes the
    // job's worker from a delay (its ptasks' cancellations already woke it).
    JobPool::interrupt(*job);
    job->worker = nullptr;
    job->progress.clear();
    context->machines_job_ended(*job, now);
    job->runtime     = static_cast<long double>(now) - job->starting_time;
    job->state       = JobState::CompletedKilled;
    job->return_code = -2;
    measure_energy_at_end(context, job);
    message->jobs.push_back(job);
  }
  send_to_server(message);
}

void killer_actor(Context* context, std::vector<std::string> job_ids)
{
  run_actor_guarded([context, &job_ids] { kill_jobs(context, job_ids); });
}

} // namespace datasched
