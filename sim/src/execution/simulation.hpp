#pragma once
// Sets up SimGrid, loads the inputs, runs the simulation and writes the outputs.
#include <memory>

#include "cli.hpp"
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
/// `priority_solver`: use SimGrid's BMF solver, the one that honours ptask priorities
/// (traffic policies ba, fp, weights: execution/traffic.hpp).
void init_simgrid(const EngineConfig& config, const char* program_name, bool priority_solver = false);

} // namespace datasched
