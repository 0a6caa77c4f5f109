#pragma once
// `<prefix>_schedule.csv`: one row of whole-simulation metrics, Batsim 4's columns.
#include <string>

namespace datasched {

struct JobsSummary;

struct ScheduleFigures {
  int nb_computing_machines = 0;
  double computing_time     = 0; ///< host-seconds spent running jobs
  double unavailable_time   = 0; ///< host-seconds spent unavailable
  double scheduling_time    = 0; ///< wall seconds waiting for the decision process
  double simulation_time    = 0; ///< wall seconds of the whole run
};

void write_schedule_csv(const std::string& path, const JobsSummary& jobs, const ScheduleFigures& figures);

} // namespace datasched
