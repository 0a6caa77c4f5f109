#include "embed.hpp"

#include <memory>
#include <string>

#include "cli.hpp"
#include "common/fatal.hpp"
#include "execution/simulation.hpp"
#include "inspect.hpp"
#include "scenarios/registry.hpp"

namespace {
std::string g_last_error;
}

extern "C" int datasched_sim_run(int argc, char** argv, datasched_decide_fn decide, void* user)
{
  g_last_error.clear();
  datasched::EngineConfig config;
  if (int code = datasched::parse_command_line(argc, argv, config); code >= 0)
    return code;
  try {
    if (config.inspect)
      return datasched::inspect_platform(config, argv[0]);
    if (!config.scenario.empty())
      return datasched::run_configured_scenario(config, argv[0]);
    return datasched::run_simulation(config, argv[0], std::make_unique<datasched::CallbackChannel>(decide, user));
  } catch (const datasched::EngineError& e) {
    g_last_error = e.what();
    return datasched::report_engine_error(e, /*print=*/false);
  }
}

extern "C" const char* datasched_sim_last_error(void)
{
  return g_last_error.c_str();
}
