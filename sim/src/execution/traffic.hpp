#pragma once
// Traffic classes and their arbitration (seed 000 section 4.3; seed 003's IB service
// levels map onto the weights). SimGrid does the sharing: this file only sets each
// running activity's priority (Exec::update_priority), which the project's SimGrid build
// honours in the default ptask solver (simgrid/patches/0001: fair-bottleneck gives the
// activities limited by one link shares proportional to their priorities).
//
// Semantics, with W_c the weight of class c. The unit of sharing is the activity (a
// job's phase, a data mover's transfer): all its flows through a link together get its
// share of that link, whatever their number (as SimGrid's fair-bottleneck does without
// weights, and as Batsim does).
//   none, np    no classes: the activities limited by a link share it equally, whatever
//               their sizes (so every closed-form NP case of seed 000 holds).
//   ba:X        on a contended link the IPC activities get X % and the storage ones
//               100-X % together, each class's part split equally among its activities
//               there; a class alone on a link takes all of it (work-conserving).
//   fp          IPC strictly first (weight 1e6 against 1); storage uses what IPC leaves.
//   weights:ipc=A,storage=B   like ba with parts A/(A+B) and B/(A+B).
// How: fp gives IPC activities priority 1e6 and storage ones 1; ba/weights give an
// activity W_c / N, where N is the number of activities of its class on its likely
// bottleneck (the shared link it uses with the least bandwidth per activity using it),
// recomputed whenever an activity starts or ends. SimGrid takes one priority per
// activity, not one per activity and link, so this is exact when the activities sharing
// a link are all limited by it (tests/integration/storage/test_traffic_policies.py) and
// an approximation when an activity crosses several contended links with different
// crowds.
//
// Sharing unit (--sharing): `activity` (default) starts each activity of a phase as one
// ptask, so all its flows through a link together get one share, as Batsim shares
// ptasks; `flow` starts each flow as its own single-flow ptask (and the computation as
// another), so flows share links one by one, as flow-level simulators do. The same
// rules then apply per flow. Flow mode costs more (one activity per flow): it is there
// to measure how much a conclusion depends on the sharing unit.
//
// Latency: a ptask pays its latency (its longest route's) before its flows start; a
// priority given meanwhile takes effect once it is paid (simgrid/patches/0003; SimGrid
// 3.32 itself reset it to 1 then, and let a priority given during the latency skip it).
// So priorities are set at start and on every change, with no wake-up for the latency.
#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include "common/transfer.hpp"
#include "model/host_hashes.hpp"
#include "model/io_record.hpp"

namespace datasched {

struct TrafficPolicy {
  enum class Kind { None, Np, Ba, Fp, Weights };
  Kind kind = Kind::None;
  std::array<double, kNbTrafficClasses> weight{1, 1, 1}; ///< indexed by TrafficClass
  std::string text = "none";

  /// Parses none | np | ba:X (0 < X < 100) | fp | weights:ipc=A,storage=B (A, B > 0).
  /// Throws InputError naming the option.
  static TrafficPolicy parse(const std::string& text);
  /// Whether activities get priorities.
  bool active() const { return kind != Kind::None && kind != Kind::Np; }
  bool counts_class_members() const { return kind == Kind::Ba || kind == Kind::Weights; }
};

/// Keeps the priority of every running activity that carries a traffic class.
///
/// Re-entrancy: setting a priority is a SimGrid simcall, during which other actors run
/// and may start or end activities (calling started()/ended() themselves). So the new
/// priorities are first computed for every activity without any simcall, then applied
/// from a snapshot, each looked up again just before it is applied (it may have ended
/// meanwhile, and the latest computed value is the one applied).
class TrafficArbiter {
public:
  void configure(const TrafficPolicy& policy) { policy_ = policy; }
  const TrafficPolicy& policy() const { return policy_; }

  /// Registers a started activity and sets its priority (and, for ba/weights, updates
  /// the others'). No-op when the policy is none or the class is None.
  void started(const simgrid::s4u::ExecPtr& exec, TrafficClass traffic, const std::vector<simgrid::s4u::Host*>& hosts,
               const std::vector<double>& bytes);
  /// Forgets an activity that completed, timed out or was cancelled (idempotent).
  void ended(const simgrid::s4u::Exec* exec);

  size_t nb_running() const { return running_.size(); }

private:
  struct Running {
    simgrid::s4u::ExecPtr exec;
    TrafficClass traffic = TrafficClass::None;
    std::uint64_t order  = 0; ///< start order: updates are applied in it (deterministic)
    /// the shared links it uses (only for ba/weights), in a deterministic order
    std::vector<const simgrid::s4u::Link*> links;
    double wanted  = 1; ///< the priority it should have now
    double applied = 1; ///< the priority set in SimGrid
  };
  using Route = std::vector<simgrid::s4u::Link*>;

  /// The links from `src` to `dst`, routed once per pair.
  const Route& route(simgrid::s4u::Host* src, simgrid::s4u::Host* dst);
  /// The non-FATPIPE links used by the flows with bytes > 0, each once, sorted by name.
  std::vector<const simgrid::s4u::Link*> shared_links(const std::vector<simgrid::s4u::Host*>& hosts,
                                                      const std::vector<double>& bytes);
  /// Adds (sign +1) or removes (-1) `r` from the counts and user lists of its links.
  void count(const Running& r, double sign);
  /// The running activities that use any of `links` (their priorities depend on the
  /// counts there: only they can change when an activity on these links starts or ends).
  std::vector<const simgrid::s4u::Exec*> users_of(const std::vector<const simgrid::s4u::Link*>& links) const;
  /// The priority `r` should have under the current counts (no simcall).
  double wanted_priority(const Running& r);
  /// Recomputes the wanted priority of each of `which` still running, then applies the
  /// changed ones in start order.
  void update(const std::vector<const simgrid::s4u::Exec*>& which);

  TrafficPolicy policy_;
  std::unordered_map<const simgrid::s4u::Exec*, Running> running_;
  std::uint64_t started_ = 0;
  /// per shared link, the number of running units (activities) of each class that use it
  std::unordered_map<const simgrid::s4u::Link*, std::array<double, kNbTrafficClasses>> units_on_link_;
  /// per shared link, the running activities that use it (only for ba/weights)
  std::unordered_map<const simgrid::s4u::Link*, std::unordered_set<const simgrid::s4u::Exec*>> users_on_link_;
  std::unordered_map<std::pair<const void*, const void*>, Route, PointerPairHash> routes_;
  /// shared_links() of the host lists used with every pair (all-to-all phases)
  std::unordered_map<std::vector<simgrid::s4u::Host*>, std::vector<const simgrid::s4u::Link*>, HostListHash>
      all_pairs_links_;
};

/// The arbiter as the forwarding layer's transfer observer: its transfers (client to
/// forwarder, forwarder to data servers and back) are storage traffic.
class StorageTransfers final : public TransferObserver {
public:
  explicit StorageTransfers(TrafficArbiter& arbiter) : arbiter_(arbiter) {}
  void started(const simgrid::s4u::ExecPtr& exec, simgrid::s4u::Host* from, simgrid::s4u::Host* to,
               double bytes) override
  {
    arbiter_.started(exec, TrafficClass::Storage, {from, to}, {0, bytes, 0, 0});
  }
  void ended(const simgrid::s4u::Exec* exec) override { arbiter_.ended(exec); }

private:
  TrafficArbiter& arbiter_;
};

} // namespace datasched
