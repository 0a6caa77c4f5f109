#pragma once
// Sets up SimGrid, loads the inputs, runs the simulation and writes the outputs.
#include <memory>
#include <string>
#include <vector>

#include "common/engine_config.hpp"
#include "transport/decision_channel.hpp"

namespace datasched {

/// Returns 0 once the outputs are written; any error that ends the run is thrown as
/// EngineError (fatal.hpp), after the actors have been stopped.
/// `channel`: how decisions are asked for; none (the default) connects a ZmqClient to
/// the configured socket endpoint.
int run_simulation(const EngineConfig& config, const char* program_name,
                   std::unique_ptr<DecisionChannel> channel = nullptr);

/// Creates the SimGrid engine with the model Batsim uses (ptask_L07) and loads the
/// platform; shared with --inspect. Throws InputError naming the platform file.
/// Its default solver (fair-bottleneck) honours activity priorities in the project's
/// SimGrid build (simgrid/patches), so traffic policies need no other solver.
void init_simgrid(const EngineConfig& config, const char* program_name);

/// The same with other SimGrid models: `model_options` (--cfg items) replace
/// host/model:ptask_L07 for an engine mode that needs another (interference/simgrid_model.hpp);
/// --sg-cfg options still come after them.
void init_simgrid(const EngineConfig& config, const char* program_name, const std::vector<std::string>& model_options);

} // namespace datasched
