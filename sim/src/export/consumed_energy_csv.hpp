#pragma once
// `<prefix>_consumed_energy.csv` (-E): the platform's consumed energy after each job
// start ('s'), job end ('e') and power state change ('p'), in Batsim 4.2.1's columns and
// number formats: time,energy,event_type,wattmin,epower.
#include <string>

namespace datasched {

class ConsumedEnergyCsv {
public:
  /// One row: `energy` is the joules consumed by every resource since time 0, `wattmin`
  /// the sum of their current pstates' Epsilon watts. epower is the mean power since
  /// the previous row, "NA" when no time has passed.
  void add(double date, long double energy, char event_type, long double wattmin);
  void write(const std::string& path) const;

private:
  std::string rows_;
  long double last_date_   = 0;
  long double last_energy_ = 0;
};

} // namespace datasched
