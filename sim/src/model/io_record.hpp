#pragma once
// What a phase job did, per storage tier and traffic class: filled while it runs
// (execution/job_runner), written to `<prefix>_io.csv` (export/io_csv) when it ends.
#include <array>
#include <string>
#include <vector>

#include "model/phase_profile.hpp"

namespace datasched {

/// Where bytes went. Each tier of a phase is one SimGrid activity (phase_plan.hpp).
/// Writeback: dirty data items evicted from a full NVM to central storage (data_registry.hpp).
enum class Tier { Compute, Network, Dram, LocalNvm, RemoteNvm, San, StageIn, StageOut, Writeback };
constexpr int kNbTiers = 9;
std::string tier_to_string(Tier tier);

/// Traffic classes arbitrated by the engine's traffic policy (execution/traffic.hpp).
enum class TrafficClass { None, Ipc, Storage };
constexpr int kNbTrafficClasses = 3;
std::string traffic_class_to_string(TrafficClass traffic);

struct IoRecord {
  std::array<double, kNbTiers> bytes{};   ///< bytes moved by the tier's completed activities
  std::array<double, kNbTiers> seconds{}; ///< per phase: its start to the tier's last activity end, summed
  std::array<double, 4> phase_seconds{};  ///< wall time of the phases of each PhaseKind
  double stage_seconds = 0;               ///< wall time of stage-in plus stage-out
  std::array<double, kNbTrafficClasses> class_seconds{}; ///< per phase: the longest activity of the class, summed
  std::array<double, 3> item_read_bytes{};    ///< named data items read, by ItemSource (local NVM, remote NVM, central)
  std::array<double, 2> item_written_bytes{}; ///< named data items written, by ItemHome (NVM, central)
  std::vector<int> devices;                   ///< the storage devices the job used
  AccessType access            = AccessType::Disperse;
  StorageAllocation allocation = StorageAllocation::Internal;
};

} // namespace datasched
