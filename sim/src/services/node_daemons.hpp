#pragma once
// Node storage daemons under scheduling runs (engine option --storage-daemons FILE).
//
// Every compute node X that has an NVM (an `X-nvm` endpoint host, model/storage_endpoints.hpp)
// runs a file-system storage daemon, as an on-demand file system (BeeOND) or an ad-hoc file
// system spread over the compute nodes does, and every byte an activity moves to or from
// X-nvm is served by it. The daemon spends CPU on X (the cost model of seed 004,
// services/daemon_costs.hpp):
//
//   a flow of b bytes to or from X-nvm:  ceil(b / request_size) * flops_per_request
//                                        + b * flops_per_byte   flops on X
//
// The work joins the flow's SimGrid ptask (flops on X beside the bytes), so SimGrid couples
// them: the ptask progresses at the rate its scarcest resource allows (the device, the links,
// X's CPU), and X's CPU is shared with whatever else computes there. A job placed on X
// computes slower while X serves another job's data, and that I/O slows while X computes:
// seed 004's interference, now between scheduled jobs. SimGrid's fair-bottleneck solver
// (ptask_L07) gives each activity that uses X's CPU an equal share of it when they all can
// use it: a daemon ptask next to one compute activity gets half of X's speed. ptask_L07
// bounds a ptask's work on a host by one core of it, so one flow's daemon work is one thread.
// Closed forms: tests/integration/storage/test_node_daemons.py.
//
// Under --sharing flow a spec's flows run as separate ptasks; its daemon work then runs as the
// spec's compute part, beside the flows, and the spec ends with the last of them (looser
// coupling: the work and the bytes no longer slow each other).
//
// Idle load (`idle_flops_per_second` = L, flops of one core per second): each serving node runs one
// background execution capped at L flops/s (s4u::Exec::set_bound; SimGrid patch 0009 lets ptask_L07
// honour it) for the whole run, from time 0. It is the time average of the --interference
// scenario's idle bursts (L * P flops every P seconds) without one event per node and period:
// the bursts' timing is not modelled, so `idle_period` and `idle_phase` are refused here. A
// compute activity alone on a one-core node X then gets S - L when L <= S / 2 (fair-bottleneck
// fills the capped execution first, the rest goes to the job) and S / 2 otherwise; on a node of
// several cores it keeps a whole core while a core is free. The load counts as CPU use in the
// energy model. It ends with the run (a daemon actor), and a run that deadlocks still fails: its
// execution lasts kIdleHorizon simulated seconds, then ends, so the deadlock is seen then.
//
// Not modelled: metadata operations.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "common/pair_bytes.hpp"
#include "model/machines.hpp"
#include "model/storage_endpoints.hpp"
#include "services/daemon_costs.hpp"

namespace datasched {

/// The daemons' parameters: their costs and the request size the flows are cut into.
struct NodeDaemonsConfig {
  DaemonCosts costs;
  std::uint64_t request_size = 1048576; ///< bytes per request (BeeOND's default chunk is 512 KiB; Lustre RPCs 1-4 MiB)
};

/// Reads a --storage-daemons file: {"request_size", "flops_per_request", "flops_per_byte",
/// "idle_flops_per_second"}. Unknown keys, bad values, `idle_period` and `idle_phase` are
/// InputErrors naming the file and field.
NodeDaemonsConfig load_node_daemons(const std::string& path);
NodeDaemonsConfig parse_node_daemons(const nlohmann::json& document, const std::string& file);

/// The daemons as the decision process sees them (SIMULATION_BEGINS' config
/// "datasched-storage-daemons"): the same keys as the file, every one given.
nlohmann::json describe_node_daemons(const NodeDaemonsConfig& config);

class NodeDaemons {
public:
  /// `nb_resources`: the platform's resource ids are 0 .. nb_resources - 1.
  NodeDaemons(NodeDaemonsConfig config, const StorageEndpoints& endpoints, int nb_resources);

  /// Adds the daemons' work to one ptask over resource ids (`flops` per host, `bytes`
  /// between indices of `hosts`): for every flow to or from a served NVM, in row-major
  /// order, the flops above on the NVM's node, which joins `hosts` if absent (with no
  /// flows: its index is new). Returns the flops added.
  double add_work(std::vector<int>& hosts, std::vector<double>& flops, const PairBytes& bytes) const;
  /// Whether any of `hosts` is a served NVM (else add_work adds nothing): one pass over the
  /// hosts, so that compute and IPC ptasks are not copied to be looked at.
  bool serves_any(const std::vector<int>& hosts) const;

  /// The flops one flow of `bytes` costs its daemon.
  double flow_work(double bytes) const;

  /// Starts every serving node's idle load (none when `idle_flops_per_second` is 0): one daemon
  /// actor per node running one execution capped at the idle rate, from now to the run's end.
  void start_idle_load(const Machines& machines) const;

  /// The simulated seconds an idle-load execution lasts: longer than any run (about 32 years).
  static constexpr double kIdleHorizon = 1e9;

  const NodeDaemonsConfig& config() const { return config_; }

private:
  NodeDaemonsConfig config_;
  std::vector<int> node_of_; ///< resource id -> the compute node whose daemon serves it, -1 for none
};

} // namespace datasched
