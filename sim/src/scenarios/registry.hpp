#pragma once
// The table of scenarios: the one place that lists them. The command line gets one option
// per row (--<name> FILE, cli.cpp), the entry points (main.cpp, embed.cpp) run the row the
// configuration names, and "one scenario per run" is checked once, against this table.
#include <memory>
#include <string>
#include <vector>

#include "scenarios/scenario.hpp"

namespace datasched {

struct EngineConfig;

struct ScenarioKind {
  std::string name; ///< the option without its dashes: "io-forwarding" is --io-forwarding FILE
  std::string help; ///< the option's help text
  std::unique_ptr<Scenario> (*create)();
};

/// Every scenario, in the order the help lists them.
const std::vector<ScenarioKind>& scenario_kinds();

/// Runs the scenario `config.scenario` names on `config.scenario_file` (run_scenario).
int run_configured_scenario(const EngineConfig& config, const char* program_name);

} // namespace datasched
