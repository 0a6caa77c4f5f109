#include "export/schedule_csv.hpp"

#include <algorithm>

#include "export/csv_file.hpp"
#include "export/jobs_csv.hpp"

namespace datasched {

void write_schedule_csv(const std::string& path, const JobsSummary& s, const ScheduleFigures& f)
{
  const double n        = s.nb_finished > 0 ? s.nb_finished : 1;
  const double capacity = f.nb_computing_machines * s.makespan;
  std::string header =
      "batsim_version,consumed_joules,makespan,max_slowdown,max_turnaround_time,max_waiting_time,mean_slowdown,"
      "mean_turnaround_time,mean_waiting_time,nb_computing_machines,nb_grouped_switches,nb_jobs,nb_jobs_finished,"
      "nb_jobs_killed,nb_jobs_rejected,nb_jobs_success,nb_machine_switches,scheduling_time,simulation_time,"
      "success_rate,time_computing,time_idle,time_sleeping,time_switching_off,time_switching_on,time_unavailable\n";
  std::string row =
      "datasched-sim-0.1.0," + fixed6(f.consumed_joules) + "," + fixed6(s.makespan) + "," + fixed6(s.max_slowdown) +
      "," + fixed6(s.max_turnaround) + "," + fixed6(s.max_waiting) + "," + fixed6(s.sum_slowdown / n) + "," +
      fixed6(s.sum_turnaround / n) + "," + fixed6(s.sum_waiting / n) + "," + std::to_string(f.nb_computing_machines) +
      "," + std::to_string(f.nb_grouped_switches) + "," + std::to_string(s.nb_jobs) + "," +
      std::to_string(s.nb_finished) + "," + std::to_string(s.nb_killed) + "," + std::to_string(s.nb_rejected) + "," +
      std::to_string(s.nb_success) + "," + std::to_string(f.nb_machine_switches) + "," + fixed6(f.scheduling_time) +
      "," + fixed6(f.simulation_time) + "," +
      fixed6(s.nb_jobs > 0 ? static_cast<double>(s.nb_success) / s.nb_jobs : 0) + "," + fixed6(f.computing_time) + "," +
      fixed6(std::max(0.0, capacity - f.computing_time - f.unavailable_time - f.sleeping_time - f.switching_on_time -
                               f.switching_off_time)) +
      "," + fixed6(f.sleeping_time) + "," + fixed6(f.switching_off_time) + "," + fixed6(f.switching_on_time) + "," +
      fixed6(f.unavailable_time) + "\n";
  write_file_atomically(path, header + row);
}

} // namespace datasched
