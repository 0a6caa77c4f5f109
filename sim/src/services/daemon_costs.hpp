#pragma once
// The CPU cost of storage services (seed 004), shared by the interference scenario
// (interference/) and the node storage daemons of scheduling runs (node_daemons.hpp). A host that runs an object storage or a
// metadata service spends CPU on it; that work is a SimGrid Exec on the host, so it
// competes with whatever else computes there (SimGrid shares the CPU). The paper gives
// no figure for any of these costs: they are parameters, and the seed-004 artifact
// sweeps them (paper-artifacts/seed004-interference/).
//
//   storage request of r requests and b bytes:  r * flops_per_request + b * flops_per_byte
//   metadata operations, m of them:            m * flops_per_metadata_op
//   idle, per service:                         idle_flops_per_second, run as one burst of
//                                              idle_flops_per_second * idle_period flops
//                                              every idle_period seconds (heartbeats,
//                                              polling threads), at a seeded random phase
//                                              per service ("random") or at 0, P, 2P...
//                                              on every service ("aligned"), or steadily
//                                              (services/idle_load.hpp says how and when
//                                              each form matters)
//
// Flops are those of one core of the host (a service thread runs on one core at a time).
#include <cstdint>

namespace datasched {

class Fields;

/// How a service's idle load runs (services/idle_load.hpp).
enum class IdleForm {
  Bursts, ///< idle_flops_per_second * idle_period flops every idle_period seconds
  Steady, ///< one execution capped at idle_flops_per_second for the whole run
};

struct DaemonCosts {
  double flops_per_byte        = 0;
  double flops_per_request     = 0;
  double flops_per_metadata_op = 0;
  double idle_flops_per_second = 0;
  double idle_period           = 1;     ///< seconds between idle bursts (> 0)
  bool idle_aligned            = false; ///< every service bursts at 0, P, 2P... (else seeded phases)
  IdleForm idle_form           = IdleForm::Bursts;
};

/// Reads the costs from a JSON object's fields, in this order: flops_per_byte,
/// flops_per_request, flops_per_metadata_op (only `with_metadata`: services that have no
/// metadata operations refuse the key as unknown), idle_flops_per_second, idle_period,
/// idle_phase. The idle load runs in bursts when `idle_period` is given, else in `idle_form`
/// (bursts every second, or steady; `idle_phase` without a period is then an error). Every
/// value is checked (InputError naming the field); the caller finishes the object (unknown keys).
DaemonCosts read_daemon_costs(Fields& fields, bool with_metadata, IdleForm idle_form);

/// Flops a storage service spends on `requests` requests carrying `bytes` bytes.
double storage_work(const DaemonCosts& costs, std::uint64_t requests, std::uint64_t bytes);

/// Flops a metadata service spends on `operations` operations.
double metadata_work(const DaemonCosts& costs, double operations);

/// Flops of one idle burst (one every idle_period seconds).
double idle_burst(const DaemonCosts& costs);

} // namespace datasched
