#pragma once
// The benchmarks of seed 003 §VI as flow patterns (each message its own single-flow
// ptask, qos/flows.hpp):
//   latency    osu_latency: rank 0 and rank 1 ping-pong one message of each size;
//              latency = elapsed / (2 x iterations) after `warmup` round trips.
//   bandwidth  osu_bw: rank 0 sends `window` messages back to back (one after the other,
//              as one queue pair does), rank 1 answers with an ack of ack_bytes;
//              bandwidth = size x window x iterations / elapsed after `warmup` windows.
//              Each message pays the route latency (real back-to-back sends overlap it),
//              which only matters for small messages.
//   stencil    AWP-ODC-like: per iteration every node computes compute_seconds, then
//              exchanges halo_bytes with each face neighbour of a non-periodic nx x ny x nz
//              node grid (both directions, all flows at once); the next iteration starts
//              when every exchange has ended (bulk-synchronous).
//   cg         NAS-CG-like: per iteration compute, then the transpose exchange: each node
//              sends exchange_bytes to every other node, all flows at once. (NPB CG's
//              row reductions and dot products stay inside a node with block rank
//              placement, so they cost no network time.)
// Compute is a sleep: the I/O thread and the MPI ranks use different cores (the paper
// maps them so), so no CPU interference is modelled.
#include <string>
#include <vector>

#include <simgrid/s4u/Host.hpp>

#include "qos/experiment.hpp"
#include "qos/flows.hpp"

namespace datasched::qos {

struct BenchmarkRow {
  double size        = 0; ///< latency/bandwidth: message size
  int iterations     = 0;
  double value       = 0; ///< latency (s) or bandwidth (B/s); runtime (s) for stencil/cg
  double compute     = 0; ///< stencil/cg: seconds in compute phases
  double communicate = 0; ///< stencil/cg: seconds in exchange phases
  double start       = 0;
  double end         = 0;
};

/// Runs the benchmark in the calling actor and returns one row per size (latency,
/// bandwidth) or one row (stencil, cg). `hosts` are resolved `benchmark.hosts`.
std::vector<BenchmarkRow> run_benchmark(const Benchmark& benchmark, const std::vector<simgrid::s4u::Host*>& hosts,
                                        FlowLauncher& flows);

/// Every directed pair (i, j) of `benchmark.hosts` indices that exchanges messages.
std::vector<std::pair<int, int>> benchmark_pairs(const Benchmark& benchmark);

/// The directed node pairs (i, j) of a halo exchange on a non-periodic nx x ny x nz grid,
/// node index x + nx (y + ny z): each face neighbour pair appears in both directions.
std::vector<std::pair<int, int>> stencil_pairs(const std::vector<int>& grid);

} // namespace datasched::qos
