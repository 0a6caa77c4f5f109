#include "export/jobs_csv.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>

#include "common/csv.hpp"
#include "model/job.hpp"
#include "model/workload.hpp"

namespace datasched {

namespace {
std::string quoted(const std::string& text)
{
  std::string out = "\"";
  for (char c : text) {
    if (c == '"')
      out += "\"\"";
    else
      out += c;
  }
  return out + "\"";
}
} // namespace

void JobsCsv::add(const Job& job)
{
  const bool rejected = job.state == JobState::Rejected;
  const bool success  = job.state == JobState::CompletedSuccessfully && job.return_code == 0;
  const bool killed   = job.state == JobState::CompletedKilled || job.state == JobState::CompletedWalltimeReached;

  // As Batsim (jobs.hpp, export.cpp): dates and runtime are long double, rounded to
  // double only when written, so finish = start + runtime is the end date itself. A zero
  // runtime is written as 1e-5, as Batsim does, so that stretch stays finite.
  const long double runtime_ld = job.runtime == 0 ? 1e-5L : job.runtime;
  const long double start_ld   = job.starting_time;
  const long double finish_ld  = start_ld + runtime_ld;
  const double runtime         = rejected ? 0 : static_cast<double>(runtime_ld);
  const double start           = rejected ? -1 : job.starting_time;
  const double finish          = rejected ? -1 : static_cast<double>(finish_ld);
  const double waiting         = rejected ? -1 : static_cast<double>(start_ld - job.submission_time);
  const double turnaround      = rejected ? -1 : static_cast<double>(finish_ld - job.submission_time);
  const double stretch         = rejected ? -1 : static_cast<double>((finish_ld - job.submission_time) / runtime_ld);

  auto field = [this](const std::string& text) {
    rows_ += ',';
    rows_ += text;
  };
  auto number = [this](double value) {
    rows_ += ',';
    append_fixed6(rows_, value);
  };
  rows_ += job.number;
  field(job.workload->name);
  field(job.profile);
  number(job.submission_time);
  field(std::to_string(job.requested_resources));
  number(job.walltime);
  rows_ += success ? ",1," : ",0,";
  rows_ += job_state_to_string(job.state);
  number(start);
  number(runtime);
  number(finish);
  number(waiting);
  number(turnaround);
  number(stretch);
  field(job.allocation.to_string(" "));
  if (energy_) {
    char buffer[128];
    const int n = std::snprintf(buffer, sizeof buffer, ",%Lf,", job.consumed_energy);
    rows_.append(buffer, n > 0 ? static_cast<size_t>(n) : 0);
  } else {
    rows_ += ",-1.000000,";
  }
  rows_ += quoted(job.metadata);
  rows_ += '\n';

  summary_.nb_jobs++;
  if (rejected) {
    summary_.nb_rejected++;
    return;
  }
  summary_.nb_finished++;
  if (success)
    summary_.nb_success++;
  if (killed)
    summary_.nb_killed++;
  // Batsim's schedule figures (JobsTracer::write_job): long double throughout.
  const long double completion  = finish_ld;
  const long double lwaiting    = start_ld - job.submission_time;
  const long double lturnaround = finish_ld - job.submission_time;
  const long double slowdown    = lturnaround / runtime_ld;
  summary_.sum_waiting += lwaiting;
  summary_.sum_turnaround += lturnaround;
  summary_.sum_slowdown += slowdown;
  summary_.max_waiting    = std::max(summary_.max_waiting, lwaiting);
  summary_.max_turnaround = std::max(summary_.max_turnaround, lturnaround);
  summary_.max_slowdown   = std::max(summary_.max_slowdown, slowdown);
  summary_.makespan       = std::max(summary_.makespan, completion);
}

void JobsCsv::write(const std::string& path) const
{
  write_file_atomically(path, "job_id,workload_name,profile,submission_time,requested_number_of_resources,"
                              "requested_time,success,final_state,starting_time,execution_time,finish_time,"
                              "waiting_time,turnaround_time,stretch,allocated_resources,consumed_energy,metadata\n" +
                                  rows_);
}

} // namespace datasched
