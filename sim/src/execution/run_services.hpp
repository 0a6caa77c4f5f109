#pragma once
// The services a scheduling run carries beside its jobs, each chosen by an engine option from
// the one table in run_services.cpp. A service has one role, the slot it fills here:
//   san    a path for phase jobs' central-storage I/O (san_path.hpp): --staging-layer,
//          --forwarding-layer; at most one (SAN I/O takes one path)
//   nodes  work on the compute nodes joining the activities that use them (node_service.hpp):
//          --storage-daemons; at most one
// Adding a service is one class of its role and one row of the table; the simulation starts
// their actors, tells the decision process about them and writes their outputs through
// RunServices, and "one service per role" is checked once, against the table.
#include <memory>
#include <string>

#include "execution/node_service.hpp"
#include "execution/san_path.hpp"

namespace datasched {

struct EngineConfig;
struct SimulationConfig;
class Machines;
class StorageEndpoints;
class TransferObserver;

struct RunServices {
  std::unique_ptr<SanPath> san;       ///< null: SAN I/O stays in the phases' plans
  std::unique_ptr<NodeService> nodes; ///< null: the compute nodes run nothing but jobs

  /// Starts every service's actors (daemons), in the table's order.
  void start_actors() const;
  /// Each service announces itself in SIMULATION_BEGINS' config (config.services).
  void announce(SimulationConfig& config) const;
  /// Writes every service's output files.
  void write_outputs(const std::string& prefix) const;
};

/// The services the run's options name, set up on the loaded platform (SAN paths' transfers
/// seen by `observer`, null: none); tells `endpoints` which phases the SAN path takes out of
/// the plan. Throws InputError naming the options when two fill one role (before either is
/// set up), or naming a service's file and the platform.
RunServices make_run_services(const EngineConfig& config, const Machines& machines, StorageEndpoints& endpoints,
                              TransferObserver* observer);

} // namespace datasched
