#include "interference/cost.hpp"

#include "interference/hpl.hpp"
#include "services/daemon_costs.hpp"

namespace datasched::interference {

RunCost idle_burst_cost(const Experiment& e, const Layout& layout)
{
  if (idle_burst(e.costs) <= 0) // no idle work: no idle actor starts (services/idle_load.hpp)
    return {};
  const double services = static_cast<double>(layout.storage.size() + layout.metadata.size());
  const double seconds  = hpl_compute_time_alone(e.hpl, e.memory, layout.hpl);
  return {services * seconds / e.costs.idle_period,
          "idle bursts (" + format_estimate(services) + " services x at least " + format_estimate(seconds) +
              " s of HPL compute / idle_period " + format_estimate(e.costs.idle_period) + " s)"};
}

RunCost hpl_step_cost(const Experiment& e, const Layout& layout)
{
  const double nodes = static_cast<double>(layout.hpl.size());
  const double steps = e.hpl.bytes_per_iteration > 0 ? 2 : 1; // a compute, then a ring message
  return {static_cast<double>(e.hpl.iterations) * nodes * steps, "HPL steps (" + format_estimate(e.hpl.iterations) +
                                                                     " iterations x " + format_estimate(nodes) +
                                                                     " nodes x " + format_estimate(steps) + ")"};
}

void check_costs(const Experiment& e, const Layout& layout, bool allow_long_run)
{
  check_run_cost(e.file, "daemon_costs.idle_period", idle_burst_cost(e, layout), allow_long_run);
  check_run_cost(e.file, "hpl.iterations", hpl_step_cost(e, layout), allow_long_run);
}

} // namespace datasched::interference
