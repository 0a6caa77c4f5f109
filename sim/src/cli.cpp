#include "cli.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "common/number_text.hpp"
#include "export/output_files.hpp"
#include "export/output_prefix.hpp"
#include "scenarios/registry.hpp"

#include <CLI/CLI.hpp>

namespace datasched {

int parse_command_line(int argc, char** argv, EngineConfig& c)
{
  CLI::App app{"datasched-sim: a Batsim-4-protocol job scheduling simulator on SimGrid"};
  app.set_version_flag("--version", "datasched-sim 0.1.0");
  app.add_option("-p,--platform", c.platform_file, "SimGrid platform XML file")->required()->check(CLI::ExistingFile);
  app.add_option("-w,--workload", c.workload_files, "Batsim workload JSON file (repeatable)")->check(CLI::ExistingFile);
  app.add_option("--events", c.event_files, "External events file (repeatable)")->check(CLI::ExistingFile);
  app.add_option("-e,--export", c.export_prefix, "Prefix of the output files")->capture_default_str();
  app.add_option("-s,--socket-endpoint", c.socket_endpoint, "ZeroMQ endpoint of the decision process")
      ->capture_default_str();
  app.add_flag("--libzmq-transport", c.libzmq_transport,
               "Talk to the decision process through libzmq instead of the built-in ZMTP client (same wire format)");
  app.add_option("-m,--master-host", c.master_host, "Name of the master host")->capture_default_str();
  std::vector<std::string> roles;
  app.add_option("-r,--add-role-to-hosts", roles, "hosts:role, hosts comma-separated (repeatable)");
  app.add_flag("--enable-dynamic-jobs", c.simulation.dynamic_jobs_enabled, "Allow REGISTER_JOB / REGISTER_PROFILE");
  app.add_flag("--acknowledge-dynamic-jobs", c.simulation.dynamic_jobs_acknowledged,
               "Send JOB_SUBMITTED for dynamically registered jobs");
  app.add_flag("--forward-profiles-on-submission", c.simulation.profiles_forwarded_on_submission,
               "Attach the profile to every JOB_SUBMITTED event");
  app.add_flag("--enable-profile-reuse", c.simulation.profile_reuse_enabled, "Keep dynamic profiles after use");
  app.add_flag("--forward-unknown-events", c.simulation.forward_unknown_events, "Forward unknown external events");
  app.add_flag("--datasched-item-evictions", c.simulation.item_evictions_notified,
               "datasched extension: tell the decision process where named data items left node NVM "
               "(DATASCHED_ITEM_EVICTED at each eviction; SIMULATION_BEGINS' config says "
               "datasched-item-evictions: true). Real Batsim has no such event");
  app.add_flag("--enable-compute-sharing", c.simulation.allow_compute_sharing,
               "Allow several jobs on one compute host");
  bool no_storage_sharing = false;
  app.add_flag("--disable-storage-sharing", no_storage_sharing, "Forbid several jobs on one storage host");
  app.add_flag("-E,--energy", c.energy,
               "Simulate energy as Batsim does: SimGrid's host-energy plugin (wattage_per_state, wattage_off), "
               "sleep pstates (sleep_pstates), SET_RESOURCE_STATE, QUERY consumed_energy, and the outputs "
               "_consumed_energy.csv and _pstate_changes.csv");
  app.add_option("--decision-timeout", c.decision_timeout,
                 "Seconds to wait for each reply of the decision process before failing (<=0: forever)")
      ->capture_default_str();
  app.add_option("--progress", c.progress_interval, "Print a progress line on stderr every N wall seconds");
  app.add_flag("--inspect", c.inspect, "Print the platform's hosts (and --route results) as JSON, then exit");
  app.add_flag_callback(
      "--list-outputs",
      [] {
        for (const auto& suffix : scheduling_output_suffixes())
          std::printf("%s\n", suffix.c_str());
        throw CLI::Success();
      },
      "Print the suffixes of the files a scheduling run may write (<prefix>_<suffix>), one per line, then exit");
  std::vector<std::string> routes;
  app.add_option("--route", routes, "With --inspect: SRC DST host names (repeatable)")
      ->expected(2)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
  app.add_option("--traffic-policy", c.traffic_policy,
                 "Arbitration between IPC and storage traffic: none or np (Batsim's sharing: equal shares), "
                 "ba:X (X % of a contended link to IPC), fp (IPC first) or weights:ipc=A,storage=B; shares are "
                 "per activity (execution/traffic.hpp)")
      ->capture_default_str();
  app.add_option("--ipc-fanout", c.ipc_fanout,
                 "Approximate each all-to-all communicate phase of n > D+1 nodes by D flows per node (to the nodes "
                 "at D evenly spaced offsets in allocation order, bytes/D each): much cheaper to simulate on large "
                 "jobs, but link loads are sampled, not exact (execution/phase_plan.hpp). 0: exact all-to-all")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000000));
  app.add_option("--io-groups", c.io_groups,
                 "Run the I/O of phases with io_distribution per_task in G groups of consecutive I/O tasks (a group "
                 "distributes once all its tasks have read): G^2 rather than tasks^2 solver work, causal order kept "
                 "between groups, not within one (execution/phase_plan.hpp). 0: one group per I/O task (exact)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000000));
  app.add_option("--sharing", c.sharing,
                 "The unit that gets a share of a contended link in phase jobs: activity (a phase's flows of one "
                 "tier together, as Batsim shares ptasks) or flow (every flow its own activity, as flow-level "
                 "simulators share; slower, for validation) (execution/traffic.hpp). Default: activity")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, SharingUnit>{{"activity", SharingUnit::Activity}, {"flow", SharingUnit::Flow}}));
  // One option per scenario (scenarios/registry.cpp), each naming its experiment file.
  std::vector<std::string> scenario_files(scenario_kinds().size());
  for (std::size_t i = 0; i < scenario_kinds().size(); ++i)
    app.add_option("--" + scenario_kinds()[i].name, scenario_files[i], scenario_kinds()[i].help)
        ->check(CLI::ExistingFile);
  app.add_option("--forwarding-layer", c.forwarding_layer,
                 "Scheduling runs: send the SAN I/O of datasched_phases jobs through the platform's I/O forwarders "
                 "with this JSON's request scheduler (fifo/hbrr/twins), request size and HDD curve "
                 "(sim/src/forwarding/README.md)")
      ->check(CLI::ExistingFile);
  app.add_option("--staging-layer", c.staging_layer,
                 "Scheduling runs: the SAN writes of datasched_phases jobs go to the platform's staging servers "
                 "(datasched_role=staging), which drain them lazily to the I/O servers; sizes and drain rule in "
                 "this JSON (sim/src/services/README.md)")
      ->check(CLI::ExistingFile);
  app.add_option("--storage-daemons", c.storage_daemons,
                 "Scheduling runs: every node's NVM is served by a storage daemon on the node, whose CPU work per "
                 "request and byte (this JSON) competes with the jobs placed there (sim/src/services/README.md)")
      ->check(CLI::ExistingFile);
  app.add_flag("--allow-long-run", c.allow_long_run,
               "Experiment modes: run even when the estimate made before the run (printed as a warning) is above "
               "the event budget, e.g. an idle_period near zero (model/run_cost.hpp); without it such a run is "
               "refused with the estimate");
  app.add_option("--link-load-window", c.link_load_window,
                 "Also write <export>_links.csv (scheduling runs and the three experiment modes), the bytes each "
                 "link carried per window of this many simulated seconds, measured from SimGrid's link usage "
                 "(export/links_csv.hpp). 0: off")
      ->capture_default_str()
      ->check(CLI::Validator(
          [](std::string& text) {
            const auto v = finite_number(text);
            return v && *v >= 0 ? std::string() : "'" + text + "' is not a number of seconds >= 0 (0: off)";
          },
          "SECONDS"));
  app.add_option("--sg-cfg", c.simgrid_config, "Extra SimGrid configuration key:value (repeatable)");
  app.add_flag("-v,--verbose", c.verbose, "Let SimGrid log at info level");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  c.simulation.allow_storage_sharing = !no_storage_sharing;
  for (const auto& spec : roles) {
    auto colon = spec.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == spec.size()) {
      std::fprintf(stderr, "datasched-sim: error: -r expects hosts:role, got '%s'\n", spec.c_str());
      return 2;
    }
    c.role_overrides.emplace_back(spec.substr(0, colon), spec.substr(colon + 1));
  }
  for (size_t i = 0; i + 1 < routes.size(); i += 2)
    c.inspect_routes.emplace_back(routes[i], routes[i + 1]);
  // One scenario per run, and a scenario runs on its own (no workload, no --inspect).
  std::vector<std::string> given;
  for (std::size_t i = 0; i < scenario_kinds().size(); ++i)
    if (!scenario_files[i].empty()) {
      given.push_back("--" + scenario_kinds()[i].name);
      if (c.scenario.empty()) {
        c.scenario      = scenario_kinds()[i].name;
        c.scenario_file = scenario_files[i];
      }
    }
  if (given.size() > 1) {
    std::string list;
    for (const auto& option : given)
      list += (list.empty() ? "" : ", ") + option;
    std::fprintf(stderr, "datasched-sim: error: one scenario per run: %s were given together\n", list.c_str());
    return 2;
  }
  if (!c.scenario.empty() && (!c.workload_files.empty() || c.inspect)) {
    std::fprintf(stderr, "datasched-sim: error: --%s runs an experiment on its own: drop %s\n", c.scenario.c_str(),
                 c.workload_files.empty() ? "--inspect" : (c.inspect ? "-w and --inspect" : "-w"));
    return 2;
  }
  for (const auto& [option, value] :
       {std::pair<const char*, const std::string*>{"--forwarding-layer", &c.forwarding_layer},
        std::pair<const char*, const std::string*>{"--storage-daemons", &c.storage_daemons}})
    if (!value->empty() && !c.scenario.empty()) {
      std::fprintf(stderr, "datasched-sim: error: %s applies to scheduling runs (-w): drop --%s\n", option,
                   c.scenario.c_str());
      return 2;
    }
  if (!c.inspect && c.scenario.empty() && c.workload_files.empty() && !c.simulation.dynamic_jobs_enabled) {
    std::fprintf(stderr, "datasched-sim: error: give at least one workload (-w) or --enable-dynamic-jobs\n");
    return 2;
  }
  if (!c.inspect) {
    if (std::string problem = output_folder_problem(c.export_prefix); !problem.empty()) {
      std::fprintf(stderr, "datasched-sim: error: option -e '%s': %s\n", c.export_prefix.c_str(), problem.c_str());
      return 2;
    }
  }
  return -1;
}

} // namespace datasched
