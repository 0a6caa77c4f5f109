#include "export/schedule_csv.hpp"

#include "common/csv.hpp"
#include "export/jobs_csv.hpp"
#include "model/machine_states.hpp"

namespace datasched {

void write_schedule_csv(const std::string& path, const JobsSummary& s, const ScheduleFigures& f,
                        const MachineStates& states)
{
  // Batsim divides the long double sums (cast to double) by the number of jobs.
  auto mean = [&s](long double sum) { return static_cast<double>(sum) / s.nb_jobs; };
  auto time = [&states](MachineState state) { return fixed6(static_cast<double>(states.closed_time(state))); };
  const int nb_killed = s.nb_finished - s.nb_success;
  // Columns in name order, as Batsim writes its std::map.
  std::string header =
      "batsim_version,consumed_joules,makespan,max_slowdown,max_turnaround_time,max_waiting_time,mean_slowdown,"
      "mean_turnaround_time,mean_waiting_time,nb_computing_machines,nb_grouped_switches,nb_jobs,nb_jobs_finished,"
      "nb_jobs_killed,nb_jobs_rejected,nb_jobs_success,nb_machine_switches,scheduling_time,simulation_time,"
      "success_rate,time_computing,time_idle,time_sleeping,time_switching_off,time_switching_on,time_unavailable\n";
  std::string row =
      "datasched-sim-0.1.0," + fixed6(static_cast<double>(f.consumed_joules)) + "," +
      fixed6(static_cast<double>(s.makespan)) + "," + fixed6(static_cast<double>(s.max_slowdown)) + "," +
      fixed6(static_cast<double>(s.max_turnaround)) + "," + fixed6(static_cast<double>(s.max_waiting)) + "," +
      fixed6(mean(s.sum_slowdown)) + "," + fixed6(mean(s.sum_turnaround)) + "," + fixed6(mean(s.sum_waiting)) + "," +
      std::to_string(f.nb_machines) + "," + std::to_string(f.nb_grouped_switches) + "," + std::to_string(s.nb_jobs) +
      "," + std::to_string(s.nb_finished) + "," + std::to_string(nb_killed) + "," + std::to_string(s.nb_rejected) +
      "," + std::to_string(s.nb_success) + "," + std::to_string(f.nb_machine_switches) + "," +
      fixed6(f.scheduling_time) + "," + fixed6(f.simulation_time) + "," +
      fixed6(static_cast<double>(s.nb_success) / s.nb_jobs) + "," + time(MachineState::Computing) + "," +
      time(MachineState::Idle) + "," + time(MachineState::Sleeping) + "," + time(MachineState::SwitchingOff) + "," +
      time(MachineState::SwitchingOn) + "," + time(MachineState::Unavailable) + "\n";
  write_file_atomically(path, header + row);
}

} // namespace datasched
