#include "export/machine_states_csv.hpp"

#include <charconv>

#include "common/csv.hpp"
#include "model/machine_states.hpp"

namespace datasched {

namespace {
void append_int(std::string& out, int value)
{
  char buffer[16];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out += ',';
  out.append(buffer, result.ptr);
}
} // namespace

void MachineStatesCsv::add_row(double date, const MachineStates& states)
{
  // std::to_chars in general format with precision 6 is specified as printf's "%g".
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, date, std::chars_format::general, 6);
  rows_.append(buffer, result.ptr);
  for (MachineState s : {MachineState::Sleeping, MachineState::SwitchingOn, MachineState::SwitchingOff,
                         MachineState::Idle, MachineState::Computing})
    append_int(rows_, states.count(s));
  rows_ += '\n';
}

void MachineStatesCsv::write(const std::string& path) const
{
  write_file_atomically(path, "time,nb_sleeping,nb_switching_on,nb_switching_off,nb_idle,nb_computing\n" + rows_);
}

} // namespace datasched
