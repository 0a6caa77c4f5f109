#pragma once
// Calibration of the approximate all-to-all (engine option --ipc-fanout, see
// execution/phase_plan.hpp): the sampled activity's bytes are scaled so that, alone on
// the platform, it takes exactly as long as the exact all-to-all of the same nodes,
// i.e. its most loaded link (load / bandwidth, a FATPIPE counting its largest flow)
// carries the exact pattern's. SimGrid still computes every share; this only sets the
// amounts of one activity, from routes and bandwidths. Computed once per node list
// (a job's communicate phases all reuse it), O(n^2 x route length); the routes it needs
// are the ones RouteChecker must check for this list, so they are checked on the way, and
// each pair is routed once per run (model/route_memo.hpp: other jobs' lists share most
// pairs), its links numbered so that loads are summed in vector slots.
#include <unordered_map>
#include <vector>

#include <simgrid/s4u/Host.hpp>

#include "execution/phase_plan.hpp"
#include "model/host_hashes.hpp"
#include "model/platform_check.hpp"

namespace datasched {

class AllToAllCalibration {
public:
  /// Computes the factor for `sampled` (an approximate all-to-all planned with
  /// exact_pair_bytes > 0 over `hosts`, the resources its `hosts` ids name, in the same
  /// order) unless known, routing every pair of `hosts` through `routes` (which then
  /// trusts the list). Returns the first unusable route's problem, or an empty string.
  std::string calibrate(const ActivitySpec& sampled, const std::vector<simgrid::s4u::Host*>& hosts,
                        RouteChecker& routes);

  /// The factor calibrate() found for `sampled`'s node list.
  double scale(const ActivitySpec& sampled) const;

private:
  /// By node list: both loads are proportional to the phase's bytes, so the factor is not.
  /// Hashed: every launch of a sampled phase looks its list up twice, and an ordered map
  /// compared 500-id lists element by element.
  std::unordered_map<std::vector<int>, double, IdListHash> cache_;
};

} // namespace datasched
