#include "embed.hpp"

#include <memory>

#include "cli.hpp"
#include "execution/simulation.hpp"
#include "inspect.hpp"

extern "C" int datasched_sim_run(int argc, char** argv, datasched_decide_fn decide, void* user)
{
  datasched::EngineConfig config;
  if (int code = datasched::parse_command_line(argc, argv, config); code >= 0)
    return code;
  if (config.inspect)
    return datasched::inspect_platform(config, argv[0]);
  return datasched::run_simulation(config, argv[0], std::make_unique<datasched::CallbackChannel>(decide, user));
}
