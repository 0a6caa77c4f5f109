#include "model/run_cost.hpp"

#include <cmath>
#include <cstdio>

#include "common/fatal.hpp"

namespace datasched {

std::string format_estimate(double x)
{
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", x);
  return buffer;
}

namespace {
/// A CPU time as a person reads it: "40 s", "3 hours", "2e+05 years".
std::string duration(double seconds)
{
  if (seconds < 120)
    return format_estimate(std::ceil(seconds)) + " s";
  if (seconds < 7200)
    return format_estimate(std::round(seconds / 60)) + " minutes";
  if (seconds < 2 * 86400)
    return format_estimate(std::round(seconds / 3600)) + " hours";
  if (seconds < 2 * 365 * 86400.0)
    return format_estimate(std::round(seconds / 86400)) + " days";
  return format_estimate(seconds / (365 * 86400.0)) + " years";
}
} // namespace

void check_run_cost(const std::string& file, const std::string& field, const RunCost& cost, bool allow_long_run)
{
  if (!(cost.events > kEventBudget)) // NaN cannot happen (finite inputs), but would not pass silently below
    return;
  const std::string estimate = "this run simulates at least " + format_estimate(cost.events) + " " + cost.what +
                               ", about " + duration(cost.events / kEventsPerSecond) + " of CPU";
  if (!allow_long_run)
    throw InputError(file + ": " + field + ": " + estimate + " (more than " + format_estimate(kEventBudget) +
                     " events); change " + field + ", or pass --allow-long-run to run it anyway");
  std::fprintf(stderr, "datasched-sim: warning: %s: %s: %s (--allow-long-run)\n", file.c_str(), field.c_str(),
               estimate.c_str());
}

} // namespace datasched
