#include "export/utilisation_csv.hpp"

#include "common/csv.hpp"
#include "model/machine_states.hpp"

namespace datasched {

void write_utilisation_csv(const std::string& path, const StateTimes& t)
{
  const double capacity = t.nb_machines * t.horizon;
  const double busy     = static_cast<double>(t[MachineState::Computing]);
  std::string content   = "makespan,nb_compute_machines,time_computing,time_idle,time_sleeping,time_switching_on,"
                          "time_switching_off,time_unavailable,utilisation\n" +
                        fixed6(t.horizon) + "," + std::to_string(t.nb_machines);
  for (MachineState s : {MachineState::Computing, MachineState::Idle, MachineState::Sleeping, MachineState::SwitchingOn,
                         MachineState::SwitchingOff, MachineState::Unavailable})
    content += "," + fixed6(static_cast<double>(t[s]));
  content += "," + fixed6(capacity > 0 ? busy / capacity : 0) + "\n";
  write_file_atomically(path, content);
}

} // namespace datasched
