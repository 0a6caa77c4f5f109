#pragma once
// SET_RESOURCE_STATE, as Batsim 4.2.1 carries it out. A change between computation
// pstates is immediate. Switching a host to a sleep pstate, or out of one, is done by an
// actor on that host: it puts the host in the transition's virtual pstate, computes one
// flop there (so the virtual pstate's speed gives the switch's duration and its wattage
// the switch's energy, through SimGrid), sets the target pstate and tells the server.
// The decision process hears of a request (RESOURCE_STATE_CHANGED) once every host of
// it has reached the target.
#include <list>
#include <map>
#include <set>

#include "model/interval_set.hpp"

namespace datasched {

struct Context;

/// The requests whose hosts are still switching, by target pstate, oldest first.
class PendingSwitches {
public:
  void add(const IntervalSet& machines, int target_pstate);
  /// Marks `machine` as having reached `target_pstate`, in the oldest request to that
  /// pstate that still waits for it. When that request is complete, sets `all` to its
  /// hosts and returns true. Returns false otherwise (and when no request waits for it).
  bool done(int machine, int target_pstate, IntervalSet& all);

private:
  struct Request {
    IntervalSet all;
    std::set<int> waiting;
  };
  std::map<int, std::list<Request>> by_target_;
};

/// The switching actor (created on the host being switched): `on` switches it out of
/// its sleep pstate into the computation pstate `target_pstate`, otherwise into the
/// sleep pstate `target_pstate`. Ends with a Switched message to the server.
void power_switch_actor(Context* context, int machine_id, int target_pstate, bool on);

} // namespace datasched
