#pragma once
// What each resource is doing over time (idle, computing, unavailable, and the energy
// states sleeping / switching on / switching off), accounted the way Batsim 4.2.1 does
// so that `_machine_states.csv` and the `time_*` columns of `_schedule.csv` are Batsim's:
//
//  * a machine's time goes to its current state only when its state is *set* again
//    (Batsim's Machine::update_machine_state): the idle time after a machine's last job,
//    and the whole run of a machine that never computes, are never counted; setting a
//    computing machine to computing again (a second job on a shared host) closes one
//    interval and opens the next;
//  * the per-state counters start with every compute node idle and storage nodes in no
//    state at all (Batsim initialises only the idle counter, with the compute nodes),
//    although every machine, storage nodes included, starts idle at date 0.
//
// Beside Batsim's accounting, it keeps the sensible figure our own `_utilisation.csv`
// reports: the number of compute nodes in each state as a step function of time, whose
// integral up to the makespan gives each state's node-seconds (they sum to
// nodes x makespan). It depends on no simulator: callers pass the dates.
#include <array>
#include <utility>
#include <vector>

#include "model/interval_set.hpp"

namespace datasched {

/// Batsim's machine states (src/machines.hpp), in the order of our arrays.
enum class MachineState { Sleeping, Idle, Computing, SwitchingOn, SwitchingOff, Unavailable };
constexpr int kNbMachineStates = 6;

/// Batsim's name of a state, as in `time_<name>` and `nb_<name>` columns.
const char* machine_state_name(MachineState state);

/// Node-seconds spent by the compute nodes in each state over [0, horizon].
struct StateTimes {
  double horizon  = 0;
  int nb_machines = 0;
  std::array<long double, kNbMachineStates> seconds{};
  long double operator[](MachineState s) const { return seconds[static_cast<int>(s)]; }
};

class MachineStates {
public:
  /// Every machine idle at date 0; ids below `nb_compute` are compute nodes.
  void reset(int nb_machines, int nb_compute);

  /// Sets a machine's state at `now` (Batsim's update_machine_state): the time since its
  /// last change goes to the state it leaves, even when `state` is the same one.
  void set_state(int id, MachineState state, double now);
  MachineState state(int id) const { return machines_.at(id).state; }

  /// A job starts on `hosts`: each becomes computing (set again if it already was).
  void job_started(const IntervalSet& hosts, double now);
  /// A job ends on `hosts`: each whose last job this was becomes idle, unless unavailable.
  void job_ended(const IntervalSet& hosts, double now);
  /// machine_unavailable / machine_available: unavailable, or back to idle or computing.
  void set_available(int id, bool available, double now);

  /// Batsim's counter of machines in `state` (see the note on storage nodes above).
  int count(MachineState state) const { return counts_[static_cast<int>(state)]; }
  /// Seconds all machines spent in `state`, Batsim's way: only intervals closed by a
  /// state change, summed in long double over machines in id order.
  long double closed_time(MachineState state) const;

  /// Our sensible figure: node-seconds of the compute nodes in each state over [0, horizon].
  StateTimes compute_node_times(double horizon) const;

private:
  struct Machine {
    MachineState state = MachineState::Idle;
    int nb_jobs        = 0;
    long double since  = 0; ///< date of the last state change
    std::array<long double, kNbMachineStates> spent{};
  };
  using Counts = std::array<int, kNbMachineStates>;

  std::vector<Machine> machines_;
  Counts counts_{};
  int nb_compute_ = 0;
  Counts compute_counts_{};                        ///< true counts over compute nodes only
  std::vector<std::pair<double, Counts>> history_; ///< compute_counts_ after each change (date order)
};

} // namespace datasched
