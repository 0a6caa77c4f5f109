#pragma once
// Class-weighted sharing of links, on SimGrid's solver: the one place that sets running
// activities' priorities (Exec::update_priority), which the project's SimGrid build honours
// in the ptask solver (simgrid/patches/0001: fair-bottleneck gives the activities limited by
// one link shares proportional to their priorities). Two users: the scheduling runs' traffic
// policies (execution/traffic.hpp: IPC against storage) and seed 003's InfiniBand virtual
// lanes (qos/flows.hpp: the VL weights of one arbitration table).
//
// Every activity belongs to a class c with a weight W_c. With `split` (a class's part of a
// link is shared by its activities there, as IB serves virtual lanes and not flows, and as
// seed 000's BA gives the IPC class X % together), an activity's priority is W_c / N, N the
// number of running activities of its class on its likely bottleneck: the shared (non-
// FATPIPE) link it uses with the least bandwidth per activity using it (on a tie, the more
// crowded one for its class), recomputed whenever an activity starts or ends. Without
// `split` it is W_c. SimGrid takes one priority per activity, not one per activity and
// link, so the split is exact when the activities sharing a link are all limited by it and
// an approximation when an activity crosses several contended links with different crowds.
//
// Latency: a priority given while an activity pays its latency takes effect once it is
// paid (simgrid/patches/0003; SimGrid 3.32 itself reset it to 1 then), so priorities are
// set at start and on every change, with no wake-up for the latency.
#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include "common/pair_bytes.hpp"
#include "model/host_hashes.hpp"

namespace datasched {

/// Keeps the priority of every running activity of a weighted class.
///
/// Re-entrancy: setting a priority is a SimGrid simcall, during which other actors run
/// and may start or end activities (calling started()/ended() themselves). So the new
/// priorities are first computed for every activity without any simcall, then applied
/// from a snapshot, each looked up again just before it is applied (it may have ended
/// meanwhile, and the latest computed value is the one applied).
class PriorityArbiter {
public:
  /// `weights[c]`: class c's weight (> 0); `split`: see the file comment. No class: inactive.
  void configure(std::vector<double> weights, bool split);
  bool active() const { return !weights_.empty(); }

  /// Registers a started activity of class `traffic_class` (hosts and the bytes between
  /// them, as the ptask's) and sets its priority, and, with `split`, updates the others'.
  /// No-op when inactive.
  void started(const simgrid::s4u::ExecPtr& exec, int traffic_class, const std::vector<simgrid::s4u::Host*>& hosts,
               const PairBytes& bytes);
  /// Forgets an activity that completed, timed out or was cancelled (idempotent).
  void ended(const simgrid::s4u::Exec* exec);

  size_t nb_running() const { return running_.size(); }

private:
  struct Running {
    simgrid::s4u::ExecPtr exec;
    int traffic_class   = 0;
    std::uint64_t order = 0; ///< start order: updates are applied in it (deterministic)
    /// the shared links it uses (only with split), in a deterministic order
    std::vector<const simgrid::s4u::Link*> links;
    double wanted  = 1; ///< the priority it should have now
    double applied = 1; ///< the priority set in SimGrid
  };
  using Route = std::vector<simgrid::s4u::Link*>;

  /// The links from `src` to `dst`, routed once per pair.
  const Route& route(simgrid::s4u::Host* src, simgrid::s4u::Host* dst);
  /// The non-FATPIPE links used by the flows, each once, sorted by name.
  std::vector<const simgrid::s4u::Link*> shared_links(const std::vector<simgrid::s4u::Host*>& hosts,
                                                      const PairBytes& bytes);
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

  std::vector<double> weights_;
  bool split_ = false;
  std::unordered_map<const simgrid::s4u::Exec*, Running> running_;
  std::uint64_t started_ = 0;
  /// per shared link, the number of running activities of each class that use it
  std::unordered_map<const simgrid::s4u::Link*, std::vector<double>> units_on_link_;
  /// per shared link, the running activities that use it (only with split)
  std::unordered_map<const simgrid::s4u::Link*, std::unordered_set<const simgrid::s4u::Exec*>> users_on_link_;
  std::unordered_map<std::pair<const void*, const void*>, Route, PointerPairHash> routes_;
  /// shared_links() of the host lists used with every pair (all-to-all phases)
  std::unordered_map<std::vector<simgrid::s4u::Host*>, std::vector<const simgrid::s4u::Link*>, HostListHash>
      all_pairs_links_;
};

} // namespace datasched
