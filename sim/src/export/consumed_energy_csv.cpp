#include "export/consumed_energy_csv.hpp"

#include <cstdio>

#include "common/csv.hpp"

namespace datasched {

void ConsumedEnergyCsv::add(double date, long double energy, char event_type, long double wattmin)
{
  // Batsim keeps the previous row's date and energy in long double and divides in long
  // double; it prints date and epower as doubles ("%lf"), energy and wattmin as long
  // doubles ("%Lf").
  const long double elapsed = static_cast<long double>(date) - last_date_;
  char buffer[512];
  int n = 0;
  if (elapsed > 0) {
    const double epower = static_cast<double>((energy - last_energy_) / elapsed);
    n = std::snprintf(buffer, sizeof buffer, "%f,%Lf,%c,%Lf,%f\n", date, energy, event_type, wattmin, epower);
  } else {
    n = std::snprintf(buffer, sizeof buffer, "%f,%Lf,%c,%Lf,NA\n", date, energy, event_type, wattmin);
  }
  rows_.append(buffer, n > 0 ? static_cast<size_t>(n) : 0);
  last_date_   = static_cast<long double>(date);
  last_energy_ = energy;
}

void ConsumedEnergyCsv::write(const std::string& path) const
{
  write_file_atomically(path, "time,energy,event_type,wattmin,epower\n" + rows_);
}

} // namespace datasched
