#include "scenarios/registry.hpp"

#include "common/engine_config.hpp"
#include "common/fatal.hpp"
#include "scenarios/interference.hpp"
#include "scenarios/io_forwarding.hpp"
#include "scenarios/qos_staging.hpp"

namespace datasched {

const std::vector<ScenarioKind>& scenario_kinds()
{
  static const std::vector<ScenarioKind> kinds = {
      {"io-forwarding",
       "Run this I/O forwarding experiment JSON (seed 002: clients, forwarders with FIFO/HBRR/TWINS, HDD "
       "data servers; sim/src/forwarding/README.md) on the platform, without a decision process; outputs "
       "<export>_applications.csv, _forwarders.csv, _servers.csv",
       forwarding::make_io_forwarding_scenario},
      {"qos-staging",
       "Run this QoS data-staging experiment JSON (seed 003: InfiniBand service levels, staging server "
       "with lazy drain, OSU/stencil/CG benchmarks under I/O noise; sim/src/qos/README.md) on the platform, "
       "without a decision process; outputs <export>_benchmark.csv, _transfers.csv, _writes.csv, "
       "_staging.csv, _summary.csv",
       qos::make_qos_staging_scenario},
      {"interference",
       "Run this storage-daemon interference experiment JSON (seed 004: an HPL-like job next to an IOR-like "
       "job whose file system's services run on compute nodes; sim/src/interference/README.md), without a "
       "decision process; outputs <export>_hpl.csv, _iterations.csv, _services.csv, _ior.csv",
       interference::make_interference_scenario},
  };
  return kinds;
}

int run_configured_scenario(const EngineConfig& config, const char* program_name)
{
  for (const auto& kind : scenario_kinds())
    if (kind.name == config.scenario) {
      const auto scenario = kind.create();
      return run_scenario(*scenario, config, program_name);
    }
  fatal("unknown scenario '" + config.scenario + "'"); // the command line offers only the table's names
}

} // namespace datasched
