#include "export/machine_states_csv.hpp"

#include <algorithm>
#include <map>

#include "export/csv_file.hpp"

namespace datasched {

void write_machine_states_csv(const std::string& path, int nb_machines,
                              std::vector<std::pair<double, int>> computing_changes,
                              std::vector<std::pair<double, int>> unavailable_changes,
                              const std::vector<PowerStateChange>& power_changes)
{
  // Net change per date, all kinds together; one row per date where anything changed.
  struct Delta {
    int computing = 0, unavailable = 0;
    PowerStateChange power;
  };
  std::map<double, Delta> deltas;
  deltas[0.0];
  for (const auto& [t, d] : computing_changes)
    deltas[t].computing += d;
  for (const auto& [t, d] : unavailable_changes)
    deltas[t].unavailable += d;
  for (const auto& c : power_changes) {
    PowerStateChange& p = deltas[c.time].power;
    p.sleeping += c.sleeping;
    p.switching_on += c.switching_on;
    p.switching_off += c.switching_off;
  }
  std::string out = "time,nb_sleeping,nb_switching_on,nb_switching_off,nb_idle,nb_computing,nb_unavailable\n";
  int computing = 0, unavailable = 0, sleeping = 0, switching_on = 0, switching_off = 0;
  for (const auto& [t, d] : deltas) {
    computing += d.computing;
    unavailable += d.unavailable;
    sleeping += d.power.sleeping;
    switching_on += d.power.switching_on;
    switching_off += d.power.switching_off;
    const int idle = std::max(0, nb_machines - computing - unavailable - sleeping - switching_on - switching_off);
    out += fixed6(t) + "," + std::to_string(sleeping) + "," + std::to_string(switching_on) + "," +
           std::to_string(switching_off) + "," + std::to_string(idle) + "," + std::to_string(computing) + "," +
           std::to_string(unavailable) + "\n";
  }
  write_file_atomically(path, out);
}

} // namespace datasched
