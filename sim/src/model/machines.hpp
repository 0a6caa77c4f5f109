#pragma once
// The hosts of the platform as Batsim sees them: one master (runs the engine's own
// actors), compute nodes and storage nodes, numbered as Batsim numbers them.
#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <simgrid/s4u/Host.hpp>

#include "model/interval_set.hpp"
#include "model/power_states.hpp"

namespace datasched {

enum class Role { Master, ComputeNode, Storage };

std::string role_to_string(Role role);

struct Job;

/// Where a host is in Batsim's sleep cycle (-E only; otherwise always On). Idle and
/// computing are both On: they follow from Machine::running_jobs. (The time spent in
/// each state and the machine-state rows are MachineStates', see Context::set_power_state.)
enum class PowerState { On, SwitchingOff, Sleeping, SwitchingOn };
std::string power_state_to_string(PowerState state);

struct Machine {
  int id = -1; ///< Batsim resource id (-1 for the master)
  std::string name;
  simgrid::s4u::Host* host = nullptr;
  Role role                = Role::ComputeNode;
  std::map<std::string, std::string> properties; ///< host properties, in name order
  std::map<std::string, std::string> zone_properties;

  // Dynamic state.
  std::vector<const Job*> running_jobs;
  bool available = true; ///< false between machine_unavailable and machine_available events

  // Energy (-E): the host's pstates by kind, shared by hosts with the same description.
  std::shared_ptr<const PowerStates> pstates;
  PowerState power = PowerState::On;
};

class Machines {
public:
  /// Builds the machine list from the loaded platform.
  /// `role_overrides` maps host names to roles (Batsim's `-r host1,host2:role`).
  /// Throws InputError when the master is missing/duplicated or a role is unknown.
  static Machines from_platform(const std::vector<simgrid::s4u::Host*>& hosts, const std::string& master_name,
                                const std::map<std::string, Role>& role_overrides);

  /// Parses a role name ("master", "compute_node", "storage"); throws InputError naming `where`.
  static Role parse_role(const std::string& text, const std::string& where);

  Machine& master() { return master_; }
  const Machine& master() const { return master_; }
  int size() const { return static_cast<int>(resources_.size()); }
  int nb_compute() const { return nb_compute_; }
  int nb_storage() const { return size() - nb_compute_; }
  bool exists(int id) const { return id >= 0 && id < size(); }
  Machine& at(int id) { return resources_.at(id); }
  const Machine& at(int id) const { return resources_.at(id); }
  std::vector<Machine>& all() { return resources_; }
  const std::vector<Machine>& all() const { return resources_; }
  const Machine* by_name(const std::string& name) const;

  /// Reads every resource's `sleep_pstates` property (-E). Throws InputError naming the host.
  void load_power_states();

private:
  Machine master_;
  std::vector<Machine> resources_; ///< compute nodes first, then storage nodes
  int nb_compute_ = 0;
  std::map<std::string, int> index_by_name_;
};

} // namespace datasched
