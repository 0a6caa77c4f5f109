// datasched-sim: entry point. Parses the command line, then either inspects the
// platform, runs an I/O forwarding experiment (forwarding/run.hpp) or a QoS data-staging
// experiment (qos/run.hpp), or runs a simulation
// against a Batsim-protocol decision process.
#include "cli.hpp"
#include "execution/simulation.hpp"
#include "forwarding/run.hpp"
#include "inspect.hpp"
#include "qos/run.hpp"

int main(int argc, char** argv)
{
  datasched::EngineConfig config;
  if (int code = datasched::parse_command_line(argc, argv, config); code >= 0)
    return code;
  if (config.inspect)
    return datasched::inspect_platform(config, argv[0]);
  if (!config.io_forwarding_experiment.empty())
    return datasched::forwarding::run_io_forwarding(config, argv[0]);
  if (!config.qos_staging_experiment.empty())
    return datasched::qos::run_qos_staging(config, argv[0]);
  return datasched::run_simulation(config, argv[0]);
}
