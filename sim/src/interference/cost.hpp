#pragma once
// What an interference run costs, estimated before it starts (model/run_cost.hpp): the
// idle bursts of the services (linear in 1 / idle_period) and the HPL job's steps (linear
// in its iterations). Both are lower bounds: the run lasts at least the HPL job's compute
// time alone, and every service bursts once per idle period until the run ends.
#include <vector>

#include "interference/experiment.hpp"
#include "interference/layout.hpp"
#include "model/run_cost.hpp"

namespace datasched::interference {

RunCost idle_burst_cost(const Experiment& experiment, const Layout& layout);
RunCost hpl_step_cost(const Experiment& experiment, const Layout& layout);

/// Refuses the run (InputError) or warns, as check_run_cost says, for both estimates.
void check_costs(const Experiment& experiment, const Layout& layout, bool allow_long_run);

} // namespace datasched::interference
