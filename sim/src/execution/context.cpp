#include "execution/context.hpp"

#include <cstdio>

#include "model/job.hpp"

namespace datasched {

void Context::machines_job_started(const Job& job, double now)
{
  machine_states.job_started(job.allocation, now);
  machine_states_csv.add_row(now, machine_states);
}

void Context::cancel_activities(Job& job)
{
  for (auto& frame : job.progress) {
    if (frame.exec) {
      traffic.ended(frame.exec.get());
      frame.exec->cancel();
    }
    for (auto& exec : frame.execs) {
      traffic.ended(exec.get());
      exec->cancel();
    }
  }
}

void Context::cancel_running_activities()
{
  for (Job* job : workloads.running_jobs())
    cancel_activities(*job);
}

void Context::machines_job_ended(const Job& job, double now)
{
  machine_states.job_ended(job.allocation, now);
  machine_states_csv.add_row(now, machine_states);
}

void Context::set_power_state(Machine& machine, PowerState state, double now)
{
  machine.power = state;
  switch (state) {
    case PowerState::On:
      machine_states.set_state(machine.id, MachineState::Idle, now);
      return;
    case PowerState::SwitchingOff:
      machine_states.set_state(machine.id, MachineState::SwitchingOff, now);
      return;
    case PowerState::Sleeping:
      machine_states.set_state(machine.id, MachineState::Sleeping, now);
      return;
    case PowerState::SwitchingOn:
      machine_states.set_state(machine.id, MachineState::SwitchingOn, now);
      return;
  }
}

void Context::maybe_print_progress(double now)
{
  if (config.progress_interval <= 0)
    return;
  auto wall = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(wall - last_progress).count() < config.progress_interval)
    return;
  last_progress = wall;
  print_progress(now, false);
}

void Context::print_progress(double now, bool done) const
{
  // completed = every job in a final state; the three counts split it (a job that ends
  // with a non-zero return code is in none of them: completed - the three).
  const JobsSummary& s = jobs_csv.summary();
  std::fprintf(stderr,
               "[datasched-sim progress] completed=%d total=%zu simulated_time=%.3f succeeded=%d killed=%d "
               "rejected=%d%s\n",
               nb_completed_jobs, workloads.nb_jobs(), now, s.nb_success, s.nb_killed, s.nb_rejected,
               done ? " done" : "");
  std::fflush(stderr);
}

} // namespace datasched
