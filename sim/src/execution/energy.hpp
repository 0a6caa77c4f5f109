#pragma once
// Energy (-E), measured as Batsim 4.2.1 measures it: SimGrid's host-energy plugin
// integrates each host's power (its pstate's wattage_per_state, its CPU load) over time;
// the engine reads it with sg_host_get_consumed_energy at the points where Batsim reads
// it: when a job starts and ends (in the job's actor), when the first job is submitted,
// when a power state change is requested and completed, and for QUERY consumed_energy.
//
// The reads are not passive: sg_host_get_consumed_energy is a SimGrid simcall for a host
// whose energy is not up to date, so the reading actor yields once per such host. The
// same reads, host by host in id order in the same actors, keep the interleaving of
// actors within a date (and so the order of the output rows) identical to Batsim's.
#include <string>

#include "export/consumed_energy_csv.hpp"
#include "export/pstate_changes_csv.hpp"
#include "model/interval_set.hpp"

namespace datasched {

class Machines;

/// Registers the host-energy plugin, and a check of each host's wattage properties
/// that stops with one message naming the platform file, line, host and property
/// (SimGrid would abort or throw from inside its parser). Call before loading the platform.
void enable_energy_plugin(const std::string& platform_file);

/// Checks after loading that every resource (not the master) has wattage_per_state:
/// without it SimGrid counts 0 W, and every energy figure would silently be wrong.
/// Throws InputError naming the host.
void check_energy_properties(const Machines& machines);

class EnergyTracker {
public:
  bool enabled() const { return enabled_; }
  void enable() { enabled_ = true; }

  /// Joules consumed so far by the hosts of `ids` (Batsim's consumed_energy_on_machines).
  long double consumed_on(const Machines& machines, const IntervalSet& ids) const;
  /// Joules consumed so far by every resource (Batsim's total_consumed_energy).
  long double consumed_total(const Machines& machines) const;
  /// Sum of each resource's Epsilon watts in its current pstate (Batsim's wattmin).
  long double wattmin_total(const Machines& machines) const;

  /// A row of `_consumed_energy.csv` ('s', 'e' or 'p'); returns the energy written.
  long double trace(const Machines& machines, double date, char event_type);
  /// The first job submission (the start of the schedule's consumed_joules).
  void note_first_submission(const Machines& machines);
  /// A job end row, which is also the end of the schedule's consumed_joules.
  void trace_job_end(const Machines& machines, double date) { last_completion_ = trace(machines, date, 'e'); }
  /// consumed_joules of `_schedule.csv`: from the first job submission to the last job end.
  double schedule_joules() const { return static_cast<double>(last_completion_ - first_submission_); }

  PStateChangesCsv pstate_changes;
  ConsumedEnergyCsv consumed_energy;
  int nb_grouped_switches = 0; ///< SET_RESOURCE_STATE decisions
  int nb_machine_switches = 0; ///< machines named by them

private:
  bool enabled_                 = false;
  long double first_submission_ = -1;
  long double last_completion_  = -1;
};

} // namespace datasched
