#pragma once
// Costs estimated before a run (issue 32): where a parameter makes the number of simulated
// events explode (an idle period near zero, a huge iteration or request count), the run is
// refused with the estimate, or - with --allow-long-run - started after one warning line
// carrying the same estimate. Never a silent run of hours.
//
// Estimates are lower bounds on the events the run will simulate, so a refusal is never
// wrong about a run being long; the seconds shown come from a measured rate (about 30,000
// simple events per CPU second on one core for the experiment modes).
#include <string>

namespace datasched {

/// Events a run may simulate before it needs --allow-long-run (about 6 minutes of CPU).
inline constexpr double kEventBudget = 1e7;

/// Simple simulated events (a compute burst, a message) per CPU second, measured.
inline constexpr double kEventsPerSecond = 3e4;

struct RunCost {
  double events = 0; ///< lower bound on the simulated events
  std::string what;  ///< what they are, with the arithmetic: "idle bursts (3 services x ...)"
};

/// Throws InputError("<file>: <field>: <estimate>; ...") when the estimate is above the
/// budget and `allow_long_run` is false; prints "datasched-sim: warning: ..." on stderr
/// and returns when it is true; returns silently within the budget.
void check_run_cost(const std::string& file, const std::string& field, const RunCost& cost, bool allow_long_run);

/// A number of events or seconds as a person reads it: 3.6e+12, 540000.
std::string format_estimate(double x);

} // namespace datasched
