#pragma once
// The HPL-like tightly coupled job: bulk-synchronous iterations. In each iteration every
// node computes its share (one rank thread per core, so SimGrid shares the node's cores
// between the ranks and any service thread running there: under ptask_L07 one parallel
// Exec per node whose entries are its cores, under cas01_cm02 one single-host Exec per
// core; simgrid_model.hpp), then all nodes wait for the slowest (the barrier), then each
// node sends its panel to the next node of the ring. An iteration therefore lasts as long
// as its slowest node: a service's work on any one node delays the whole job.
//
// With a memory resource per node (the "memory" node model, memory.hpp), every rank also
// moves hpl_bytes_per_flop x its flops through its node's memory, concurrently with its
// computation: a node's share alone lasts max(F/(C s), M/BW_m) with M = bytes per flop x F.
#include <string>
#include <vector>

#include <simgrid/forward.h>

#include "interference/experiment.hpp"
#include "interference/memory.hpp"
#include "interference/simgrid_model.hpp"

namespace datasched::interference {

struct IterationRecord {
  double start       = 0;
  double compute_end = 0; ///< the barrier: when the slowest node finished computing
  double end         = 0; ///< after the ring exchange
  int slowest_node   = 0; ///< index in the HPL host list of the node that finished last
};

struct HplStats {
  double start = 0;
  double end   = 0;
  std::vector<IterationRecord> iterations;
};

/// Runs the job in the calling actor (blocking until its last iteration ends).
/// `bytes_per_flop` is the memory traffic of a flop on the nodes `memories` has a resource of.
void run_hpl(const HplJob& job, const std::vector<simgrid::s4u::Host*>& hosts, SimgridModel model,
             double bytes_per_flop, const NodeMemories& memories, HplStats& stats);

/// The job's duration on idle nodes, communication aside: iterations x the slowest node's
/// max(flops per iteration / (cores x core speed), memory bytes per iteration / BW_m) (the
/// memory term only with a "memory" section).
double hpl_compute_time_alone(const HplJob& job, const NodeMemory& memory,
                              const std::vector<simgrid::s4u::Host*>& hosts);

} // namespace datasched::interference
