#pragma once
// `<prefix>_schedule.csv`: one row of whole-simulation metrics, Batsim 4.2.1's columns,
// computed as Batsim computes them (src/export.cpp, JobsTracer::finalize):
//  * means divide by all jobs, rejected ones included; nb_jobs_killed counts every
//    finished job that did not succeed (failed ones too);
//  * nb_computing_machines counts compute and storage machines;
//  * time_<state> sums each machine's closed intervals in that state (MachineStates),
//    so time_idle leaves out the idle time after a machine's last job: our own
//    `_utilisation.csv` has the sensible figures.
#include <string>

namespace datasched {

struct JobsSummary;
class MachineStates;

struct ScheduleFigures {
  int nb_machines             = 0; ///< compute and storage machines
  long double consumed_joules = 0;
  long nb_machine_switches    = 0;
  long nb_grouped_switches    = 0;
  double scheduling_time      = 0; ///< wall seconds waiting for the decision process
  double simulation_time      = 0; ///< wall seconds of the whole run
};

void write_schedule_csv(const std::string& path, const JobsSummary& jobs, const ScheduleFigures& figures,
                        const MachineStates& states);

} // namespace datasched
