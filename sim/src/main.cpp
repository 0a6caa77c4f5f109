// datasched-sim: entry point. Parses the command line, then either inspects the
// platform, runs a scenario (a stand-alone experiment: scenarios/registry.hpp), or runs a
// simulation against a Batsim-protocol decision process.
#include <cstdio>
#include <cstdlib>

#include "cli.hpp"
#include "common/fatal.hpp"
#include "execution/simulation.hpp"
#include "inspect.hpp"
#include "scenarios/registry.hpp"

namespace {

int run(const datasched::EngineConfig& config, const char* program_name)
{
  if (config.inspect)
    return datasched::inspect_platform(config, program_name);
  if (!config.scenario.empty())
    return datasched::run_configured_scenario(config, program_name);
  return datasched::run_simulation(config, program_name);
}

} // namespace

int main(int argc, char** argv)
{
  datasched::EngineConfig config;
  if (int code = datasched::parse_command_line(argc, argv, config); code >= 0)
    return code;
  datasched::exit_on_actor_error(true); // fatal.hpp: an error in an actor ends the process at once
  try {
    return run(config, argv[0]);
  } catch (const datasched::EngineError& e) {
    // One line, the outputs removed, the error's status. The process ends here without
    // tearing SimGrid down: a run stopped by an error may leave it mid-parse or with
    // activities of killed actors, and its exit handlers must not turn the status into
    // a crash.
    const int code = datasched::report_engine_error(e);
    std::fflush(stdout);
    std::_Exit(code);
  }
}
