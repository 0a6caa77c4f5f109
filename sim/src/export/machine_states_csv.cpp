#include "export/machine_states_csv.hpp"

#include <algorithm>
#include <map>

#include "export/csv_file.hpp"

namespace datasched {

void write_machine_states_csv(const std::string& path, int nb_machines,
                              std::vector<std::pair<double, int>> computing_changes,
                              std::vector<std::pair<double, int>> unavailable_changes)
{
  // Net change per date, both kinds together; one row per date where anything changed.
  std::map<double, std::pair<int, int>> deltas;
  deltas[0.0];
  for (const auto& [t, d] : computing_changes)
    deltas[t].first += d;
  for (const auto& [t, d] : unavailable_changes)
    deltas[t].second += d;
  std::string out = "time,nb_sleeping,nb_switching_on,nb_switching_off,nb_idle,nb_computing,nb_unavailable\n";
  int computing = 0, unavailable = 0;
  for (const auto& [t, d] : deltas) {
    computing += d.first;
    unavailable += d.second;
    const int idle = std::max(0, nb_machines - computing - unavailable);
    out += fixed6(t) + ",0,0,0," + std::to_string(idle) + "," + std::to_string(computing) + "," +
           std::to_string(unavailable) + "\n";
  }
  write_file_atomically(path, out);
}

} // namespace datasched
