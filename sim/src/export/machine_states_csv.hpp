#pragma once
// `<prefix>_machine_states.csv`: how many machines are idle/computing/unavailable
// after each change, Batsim 4's columns.
#include <string>
#include <utility>
#include <vector>

#include "model/machines.hpp"

namespace datasched {

/// `computing_changes` and `unavailable_changes` are (time, +/-count) pairs;
/// `power_changes` the sleeping / switching counts' changes (-E).
void write_machine_states_csv(const std::string& path, int nb_machines,
                              std::vector<std::pair<double, int>> computing_changes,
                              std::vector<std::pair<double, int>> unavailable_changes,
                              const std::vector<PowerStateChange>& power_changes);

} // namespace datasched
