#include "interference/daemon_costs.hpp"

namespace datasched::interference {

double storage_work(const DaemonCosts& costs, std::uint64_t requests, std::uint64_t bytes)
{
  return static_cast<double>(requests) * costs.flops_per_request + static_cast<double>(bytes) * costs.flops_per_byte;
}

double metadata_work(const DaemonCosts& costs, double operations)
{
  return operations * costs.flops_per_metadata_op;
}

double idle_burst(const DaemonCosts& costs)
{
  return costs.idle_flops_per_second * costs.idle_period;
}

} // namespace datasched::interference
