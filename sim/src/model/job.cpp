#include "model/job.hpp"

#include "common/fatal.hpp"

namespace datasched {

std::string job_state_to_string(JobState state)
{
  switch (state) {
    case JobState::NotSubmitted:
      return "NOT_SUBMITTED";
    case JobState::Submitted:
      return "SUBMITTED";
    case JobState::Running:
      return "RUNNING";
    case JobState::CompletedSuccessfully:
      return "COMPLETED_SUCCESSFULLY";
    case JobState::CompletedFailed:
      return "COMPLETED_FAILED";
    case JobState::CompletedWalltimeReached:
      return "COMPLETED_WALLTIME_REACHED";
    case JobState::CompletedKilled:
      return "COMPLETED_KILLED";
    case JobState::Rejected:
      return "REJECTED";
  }
  return "?";
}

JobState job_state_from_string(const std::string& text)
{
  for (JobState s :
       {JobState::NotSubmitted, JobState::Submitted, JobState::Running, JobState::CompletedSuccessfully,
        JobState::CompletedFailed, JobState::CompletedWalltimeReached, JobState::CompletedKilled, JobState::Rejected})
    if (job_state_to_string(s) == text)
      return s;
  throw InputError("unknown job state '" + text + "'");
}

bool job_state_is_final(JobState state)
{
  return state == JobState::CompletedSuccessfully || state == JobState::CompletedFailed ||
         state == JobState::CompletedWalltimeReached || state == JobState::CompletedKilled ||
         state == JobState::Rejected;
}

} // namespace datasched
