// datasched-sim: entry point. Parses the command line, then either inspects the
// platform, runs an I/O forwarding (forwarding/run.hpp) or interference experiment
// (interference/run.hpp), or runs a simulation
// against a Batsim-protocol decision process.
#include "cli.hpp"
#include "execution/simulation.hpp"
#include "forwarding/run.hpp"
#include "inspect.hpp"
#include "interference/run.hpp"

int main(int argc, char** argv)
{
  datasched::EngineConfig config;
  if (int code = datasched::parse_command_line(argc, argv, config); code >= 0)
    return code;
  if (config.inspect)
    return datasched::inspect_platform(config, argv[0]);
  if (!config.io_forwarding_experiment.empty())
    return datasched::forwarding::run_io_forwarding(config, argv[0]);
  if (!config.interference_experiment.empty())
    return datasched::interference::run_interference(config, argv[0]);
  return datasched::run_simulation(config, argv[0]);
}
