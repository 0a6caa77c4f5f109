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
  // Energy (-E; all 0 otherwise, as in Batsim).
  double consumed_joules    = 0; ///< energy from the first job submission to the last job end
  int nb_machine_switches   = 0; ///< hosts named by SET_RESOURCE_STATE decisions
  int nb_grouped_switches   = 0; ///< SET_RESOURCE_STATE decisions
  double sleeping_time      = 0; ///< host-seconds asleep (stays that ended, as Batsim counts)
  double switching_on_time  = 0;
  double switching_off_time = 0;
};

void write_schedule_csv(const std::string& path, const JobsSummary& jobs, const ScheduleFigures& figures);

} // namespace datasched
