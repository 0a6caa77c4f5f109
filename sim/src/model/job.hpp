#pragma once
// A job of a workload and everything the engine learns about it while it runs.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <simgrid/s4u/Exec.hpp>

#include "model/interval_set.hpp"
#include "model/io_record.hpp"
#include "model/profile.hpp"

namespace datasched {

struct Workload;
struct JobWorker;

enum class JobState {
  NotSubmitted,
  Submitted,
  Running,
  CompletedSuccessfully,
  CompletedFailed,
  CompletedWalltimeReached,
  CompletedKilled,
  Rejected,
};

std::string job_state_to_string(JobState state);
/// Parses a state name as used by CHANGE_JOB_STATE; throws InputError.
JobState job_state_from_string(const std::string& text);
bool job_state_is_final(JobState state);

/// Where a running job is in its profile, for JOB_KILLED's job_progress.
struct ProgressFrame {
  std::string profile_name;
  int task_index    = 0;                    ///< index in an expanded composed sequence
  double start_time = 0;                    ///< when the current leaf started
  double delay      = 0;                    ///< duration of a delay leaf
  simgrid::s4u::ExecPtr exec;               ///< running ptask of a parallel leaf
  std::vector<simgrid::s4u::ExecPtr> execs; ///< running activities of a datasched_phases step
};

struct Job {
  std::string id;     ///< full id "workload!number"
  std::string number; ///< id inside its workload
  Workload* workload = nullptr;
  std::string profile;
  double submission_time  = 0;
  double walltime         = -1; ///< -1: no limit
  int requested_resources = 0;
  std::string description; ///< serialised JSON object sent in JOB_SUBMITTED (id rewritten to the full id)

  JobState state = JobState::NotSubmitted;
  IntervalSet allocation;
  std::vector<int> mapping;                          ///< executor -> resource id
  std::map<std::string, int> storage_mapping;        ///< storage label -> resource id
  std::shared_ptr<const struct Profile> io_profile;  ///< EXECUTE_JOB's additional_io_job, merged into the job's ptask
  IntervalSet io_allocation;                         ///< hosts of the additional I/O job
  std::optional<RequestedStorage> requested_storage; ///< EXECUTE_JOB's datasched_storage extension
  std::unique_ptr<IoRecord> io;                      ///< per-tier accounting of a datasched_phases job
  double starting_time = -1;
  /// Clock at its end minus starting_time, kept in long double as Batsim keeps it (exact
  /// for dates of similar magnitude, so starting_time + runtime is the end date).
  long double runtime = 0;
  int return_code     = 0;
  /// -E: joules consumed by its hosts while it ran (before its end: the reading at its start);
  /// -1 without energy, as Batsim writes it.
  long double consumed_energy = -1;
  std::string metadata;
  bool kill_requested  = false; ///< named by a KILL_JOB already: later ones skip it (as Batsim)
  bool killed          = false;
  bool completion_sent = false; ///< its JOB_COMPLETED message is on its way: too late to kill

  JobWorker* worker = nullptr;         ///< the pooled actor running it (see execution/job_pool.hpp)
  std::vector<ProgressFrame> progress; ///< stack: outer composed frames, then the leaf
};

} // namespace datasched
