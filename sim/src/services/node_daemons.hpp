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
// Idle load (`idle_flops_per_second` = L, flops of one core per second; services/idle_load.hpp):
// steady by default, one background execution per serving node capped at L flops/s for the whole
// run, from time 0 (the time average of the --interference scenario's idle bursts, without one event
// per node and period). A compute activity alone on a one-core node X then gets S - L when
// L <= S / 2 (fair-bottleneck fills the capped execution first, the rest goes to the job) and S / 2
// otherwise; on a node of several cores it keeps a whole core while a core is free. With
// `idle_period` P the load runs as the scenario's bursts instead, L * P flops every P seconds, at
// phases drawn with `idle_seed` ("random", the default `idle_phase`) or all at 0 ("aligned"): the
// bursts' timing, which slows a job spread over nodes whose bursts do not line up, at the price of
// an event per node and period. The load counts as CPU use in the energy model and ends with the run.
//
// Not modelled: metadata operations.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "common/pair_bytes.hpp"
#include "model/machines.hpp"
#include "model/run_cost.hpp"
#include "model/storage_endpoints.hpp"
#include "services/daemon_costs.hpp"

namespace datasched {

/// The daemons' parameters: their costs and the request size the flows are cut into.
struct NodeDaemonsConfig {
  DaemonCosts costs = [] {
    DaemonCosts steady;
    steady.idle_form = IdleForm::Steady; // without idle_period (services/idle_load.hpp)
    return steady;
  }();
  std::uint64_t request_size = 1048576; ///< bytes per request (BeeOND's default chunk is 512 KiB; Lustre RPCs 1-4 MiB)
  std::uint64_t idle_seed    = 0;       ///< seeds the idle bursts' phases (services/idle_load.hpp)
};

/// Reads a --storage-daemons file: {"request_size", "flops_per_request", "flops_per_byte",
/// "idle_flops_per_second", "idle_period", "idle_phase", "idle_seed"}. Unknown keys, bad values
/// and phase keys without `idle_period` are InputErrors naming the file and field.
NodeDaemonsConfig load_node_daemons(const std::string& path);
NodeDaemonsConfig parse_node_daemons(const nlohmann::json& document, const std::string& file);

/// The daemons as the decision process sees them (SIMULATION_BEGINS' config
/// "datasched-storage-daemons"): request_size, the three costs and idle_period (0: steady).
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
  /// actor per node, in resource-id order (the order the phases are drawn in).
  void start_idle_load(const Machines& machines) const;

  /// The compute nodes whose daemons serve an NVM, in resource-id order.
  std::vector<int> serving_nodes() const;
  /// Idle bursts per simulated second (none for a steady load): a scheduling run's length is
  /// not known before it, so this rate is what model/run_cost.hpp's budget is checked against.
  RunCost idle_burst_rate() const;

  const NodeDaemonsConfig& config() const { return config_; }

private:
  NodeDaemonsConfig config_;
  std::vector<int> node_of_; ///< resource id -> the compute node whose daemon serves it, -1 for none
};

} // namespace datasched
