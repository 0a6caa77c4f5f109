#include "services/daemon_costs.hpp"

#include "model/input_limits.hpp"
#include "model/json_fields.hpp"

namespace datasched {

DaemonCosts read_daemon_costs(Fields& f, bool with_metadata, IdleForm idle_form)
{
  DaemonCosts c;
  c.flops_per_byte    = f.number("flops_per_byte", 0, {0, false, limits::kMaxAmount, "flops"});
  c.flops_per_request = f.number("flops_per_request", 0, {0, false, limits::kMaxAmount, "flops"});
  if (with_metadata)
    c.flops_per_metadata_op = f.number("flops_per_metadata_op", 0, {0, false, limits::kMaxAmount, "flops"});
  c.idle_flops_per_second =
      f.number("idle_flops_per_second", 0, {0, false, limits::kMaxAmount, "flops per second and service"});
  c.idle_form   = f.has("idle_period") ? IdleForm::Bursts : idle_form;
  c.idle_period = f.number("idle_period", 1, {0, true, limits::kMaxSeconds, "seconds"});
  if (f.has("idle_phase") && c.idle_form == IdleForm::Steady)
    f.fail("idle_phase", "the idle load is steady without idle_period: give idle_period for bursts at phases");
  if (f.has("idle_phase")) {
    const auto& v = f.raw("idle_phase");
    if (v != "random" && v != "aligned")
      f.fail("idle_phase", "expected \"random\" or \"aligned\", got " + v.dump());
    c.idle_aligned = v == "aligned";
  }
  return c;
}

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

} // namespace datasched
