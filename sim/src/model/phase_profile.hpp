#pragma once
// The `datasched_phases` profile: an application as a sequence of compute /
// communicate / read / write phases plus one storage-access descriptor (seed 000,
// Table 1). Schema: workloads/phases.py (PHASE_PROFILE_SCHEMA) and workloads/README.md.
// This file only parses and validates; execution/phase_plan turns a profile into
// SimGrid activities once the job's hosts and storage devices are known.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace datasched {

enum class PhaseKind { Compute, Communicate, Read, Write };
/// Seed 000 section 4.1: where the application's data lives.
enum class StorageAllocation { Internal, External, Cache, San };
/// Seed 000 Table 1 "data access type": how tasks map onto the k devices.
enum class AccessType { Disperse, Affinity, Local };
/// Seed 000 5.1: I/O tasks read the data "and distribute it to the rest of the computing
/// tasks", and INRFlow keeps causal order between flows. `None`: only the I/O tasks move
/// the phase's bytes, all in one step. `PerTask`: each I/O task's storage activities are its
/// own, and a read task sends every non-I/O task its share once its own read has ended (a
/// write task first gathers the shares, then writes): execution/phase_plan.hpp.
enum class IoDistribution { None, PerTask };

std::string phase_kind_to_string(PhaseKind kind);
std::string storage_allocation_to_string(StorageAllocation allocation);
/// Parses "internal" / "external" / "cache" / "san"; throws InputError naming `where`.
StorageAllocation storage_allocation_from_string(const std::string& text, const std::string& where);
std::string access_type_to_string(AccessType access);
/// Parses "disperse" / "affinity" / "local"; throws InputError naming `where`.
AccessType access_type_from_string(const std::string& text, const std::string& where);
std::string io_distribution_to_string(IoDistribution distribution);
/// Parses "none" / "per_task"; throws InputError naming `where`.
IoDistribution io_distribution_from_string(const std::string& text, const std::string& where);

struct StorageDescriptor {
  StorageAllocation allocation = StorageAllocation::Internal;
  int stg_k                    = 1; ///< NVM devices holding the data
  double mem_hit_pct           = 0; ///< % of I/O bytes served from the node's DRAM
  double remote_pct            = 0; ///< % of the device bytes that go to a non-local NVM
  AccessType access            = AccessType::Disperse;
  int san_k                    = 1; ///< I/O servers striping the data (san; stage-in/out)
  double stage_in_bytes        = 0; ///< loaded from central storage onto the devices before phase 0 (not san)
  double stage_out_bytes       = 0; ///< written back to central storage after the last phase (not san)
};

/// Where a write phase puts a named data item (seed 001): the NVM of the nodes that
/// write it, or central storage (the I/O servers).
enum class ItemHome { Nvm, Central };
std::string item_home_to_string(ItemHome home);
/// Parses "nvm" / "central"; throws InputError naming `where`.
ItemHome item_home_from_string(const std::string& text, const std::string& where);

/// What the decision process asked for in EXECUTE_JOB's `datasched_storage` field.
/// A storage-assignment policy may override the profile's allocation, access and devices:
/// the profile describes the application, the policy where its data lives.
struct RequestedStorage {
  std::optional<StorageAllocation> allocation; ///< overrides the profile's allocation
  std::vector<int> devices;                    ///< NVM endpoints or I/O servers (empty: derive them)
  std::optional<AccessType> access;            ///< overrides the profile's access type
  std::optional<ItemHome> items_to =
      std::nullopt; ///< where every item this job writes goes (overrides each item's `to`)
};

/// A named data item (a file) that a read or write phase moves. Its bytes are part of
/// the phase's: the phase moves amount x I/O tasks bytes, the items' bytes among them
/// (the rest follows the storage descriptor). Items persist after the job ends
/// (model/data_registry.hpp).
struct ItemUse {
  std::string name;
  double bytes  = 0;             ///< over all I/O tasks; write: the item's new size, read: bytes read
  ItemHome home = ItemHome::Nvm; ///< write only
};

struct Phase {
  PhaseKind kind = PhaseKind::Compute;
  double amount  = 0;         ///< flops per node (compute), bytes sent per node (communicate), bytes per I/O task
  int nodes      = 0;         ///< active nodes: the first `nodes` of the allocation (0: all)
  std::vector<ItemUse> items; ///< named data items this read/write phase moves
};

struct PhaseProfile {
  int res                        = 1; ///< nodes the amounts were sized for: jobs using it must request exactly this
  int io_tasks                   = 1; ///< the first io_tasks nodes of the allocation do the I/O
  IoDistribution io_distribution = IoDistribution::None; ///< whether I/O tasks share data with the others
  StorageDescriptor storage;
  std::vector<Phase> phases;

  /// Names of every item any phase reads or writes (sorted, unique).
  std::vector<std::string> item_names() const;

  /// Parses and validates the profile object. `ctx` names the profile in errors
  /// ("file: profile 'p'"). Throws InputError on any schema violation.
  static PhaseProfile from_json(const nlohmann::json& object, const std::string& ctx);
};

} // namespace datasched
