#pragma once
// `<prefix>_jobs.csv`: one row per finished or rejected job, in completion order,
// with Batsim 4's columns (evalys reads it).
#include <string>
#include <vector>

namespace datasched {

struct Job;

/// The job figures of `_schedule.csv`, in long double as Batsim accumulates them.
struct JobsSummary {
  int nb_jobs = 0, nb_finished = 0, nb_success = 0, nb_killed = 0, nb_rejected = 0;
  long double sum_waiting = 0, sum_turnaround = 0, sum_slowdown = 0;
  long double max_waiting = 0, max_turnaround = 0, max_slowdown = 0;
  long double makespan = 0; ///< the latest finish time of a finished (not rejected) job
};

class JobsCsv {
public:
  /// Records a job that reached a final state (completed, killed or rejected).
  void add(const Job& job);
  void write(const std::string& path) const;
  /// -E: write each job's consumed_energy (Batsim's "%Lf") instead of -1.
  void enable_energy() { energy_ = true; }
  const JobsSummary& summary() const { return summary_; }

private:
  std::string rows_;
  bool energy_ = false;
  JobsSummary summary_;
};

} // namespace datasched
