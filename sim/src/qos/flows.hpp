#pragma once
// Every network transfer of the QoS mode is a single-flow SimGrid ptask (two hosts, bytes
// only from the first to the second): SimGrid's solver shares the links among the flows
// active at any time. On top of it, this file arbitrates between the InfiniBand
// arbitration tables (qos/service_levels.hpp):
//
//   * strict priority of the high table, with a granularity: a flow whose SL is served by
//     the low table moves in pieces of at most `granularity` bytes, each its own ptask;
//     a piece starts only when no high-table flow is active on any link of its route
//     ("active": started and not yet finished, latency included), else it waits for the
//     last such flow to end. A piece already started is not pre-empted (it shares the
//     link with a high flow that arrives meanwhile, as a packet already on the wire):
//     the high flow's delay is bounded by one piece. With `across_tables: priority`
//     instead, low-table flows move whole with 1e-6 times their in-table priority:
//     pre-emptive, no granularity (bench/seed003_arbitration compares the two).
//     A bounded `high_limit` (< 255) replaces both: low-table flows move whole, with
//     their in-table priority times mtu / max(mtu, high_limit x 4096) (one low packet
//     per high burst), so a backlogged low table keeps that share of the link.
//   * weights within a table: when the flows of one table use SLs of different weights,
//     each flow's activity priority is its virtual lane's weight over the largest weight
//     in use in its table (set by the engine's one priority arbiter,
//     services/priority_arbiter.hpp, without its split); the project's SimGrid build
//     (simgrid/patches/0001, weighted fair-bottleneck) gives the flows limited by one link
//     bandwidths in proportion to their priorities (w1/(w1+w2), ...). Per flow, not per
//     lane: a real VL arbiter serves lanes, so two flows of one lane against one of
//     another share as the lanes' weights and then equally within the lane; the arbiter's
//     split (a class's weight over its flows on the bottleneck link) would give that on
//     one link but breaks the fair sharing within a lane where flows cross links of
//     different crowds (sim/src/qos/README.md, measured). When all weights in use within
//     each table are equal (every experiment of the paper: MPI on SL0, I/O on one SL),
//     all priorities are 1 and no priority is ever set.
//
// Priorities are set right after start(): a priority given during the flow's latency
// takes effect once the latency is paid (simgrid/patches/0003).
//
// A flow pays its route's latency (the sum of its links' latencies, ptask_L07) before
// moving bytes: S bytes alone on a route of bandwidth B take sum(latencies) + S / B
// (a low-table flow: that per piece).
#include <cstdint>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include <simgrid/s4u/ConditionVariable.hpp>
#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/Mutex.hpp>

#include "qos/service_levels.hpp"
#include "services/priority_arbiter.hpp"
#include "services/staging_server.hpp"

namespace datasched::qos {

struct FlowSpec {
  simgrid::s4u::Host* src = nullptr;
  simgrid::s4u::Host* dst = nullptr;
  double bytes            = 0;
  int sl                  = 0;
};

/// Whether the SLs in `used` have more than one distinct weight within a table (then
/// flows get priorities; see above).
bool weights_in_play(const ArbitrationTable& table, const std::set<int>& used);

class FlowLauncher {
public:
  /// `used` are all the SLs the experiment's flows use (already validated).
  FlowLauncher(const ArbitrationTable& table, const std::set<int>& used);

  /// Whether flows get solver priorities: weights within a table differ, or the low
  /// table goes by solver priority (across_tables "priority" or a bounded high_limit).
  bool weighted() const { return weighted_ || table_.low_table_by_solver(); }

  /// Moves one flow and returns when it is complete (calling actor).
  void transfer(simgrid::s4u::Host* src, simgrid::s4u::Host* dst, double bytes, int sl);
  /// Moves all these flows at once and returns when all are complete.
  void transfer_all(const std::vector<FlowSpec>& flows);
  /// One flow outside the IB fabric (the drain on the storage network): no SL, priority 1.
  void transfer_unarbitrated(simgrid::s4u::Host* src, simgrid::s4u::Host* dst, double bytes);

  std::uint64_t started() const { return started_; }
  int max_concurrent() const { return max_running_; }
  double priority(int sl) const { return priority_[static_cast<std::size_t>(sl)]; }

private:
  struct Route {
    std::vector<simgrid::s4u::Link*> links;
  };
  const Route& route(simgrid::s4u::Host* src, simgrid::s4u::Host* dst);
  /// Starts one flow of service level `sl` (-1: outside the IB arbitration).
  simgrid::s4u::ExecPtr launch(simgrid::s4u::Host* src, simgrid::s4u::Host* dst, double bytes, int sl);
  void ended(const simgrid::s4u::Exec* exec, const Route& r, bool high);
  void high_flow_changes(const Route& r, int delta);
  void wait_for_no_high_flow(const Route& r);
  void transfer_low(simgrid::s4u::Host* src, simgrid::s4u::Host* dst, double bytes, int sl);

  const ArbitrationTable& table_;
  std::array<bool, kServiceLevels> high_{};
  std::array<double, kServiceLevels> priority_{};
  bool weighted_ = false;
  PriorityArbiter arbiter_; ///< the flows' priorities, one class per virtual lane

  simgrid::s4u::MutexPtr mutex_;
  simgrid::s4u::ConditionVariablePtr changed_;
  /// High-table flows active on each link (the gate of low-table pieces).
  std::unordered_map<const simgrid::s4u::Link*, int> high_on_link_;
  std::map<std::pair<const void*, const void*>, Route> routes_;
  std::uint64_t started_ = 0;
  int running_           = 0;
  int max_running_       = 0;
};

/// The staging server's transfers in the QoS mode: absorbed blocks cross the IB fabric
/// under the service-level arbitration above; drained chunks use the storage network,
/// outside it.
class StagingFlows final : public StagingTransfers {
public:
  explicit StagingFlows(FlowLauncher& flows) : flows_(flows) {}
  void absorb(simgrid::s4u::Host* client, simgrid::s4u::Host* server, double bytes, int sl) override
  {
    flows_.transfer(client, server, bytes, sl);
  }
  void drain(simgrid::s4u::Host* port, simgrid::s4u::Host* destination, double bytes) override
  {
    flows_.transfer_unarbitrated(port, destination, bytes);
  }

private:
  FlowLauncher& flows_;
};

} // namespace datasched::qos
