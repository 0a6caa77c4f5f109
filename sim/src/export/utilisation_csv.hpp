#pragma once
// `<prefix>_utilisation.csv` (ours, not Batsim's): how the compute nodes spent the run,
// one row. Over [0, makespan], the node-seconds each state took on the compute nodes
// (storage nodes excluded), summing to nb_compute_machines x makespan, and
// utilisation = time_computing / (nb_compute_machines x makespan). Batsim's
// `_schedule.csv` time_idle only counts idle intervals that ended with a state change
// (see MachineStates); this file counts them all.
#include <string>

namespace datasched {

struct StateTimes;

void write_utilisation_csv(const std::string& path, const StateTimes& times);

} // namespace datasched
