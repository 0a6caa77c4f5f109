#include "execution/simulation.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <xbt/config.h>

#include "common/csv.hpp"
#include "common/fatal.hpp"
#include "execution/actors.hpp"
#include "execution/context.hpp"
#include "execution/messages.hpp"
#include "execution/san_path.hpp"
#include "export/links_csv.hpp"
#include "export/machine_states_csv.hpp"
#include "export/output_files.hpp"
#include "export/schedule_csv.hpp"
#include "export/utilisation_csv.hpp"
#include "model/platform_check.hpp"
#include "model/run_cost.hpp"
#include "services/node_daemons.hpp"
#include "transport/zmq_client.hpp"

namespace datasched {

namespace {

std::unique_ptr<simgrid::s4u::Engine> g_engine;
std::vector<std::string> g_simgrid_args;
std::vector<char*> g_simgrid_argv;

std::map<std::string, Role> parse_role_overrides(const EngineConfig& config)
{
  std::map<std::string, Role> overrides;
  for (const auto& [hosts, role_name] : config.role_overrides) {
    Role role = Machines::parse_role(role_name, "option -r '" + hosts + ":" + role_name + "'");
    std::stringstream ss(hosts);
    std::string host;
    while (std::getline(ss, host, ','))
      if (!host.empty())
        overrides[host] = role;
  }
  return overrides;
}

std::string pending_jobs_description(Context& ctx)
{
  std::string list;
  int count = 0;
  for (const auto& [name, w] : ctx.workloads.workloads())
    for (Job* job : w->static_jobs)
      if (job->state == JobState::Submitted) {
        if (count < 5)
          list += (list.empty() ? "" : ", ") + job->id + " (" + std::to_string(job->requested_resources) + " hosts)";
        count++;
      }
  if (count == 0)
    return "no job is waiting";
  return std::to_string(count) + " submitted job(s) never started: " + list + (count > 5 ? ", ..." : "");
}

} // namespace

void init_simgrid(const EngineConfig& config, const char* program_name)
{
  init_simgrid(config, program_name, {"host/model:ptask_L07"});
}

void init_simgrid(const EngineConfig& config, const char* program_name, const std::vector<std::string>& model_options)
{
  // Actor stacks. A run creates one actor per waiter and killer, and job actors as many
  // as jobs run at once on each host (pooled per host, see job_pool.hpp; before that,
  // one per job).
  // With SimGrid's defaults (8 MiB stacks behind a guard page) each creation and
  // destruction cost a posix_memalign, two mprotect calls and VMA splits: about 1.5 s
  // of system time on the 50,000-job benchmark when every job had an actor
  // (bench/engine_throughput). Job, waiter and killer actors only sleep,
  // wait for activities and unwind SimGrid's exceptions, which fits well within
  // 64 KiB; the few long-lived actors that serialise or parse JSON of unbounded depth
  // (server, decision actor, submitters) get large stacks of their own (see
  // run_simulation). Without a guard page an overflow is not trapped, so the only
  // per-job recursion, through nested composed profiles, must stay shallow (each level
  // takes a few hundred bytes: a hundred levels fit). Both stay overridable with
  // --sg-cfg contexts/stack-size:KiB and --sg-cfg contexts/guard-size:bytes, which come
  // after these defaults on SimGrid's command line.
  g_simgrid_args = {program_name};
  for (const auto& option : model_options)
    g_simgrid_args.push_back("--cfg=" + option);
  g_simgrid_args.push_back("--cfg=contexts/stack-size:64");
  g_simgrid_args.push_back("--cfg=contexts/guard-size:0");
  if (!config.verbose)
    g_simgrid_args.push_back("--log=root.thres:critical");
  for (const auto& c : config.simgrid_config)
    g_simgrid_args.push_back("--cfg=" + c);
  g_simgrid_argv.clear();
  for (auto& a : g_simgrid_args)
    g_simgrid_argv.push_back(a.data());
  int argc = static_cast<int>(g_simgrid_argv.size());
  g_engine = std::make_unique<simgrid::s4u::Engine>(&argc, g_simgrid_argv.data());
  install_engine_error_terminate_handler(); // after SimGrid's own (set by the Engine), to come first
  precheck_platform_file(config.platform_file);
  if (config.energy) // before the hosts exist: the plugin attaches itself to each one as it is created
    enable_energy_plugin(config.platform_file);
  // SimGrid 3.32 dies (xbt_die, SIGABRT) on some platform errors instead of throwing:
  // its own message comes first, then ours names the file.
  install_abort_handler("cannot load platform '" + config.platform_file +
                            "': SimGrid aborted while reading it (see SimGrid's message above)",
                        {});
  try {
    g_engine->load_platform(config.platform_file);
  } catch (const EngineError&) { // a host property checked while the parser creates it (energy.cpp)
    throw;
  } catch (const std::exception& e) {
    throw InputError("cannot load platform '" + config.platform_file + "': " + e.what());
  }
  check_platform_resources(config.platform_file, g_engine->get_all_hosts(), g_engine->get_all_links());
}

namespace {

/// -E: pstates by kind, energy readings on, and the first rows Batsim writes: every
/// resource's initial pstate, grouped by pstate, at time 0.
void start_energy(Context& ctx, const std::string& platform_file)
{
  try {
    check_energy_properties(ctx.machines);
    ctx.machines.load_power_states();
  } catch (const InputError& e) {
    throw InputError("platform '" + platform_file + "': " + e.what());
  }
  ctx.energy.enable();
  ctx.jobs_csv.enable_energy();
  std::map<int, IntervalSet> by_pstate;
  for (const Machine& m : ctx.machines.all())
    by_pstate[static_cast<int>(m.host->get_pstate())].insert(m.id);
  for (const auto& [pstate, ids] : by_pstate)
    ctx.energy.pstate_changes.add(0, ids, pstate);
}

/// `<prefix>_nvm.csv`: names every node NVM endpoint and dates the registry's usage changes.
void track_nvm_occupancy(Context& ctx)
{
  for (const Machine& m : ctx.machines.all())
    if (ctx.storage_endpoints.is_nvm(m.id)) {
      const int owner = ctx.storage_endpoints.owner_of(m.id);
      ctx.nvm_csv.add_device(m.id, m.name, owner >= 0 ? ctx.machines.at(owner).name : std::string(),
                             ctx.data.capacity_of(m.id));
    }
  ctx.data.set_usage_listener(
      [&ctx](int nvm, double used) { ctx.nvm_csv.record(simgrid::s4u::Engine::get_clock(), nvm, used); });
}

} // namespace

int run_simulation(const EngineConfig& config, const char* program_name, std::unique_ptr<DecisionChannel> channel)
{
  Context ctx(config);
  LinkLoadCsv link_load; // --link-load-window: bytes per link per window (export/links_csv.hpp)
  // Every file a scheduling run may write goes first (and again if the run fails): an
  // earlier run's outputs must not look like this run's.
  const auto outputs = scheduling_output_files(config.export_prefix);
  remove_output_files(outputs);
  set_fatal_cleanup([outputs]() { remove_output_files(outputs); });
  // Library mode: an actor's error cancels the jobs' activities before it kills the
  // actors (fatal.hpp). The hook refers to this run's context: cleared when it returns.
  set_before_kill_all([&ctx] { ctx.cancel_running_activities(); });
  struct ClearHook {
    ~ClearHook() { set_before_kill_all(nullptr); }
  } clear_hook;

  std::vector<ExternalEvent> external_events;
  try {
    ctx.traffic.configure(TrafficPolicy::parse(config.traffic_policy));
    init_simgrid(config, program_name);
    try {
      ctx.machines =
          Machines::from_platform(g_engine->get_all_hosts(), config.master_host, parse_role_overrides(config));
    } catch (const InputError& e) {
      throw InputError("platform '" + config.platform_file + "': " + e.what());
    }
    ctx.machine_states.reset(ctx.machines.size(), ctx.machines.nb_compute());
    if (ctx.machines.nb_compute() == 0)
      throw InputError("platform '" + config.platform_file +
                       "': no compute host (every host is the master or has role=\"storage\"): jobs could only be "
                       "rejected");
    ctx.storage_endpoints = StorageEndpoints::from_machines(ctx.machines);
    // A SAN path's transfers are storage traffic, seen by the arbiter when a policy weighs it.
    TransferObserver* const storage_observer = ctx.traffic.policy().active() ? &ctx.storage_transfers : nullptr;
    ctx.services = make_run_services(config, ctx.machines, ctx.storage_endpoints, storage_observer);
    if (config.energy)
      start_energy(ctx, config.platform_file);
    for (size_t i = 0; i < config.workload_files.size(); ++i) {
      auto path              = std::filesystem::absolute(config.workload_files[i]).string();
      const Workload& loaded = ctx.workloads.load_file("w" + std::to_string(i), path);
      check_run_cost("workload '" + path + "'", "repeat", ctx.workloads.largest_profile(loaded), config.allow_long_run);
    }
    ctx.data       = DataRegistry::from_machines(ctx.machines, ctx.storage_endpoints);
    ctx.page_cache = PageCache::from_machines(ctx.machines, ctx.storage_endpoints);
    track_nvm_occupancy(ctx);
    link_load.start(config.link_load_window);
    for (const auto& [name, w] : ctx.workloads.workloads())
      for (const InitialItem& item : w->initial_items)
        try {
          ctx.data.declare_on_central(item.name, item.bytes);
        } catch (const InputError& e) {
          throw InputError("workload '" + w->file + "': " + e.what());
        }
    for (const auto& path : config.event_files) {
      auto loaded = load_external_events(path, ctx.machines.size(), config.simulation.forward_unknown_events);
      external_events.insert(external_events.end(), loaded.begin(), loaded.end());
    }
    std::stable_sort(external_events.begin(), external_events.end(),
                     [](const ExternalEvent& a, const ExternalEvent& b) { return a.timestamp < b.timestamp; });
  } catch (const InputError& e) {
    fatal(e.what());
  }
  ctx.protocol_config = config.simulation;
  ctx.services.announce(ctx.protocol_config); // the decision process learns which nodes host services
  install_abort_handler("SimGrid aborted the simulation (its message is above)", outputs);

  try {
    if (channel)
      ctx.decisions = std::move(channel);
    else
      ctx.decisions =
          std::make_unique<ZmqClient>(config.socket_endpoint, config.decision_timeout,
                                      config.libzmq_transport ? ZmqTransport::libzmq : ZmqTransport::builtin);
  } catch (const std::exception& e) {
    fatal("cannot connect to the decision process at '" + config.socket_endpoint + "': " + e.what());
  }

  // In SimGrid's kernel: recorded, not thrown (SimGrid kills the actors left, see fatal.hpp).
  simgrid::s4u::Engine::on_deadlock_cb([&ctx]() {
    record_engine_error(EngineError(
        "the simulation cannot progress (deadlock): " + pending_jobs_description(ctx) +
        "; the decision process stopped making decisions (e.g. a job asks for more hosts than the platform has)"));
  });

  auto* master = ctx.machines.master().host;
  // Long-lived actors get stacks of at least SimGrid's usual 8 MiB: they serialise and
  // parse JSON whose depth comes from the inputs. (Actor::init + set_stacksize cannot
  // be used before the simulation starts in SimGrid 3.32, so the configured size is
  // raised while they are created, then restored for the job actors.)
  const int small_stack_kib = sg_cfg_get_int("contexts/stack-size");
  simgrid::s4u::Engine::set_config("contexts/stack-size:" + std::to_string(std::max(small_stack_kib, 8192)));
  auto create = [&](const std::string& name, auto&&... code) {
    return simgrid::s4u::Actor::create(name, master, code...);
  };
  bind_server_mailbox();
  // The decision actor first: it must be waiting before the server asks for the first round.
  ctx.decision_requested = simgrid::s4u::Semaphore::create(0);
  create("decision", decision_actor, &ctx)->daemonize();
  create("server", server_actor, &ctx);
  for (const auto& [name, w] : ctx.workloads.workloads())
    if (w->is_static)
      create("submitter_" + name, static_submitter_actor, &ctx, w.get());

  if (!config.event_files.empty()) // a daemon: events after the last job do not prolong the simulation
    create("external_events", external_events_actor, std::move(external_events))->daemonize();
  simgrid::s4u::Engine::set_config("contexts/stack-size:" + std::to_string(small_stack_kib));
  // Daemons: an idle service neither prolongs the run nor deadlocks it; data still staged when
  // the last job ends stays there (_staging.csv), the nodes' idle load ends with the run.
  ctx.services.start_actors();

  g_engine->run();
  throw_recorded_engine_error(); // the first error of an actor, which stopped the run

  if (!ctx.simulation_completed)
    fatal("the simulation stopped before its end: " + pending_jobs_description(ctx));

  const auto wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - ctx.wall_start).count();
  try {
    ctx.jobs_csv.write(config.export_prefix + "_jobs.csv");
    ScheduleFigures figures;
    figures.nb_machines         = ctx.machines.size();
    figures.scheduling_time     = ctx.decisions->waited_seconds();
    figures.simulation_time     = wall;
    figures.consumed_joules     = ctx.energy.schedule_joules();
    figures.nb_machine_switches = ctx.energy.nb_machine_switches;
    figures.nb_grouped_switches = ctx.energy.nb_grouped_switches;
    write_schedule_csv(config.export_prefix + "_schedule.csv", ctx.jobs_csv.summary(), figures, ctx.machine_states);
    ctx.machine_states_csv.write(config.export_prefix + "_machine_states.csv");
    write_utilisation_csv(config.export_prefix + "_utilisation.csv",
                          ctx.machine_states.compute_node_times(static_cast<double>(ctx.jobs_csv.summary().makespan)));
    if (!ctx.io_csv.empty())
      ctx.io_csv.write(config.export_prefix + "_io.csv");
    if (!ctx.data_csv.empty())
      ctx.data_csv.write(config.export_prefix + "_data.csv");
    if (!ctx.data.items().empty()) // runs without named data items keep Batsim's set of files
      ctx.nvm_csv.write(config.export_prefix + "_nvm.csv");
    link_load.write_if_measured(config.export_prefix);
    ctx.services.write_outputs(config.export_prefix);
    if (ctx.energy.enabled()) {
      ctx.energy.consumed_energy.write(config.export_prefix + "_consumed_energy.csv");
      ctx.energy.pstate_changes.write(config.export_prefix + "_pstate_changes.csv");
    }
  } catch (const std::exception& e) {
    fatal(e.what());
  }
  if (config.progress_interval > 0)
    ctx.print_progress(simgrid::s4u::Engine::get_clock(), true);
  return 0;
}

} // namespace datasched
