#pragma once
// `<prefix>_machine_states.csv`, exactly as Batsim 4.2.1 writes it: after every job start
// and job end (and, with energy, every completed switch), one row with the date
// (printf's "%g": six significant digits) and the number of machines sleeping,
// switching on, switching off, idle and computing. No row at date 0, no unavailable
// column (Batsim counts unavailable machines but does not print them; our own
// `_utilisation.csv` reports their time).
#include <string>

namespace datasched {

class MachineStates;

class MachineStatesCsv {
public:
  /// Appends the row of the counters of `states` at `date`.
  void add_row(double date, const MachineStates& states);
  void write(const std::string& path) const;

private:
  std::string rows_;
};

} // namespace datasched
