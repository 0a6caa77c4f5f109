#pragma once
// Sets up SimGrid, loads the inputs, runs the simulation and writes the outputs.
#include "cli.hpp"

namespace datasched {

/// Returns the process exit code. Input errors are reported and return non-zero.
int run_simulation(const EngineConfig& config, const char* program_name);

/// Creates the SimGrid engine with the model Batsim uses (ptask_L07) and loads the
/// platform; shared with --inspect. Throws InputError naming the platform file.
/// `priority_solver`: use SimGrid's BMF solver, the one that honours ptask priorities
/// (traffic policies ba, fp, weights: execution/traffic.hpp).
void init_simgrid(const EngineConfig& config, const char* program_name, bool priority_solver = false);

} // namespace datasched
