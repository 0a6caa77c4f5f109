#pragma once
// Every network transfer of the QoS mode is its own single-flow SimGrid ptask (two hosts,
// bytes only from the first to the second), weighted by its service level.
//
// Why ptasks and not s4u::Comm: in SimGrid 3.32 only a ptask Exec honours a priority, and
// only under the BMF solver and when set with update_priority() after start() (DESIGN.md).
// Why one flow per activity: BMF aborts on activities with several flows on one link and
// is dense in the number of activities (execution/traffic.hpp); an activity with a single
// flow has one flow per link by construction, and this mode keeps few activities at once
// (FlowLauncher counts them: max_concurrent in <prefix>_summary.csv).
//
// A ptask's flow pays its route's latency (the sum of its links' latencies, ptask_L07)
// before moving bytes, so a message of S bytes alone on a route of bandwidth B takes
// sum(latencies) + S / B.
#include <cstdint>
#include <vector>

#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/Host.hpp>

#include "qos/service_levels.hpp"

namespace datasched::qos {

class FlowLauncher {
public:
  explicit FlowLauncher(const ArbitrationTable& table) : table_(table) {}

  /// Starts `bytes` from `src` to `dst` on `sl` (already validated) and returns the activity.
  simgrid::s4u::ExecPtr start(simgrid::s4u::Host* src, simgrid::s4u::Host* dst, double bytes, int sl);
  /// Starts a flow with an explicit priority (traffic outside the IB fabric: the drain).
  simgrid::s4u::ExecPtr start_with_priority(simgrid::s4u::Host* src, simgrid::s4u::Host* dst, double bytes,
                                            double priority);
  /// Waits for one activity returned by start (and counts it as ended).
  void wait(const simgrid::s4u::ExecPtr& flow);
  /// Waits for all of them.
  void wait_all(const std::vector<simgrid::s4u::ExecPtr>& flows);
  /// start + wait.
  void transfer(simgrid::s4u::Host* src, simgrid::s4u::Host* dst, double bytes, int sl) { wait(start(src, dst, bytes, sl)); }

  std::uint64_t started() const { return started_; }
  int max_concurrent() const { return max_running_; }

private:
  const ArbitrationTable& table_;
  std::uint64_t started_ = 0;
  int running_           = 0;
  int max_running_       = 0;
};

} // namespace datasched::qos
