#pragma once
// Traffic classes and their arbitration (seed 000 section 4.3; seed 003's IB service
// levels map onto the weights). SimGrid does the sharing: this file only sets each
// running activity's priority (ptask Exec::update_priority under the BMF solver, the
// only combination where SimGrid 3.32 honours ptask weights; DESIGN.md).
//
// Semantics, with W_c the weight of class c:
//   none, np    SimGrid's default ptask solver (fair_bottleneck), as Batsim: the
//               activities limited by a link share it equally, whatever their sizes
//               (so every closed-form NP case of seed 000 holds). No classes.
//   ba:X        on a contended link the IPC flows get X % and the storage flows 100-X %
//               together, each class's part split equally among its flows there; a
//               class alone on a link takes all of it (work-conserving).
//   fp          IPC strictly first; storage uses what IPC leaves (work-conserving).
//   weights:ipc=A,storage=B   like ba with parts A/(A+B) and B/(A+B).
// How (SimGrid 3.32, src/kernel/lmm/bmf.cpp): ba, fp and weights switch to the BMF
// solver, the only one that honours ptask priorities. BMF gives the activities limited
// by one link equal values of priority^-1 x (their largest flow on it) x (their rate),
// so each flow's bandwidth there is proportional to its activity's priority. fp gives
// IPC 1e6; ba/weights give an activity W_c / N, where N is the number of flows of its
// class on its most crowded link (unequal flows count sum/max), recomputed whenever an
// activity starts or ends. Exact when the flows sharing a link are all limited by it
// (tests/integration/storage: seed 000 Fig. 4).
//
// Latency (SimGrid 3.32, src/surf/ptask_L07.cpp): a ptask first pays its latency (the
// longest route's, among its flows) with its sharing penalty at 0, and when that is over
// L07 sets the penalty to 1, discarding any priority given before; a priority given
// during the latency also lets the flows start without paying it. So a priority is
// applied only once the activity's latency is over: the worker waiting on the activity
// wakes then (next_due / settle) and the arbiter sets it. In between (the latency, plus
// a nanosecond so that SimGrid's own reset has happened) nothing flows anyway.
//
// KNOWN LIMITATION (why ba/fp/weights are experimental): SimGrid 3.32's BMF picks each
// activity's bottleneck by fair share / largest flow, so an activity with several flows
// on one link (all-to-all phases, striped SAN I/O) can be given a link that is not its
// bottleneck; BMF then finds no valid allocation and aborts the process. The engine
// turns that abort into a clear error (simulation.cpp). Unchanged in SimGrid's master.
// It also aborts when ptasks carry L07's TCP-gamma bound (gamma / (2 x latency x bytes),
// set once a latency is paid) close to their share: seen with Fig. 4 at 1 ms on the
// shared link, not at 0.1 ms (tests/integration/storage/test_closed_form.py).
#include <array>
#include <string>
#include <unordered_map>
#include <vector>

#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

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
  /// Whether activities get priorities (and the engine runs SimGrid's BMF solver).
  bool active() const { return kind != Kind::None && kind != Kind::Np; }
  bool counts_class_members() const { return kind == Kind::Ba || kind == Kind::Weights; }
};

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

  /// The earliest date at which one of `execs` finishes paying its latency with a
  /// priority still to set (+infinity if none): its waiter must wake then and settle().
  double next_due(const std::vector<simgrid::s4u::ExecPtr>& execs) const;
  /// Sets the priorities that were waiting for their activity's latency to be paid.
  void settle();

  size_t nb_running() const { return running_.size(); }

private:
  struct Running {
    simgrid::s4u::ExecPtr exec;
    TrafficClass traffic = TrafficClass::None;
    /// (shared link, equivalent number of flows on it); only for ba/weights
    std::vector<std::pair<const simgrid::s4u::Link*, double>> links;
    double priority   = 1;    ///< as set in SimGrid
    double ready_at   = 0;    ///< when its latency is paid (SimGrid keeps priorities after)
    bool latency_paid = true; ///< false until the waiter's settle() after ready_at
  };
  struct Route {
    std::vector<simgrid::s4u::Link*> links;
    double latency = 0;
  };

  const Route& route(simgrid::s4u::Host* src, simgrid::s4u::Host* dst);
  void count(const Running& r, double sign);
  void apply_priority(Running& r);
  static double due_date(const Running& r);

  TrafficPolicy policy_;
  std::vector<Running> running_; ///< in start order (deterministic updates)
  std::unordered_map<const simgrid::s4u::Link*, std::array<double, kNbTrafficClasses>> flows_on_link_;
  struct PairHash {
    size_t operator()(const std::pair<const void*, const void*>& p) const
    {
      return std::hash<const void*>()(p.first) * 31 + std::hash<const void*>()(p.second);
    }
  };
  std::unordered_map<std::pair<const void*, const void*>, Route, PairHash> routes_;
};

} // namespace datasched
