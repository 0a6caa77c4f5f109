#pragma once
// The idle load of a storage daemon (heartbeats, polling threads): `idle_flops_per_second` (L)
// flops of one core per second on the daemon's host, in one of two forms (DaemonCosts::idle_form).
//
//   bursts  one burst of L * P flops every P seconds (P = idle_period) from the daemon's phase on;
//           a burst that overran its period (a busy host) delays the next one, which then starts
//           at once. Phases: 0 for every daemon ("aligned", the synchronised noise a co-scheduled
//           OS gives) or uniform in [0, P) per daemon from one seeded generator ("random"), so
//           bursts of different nodes do not line up. An event per daemon and period.
//   steady  one execution capped at L flops per second (s4u::Exec::set_bound; SimGrid patch 0009
//           lets ptask_L07 honour it) from time 0 to the end of the run: the bursts' time average
//           without their events, and without their timing. It lasts kIdleHorizon simulated
//           seconds, so a run that deadlocks still fails (then) instead of running on.
//
// Both run as daemon actors on the host: they end with the run. The seed-004 scenario runs bursts
// (scenarios/interference.cpp), the node daemons of scheduling runs either (node_daemons.hpp).
// When the form matters: a bulk-synchronous job spread over nodes whose bursts do not line up is
// slowed on one node or another most of the time, where the steady form slows every node a little
// (closed forms: tests/integration/storage/test_node_daemons.py).
#include <cstdint>
#include <string>
#include <vector>

#include <simgrid/forward.h>

#include "services/daemon_costs.hpp"

namespace datasched {

/// The simulated seconds a steady idle load lasts: longer than any run (about 32 years).
constexpr double kIdleHorizon = 1e9;

/// The first burst's moment of each of `daemons` daemons, in order: 0 for every one when the
/// phases are aligned, else uniform in [0, idle_period) from one std::mt19937_64 seeded with
/// `seed` (one draw per daemon, aligned or not). Empty for the steady form.
std::vector<double> idle_phases(std::size_t daemons, const DaemonCosts& costs, std::uint64_t seed);

/// Starts one daemon's idle load on `host` (nothing when L is 0) as a daemon actor named
/// `actor_name`. `burst_flops_done` (may be null) adds the flops of each burst that completes.
void start_idle_load(simgrid::s4u::Host* host, const std::string& actor_name, const DaemonCosts& costs, double phase,
                     double* burst_flops_done);

} // namespace datasched
