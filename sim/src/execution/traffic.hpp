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
// How (services/priority_arbiter.hpp, the one arbiter): fp gives IPC activities priority
// 1e6 and storage ones 1; ba/weights give an activity W_c / N, where N is the number of
// activities of its class on its likely bottleneck (the shared link it uses with the least
// bandwidth per activity using it), recomputed whenever an activity starts or ends. Exact
// when the activities sharing a link are all limited by it
// (tests/integration/storage/test_traffic_policies.py), an approximation when an activity
// crosses several contended links with different crowds.
//
// Sharing unit (--sharing): `activity` (default) starts each activity of a phase as one
// ptask, so all its flows through a link together get one share, as Batsim shares
// ptasks; `flow` starts each flow as its own single-flow ptask (and the computation as
// another), so flows share links one by one, as flow-level simulators do. The same
// rules then apply per flow. Flow mode costs more (one activity per flow): it is there
// to measure how much a conclusion depends on the sharing unit.
//
// Latency: a ptask pays its latency (its longest route's) before its flows start; a
// priority given meanwhile takes effect once it is paid (priority_arbiter.hpp).
#include <array>
#include <string>
#include <vector>

#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/Host.hpp>

#include "common/transfer.hpp"
#include "model/io_record.hpp"
#include "services/priority_arbiter.hpp"

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

/// The traffic policy on the one priority arbiter (services/priority_arbiter.hpp): classes
/// IPC and storage with the policy's weights, split among a class's activities under ba and
/// weights, not under fp.
class TrafficArbiter {
public:
  void configure(const TrafficPolicy& policy);
  const TrafficPolicy& policy() const { return policy_; }

  /// Registers a started activity and sets its priority (and, for ba/weights, updates
  /// the others'). No-op when the policy is none or the class is None.
  void started(const simgrid::s4u::ExecPtr& exec, TrafficClass traffic, const std::vector<simgrid::s4u::Host*>& hosts,
               const PairBytes& bytes)
  {
    if (traffic != TrafficClass::None)
      arbiter_.started(exec, static_cast<int>(traffic), hosts, bytes);
  }
  /// Forgets an activity that completed, timed out or was cancelled (idempotent).
  void ended(const simgrid::s4u::Exec* exec) { arbiter_.ended(exec); }

  size_t nb_running() const { return arbiter_.nb_running(); }

private:
  TrafficPolicy policy_;
  PriorityArbiter arbiter_;
};

/// The arbiter as the forwarding layer's transfer observer: its transfers (client to
/// forwarder, forwarder to data servers and back) are storage traffic.
class StorageTransfers final : public TransferObserver {
public:
  explicit StorageTransfers(TrafficArbiter& arbiter) : arbiter_(arbiter) {}
  void started(const simgrid::s4u::ExecPtr& exec, simgrid::s4u::Host* from, simgrid::s4u::Host* to,
               double bytes) override
  {
    arbiter_.started(exec, TrafficClass::Storage, {from, to}, PairBytes::from_flows({{0, 1, bytes}}));
  }
  void ended(const simgrid::s4u::Exec* exec) override { arbiter_.ended(exec); }

private:
  TrafficArbiter& arbiter_;
};

} // namespace datasched
