#pragma once
// `<prefix>_pstate_changes.csv` (-E): the pstate of groups of resources over time, in
// Batsim 4.2.1's columns and formats: time (printf "%g"), machine_id (an interval set,
// "0-3 7"), new_pstate. Batsim writes -1 (switching to a computation pstate) or -2 (to a
// sleep pstate) when a switch is requested, and the target pstate once every machine of
// the request has reached it.
#include <string>

#include "model/interval_set.hpp"

namespace datasched {

class PStateChangesCsv {
public:
  void add(double date, const IntervalSet& machines, int pstate);
  void write(const std::string& path) const;

private:
  std::string rows_;
};

} // namespace datasched
