#include "model/machine_states.hpp"

namespace datasched {

const char* machine_state_name(MachineState state)
{
  switch (state) {
    case MachineState::Sleeping:
      return "sleeping";
    case MachineState::Idle:
      return "idle";
    case MachineState::Computing:
      return "computing";
    case MachineState::SwitchingOn:
      return "switching_on";
    case MachineState::SwitchingOff:
      return "switching_off";
    case MachineState::Unavailable:
      return "unavailable";
  }
  return "?";
}

void MachineStates::reset(int nb_machines, int nb_compute)
{
  machines_.assign(nb_machines, Machine{});
  nb_compute_ = nb_compute;
  counts_.fill(0);
  counts_[static_cast<int>(MachineState::Idle)] = nb_compute; // Batsim's counters leave storage nodes out
  compute_counts_                               = counts_;
  history_.clear();
}

void MachineStates::set_state(int id, MachineState state, double now)
{
  Machine& m           = machines_.at(id);
  const long double at = now;
  const int from       = static_cast<int>(m.state);
  const int to         = static_cast<int>(state);
  m.spent[from] += at - m.since;
  m.since = at;
  counts_[from]--;
  counts_[to]++;
  m.state = state;
  if (id >= nb_compute_ || from == to)
    return;
  compute_counts_[from]--;
  compute_counts_[to]++;
  if (!history_.empty() && history_.back().first == now)
    history_.back().second = compute_counts_;
  else
    history_.emplace_back(now, compute_counts_);
}

void MachineStates::job_started(const IntervalSet& hosts, double now)
{
  for (int id : hosts.elements()) {
    set_state(id, MachineState::Computing, now);
    machines_[id].nb_jobs++;
  }
}

void MachineStates::job_ended(const IntervalSet& hosts, double now)
{
  for (int id : hosts.elements()) {
    Machine& m = machines_.at(id);
    if (--m.nb_jobs == 0 && m.state != MachineState::Unavailable)
      set_state(id, MachineState::Idle, now);
  }
}

void MachineStates::set_available(int id, bool available, double now)
{
  if (!available)
    set_state(id, MachineState::Unavailable, now);
  else
    set_state(id, machines_.at(id).nb_jobs > 0 ? MachineState::Computing : MachineState::Idle, now);
}

long double MachineStates::closed_time(MachineState state) const
{
  long double total = 0;
  for (const Machine& m : machines_)
    total += m.spent[static_cast<int>(state)];
  return total;
}

StateTimes MachineStates::compute_node_times(double horizon) const
{
  StateTimes out;
  out.horizon     = horizon;
  out.nb_machines = nb_compute_;
  Counts counts{};
  counts[static_cast<int>(MachineState::Idle)] = nb_compute_;
  long double since                            = 0;
  auto add_until                               = [&](long double until) {
    for (int s = 0; s < kNbMachineStates; ++s)
      out.seconds[s] += counts[s] * (until - since);
    since = until;
  };
  for (const auto& [date, after] : history_) {
    if (date >= horizon)
      break;
    add_until(date);
    counts = after;
  }
  if (horizon > since)
    add_until(horizon);
  return out;
}

} // namespace datasched
