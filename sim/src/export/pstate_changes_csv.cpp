#include "export/pstate_changes_csv.hpp"

#include <cstdio>

#include "common/csv.hpp"

namespace datasched {

void PStateChangesCsv::add(double date, const IntervalSet& machines, int pstate)
{
  char time[64];
  std::snprintf(time, sizeof time, "%g", date);
  rows_ += time;
  rows_ += ',';
  rows_ += machines.to_string(" ");
  rows_ += ',';
  rows_ += std::to_string(pstate);
  rows_ += '\n';
}

void PStateChangesCsv::write(const std::string& path) const
{
  write_file_atomically(path, "time,machine_id,new_pstate\n" + rows_);
}

} // namespace datasched
