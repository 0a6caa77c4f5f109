#pragma once
// The engine's whole configuration for one run, filled from the command line (cli.hpp)
// or by a host process through the library (embed.hpp), then read everywhere and never
// changed. Option names follow Batsim 4 where they mean the same thing.
#include <string>
#include <utility>
#include <vector>

#include "common/simulation_config.hpp"

namespace datasched {

/// What gets a share of a contended link in phase jobs (--sharing; execution/traffic.hpp).
enum class SharingUnit { Activity, Flow };

struct EngineConfig {
  std::string platform_file;
  std::vector<std::string> workload_files;
  std::vector<std::string> event_files;
  std::string export_prefix   = "out";
  std::string socket_endpoint = "tcp://localhost:28000";
  std::string master_host     = "master_host";
  bool libzmq_transport       = false; ///< use libzmq even where the built-in ZMTP client applies
  std::vector<std::pair<std::string, std::string>> role_overrides; ///< (comma-separated hosts, role)
  SimulationConfig simulation;    ///< Batsim's switches, forwarded in SIMULATION_BEGINS
  double decision_timeout  = 600; ///< seconds to wait for each decision-process reply
  double progress_interval = 0;   ///< wall seconds between progress lines on stderr (0: none)
  bool inspect             = false;
  std::vector<std::pair<std::string, std::string>> inspect_routes;
  std::vector<std::string> simgrid_config; ///< extra --cfg=key:value for SimGrid
  std::string traffic_policy = "none";     ///< execution/traffic.hpp: none | np | ba:X | fp | weights:...
  int ipc_fanout             = 0;          ///< execution/phase_plan.hpp: 0 = exact all-to-all, else partners per node
  int io_groups              = 0;          ///< execution/phase_plan.hpp: 0 = per I/O task, else task groups
  SharingUnit sharing        = SharingUnit::Activity; ///< --sharing activity | flow
  bool verbose               = false;
  bool energy                = false; ///< -E: SimGrid's host-energy plugin, pstates, energy outputs
  std::string scenario;               ///< scenarios/registry.hpp: the scenario run instead of a scheduling simulation
  std::string scenario_file;          ///< the scenario's experiment file (its option's value)
  std::string forwarding_layer;       ///< forwarding/job_layer.hpp: phase jobs' SAN I/O through forwarders
  std::string storage_daemons;        ///< services/node_daemons.hpp: NVM traffic served by daemons on the nodes
  std::string staging_layer;          ///< services/staging_layer.hpp: phase jobs' SAN writes through staging servers
  bool allow_long_run     = false;    ///< model/run_cost.hpp: run an experiment estimated above the event budget
  double link_load_window = 0;        ///< export/links_csv.hpp: seconds per window of <prefix>_links.csv (0: off)
};

} // namespace datasched
