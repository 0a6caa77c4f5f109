#pragma once
// Turns one phase of a `datasched_phases` profile into the SimGrid activities that
// run it, once the job's hosts and storage devices are known. Pure functions over
// resource ids (no SimGrid calls), so the byte accounting is unit-tested directly.
//
// A phase's activities all start together; the phase ends when the slowest ends. Each
// activity is a ptask whose flows go to or from device *endpoint hosts*, so a remote
// NVM read is one flow Y-nvm -> X over the device link and the network path together
// (docs/design.md, storage coupling requirement):
//
//   tier        flow (read; a write reverses it)          class
//   dram        X-dram -> X                                 storage
//   local_nvm   X-nvm  -> X                                 storage
//   remote_nvm  Y-nvm  -> X   (Y one of the job's devices)  storage
//   san         io-J   -> X-dram (striped over the servers) storage
//               (with --forwarding-layer: none here, execution/forwarded_io.hpp runs it)
//   stage_in    io-J   -> Y-nvm  (before phase 0)           storage
//   stage_out   Y-nvm  -> io-J   (after the last phase)     storage
//   network     X -> Z, all-to-all among active nodes       ipc
//   compute     flops on the active nodes                   (none)
//   distribute  X -> W, after X's read (io_distribution)     ipc
//   gather      W -> X, before X's write (io_distribution)   ipc
//
// I/O distribution (profile `io_distribution: per_task`; seed 000 5.1: I/O tasks read the
// data "and distribute it to the rest of the computing tasks"): each I/O task X gets its own
// tier activities; a read task then sends each non-I/O active node W amount / n bytes (n
// active nodes: every task ends with an equal part of the phase's data), started when X's
// own read has ended, so X's distribution (IPC) overlaps other tasks' reads (storage); a
// write task first gathers amount / n from each W, then writes. The phase still ends when
// its last activity ends. With `none` (default) the I/O tasks' tiers are one activity each.
//
// Cost and task groups (engine option --io-groups G, default 0 = per task): per-task
// activities make the solver's work per phase grow with the square of the I/O tasks (every
// activity's end re-solves the others); a 600-node seed-000 workload did not finish in
// hours. With G > 0, consecutive I/O tasks form G groups (task i in group floor(i G / m)),
// each with one activity per tier and one distribution, in the same causal order: a group
// distributes when all its tasks have read. G >= m is the per-task plan; G = 1 reads
// everything, then distributes everything. Tested on both ends by closed forms.
//
// Granularity: one activity per tier of a phase (and one per communicate phase). A
// flow inside a ptask progresses at its ptask's rate, and SimGrid's default solver
// gives each *activity* limited by a link an equal share of it, so a large job's
// exchange counts as one share on a contended link. Finer activities (one per sending
// node, one per I/O task) would be closer to flow-level sharing but were measured 15x
// slower on 8 seed-000 applications (694 s against 46 s, same run times within 0.1 s):
// the solver's work per event grows with the number of activities.
//
// Cost: SimGrid 3.32 itself built a ptask in O(pairs x route length x (hosts + links))
// (every pair routed three times, each link's element found by a linear search), so an
// exact all-to-all of n nodes cost O(n^3 x route length). The project's SimGrid build
// (simgrid/patches/0002) routes each pair once and expands each link once: O(pairs x
// route length), i.e. O(n^2 x route length) for an all-to-all; and it keeps the routes
// per host list (patch 0004), so a job's later phases on the same executors read their
// routes instead of routing again. A plan's bytes are the pairs that communicate
// (common/pair_bytes.hpp), handed to SimGrid in that form (patch 0007), so a task in which
// each node talks to a few others (I/O to a few devices, a sampled all-to-all) costs its
// pairs, not a zeroed n x n matrix.
//
// Approximate all-to-all (engine option --ipc-fanout D, default 0 = exact): a
// communicate phase of n > D + 1 nodes becomes one activity in which active node i
// sends bytes / D to each of the D nodes at offsets s_k = 1 + floor((2k+1)(n-1)/(2D)),
// k < D, in allocation order (node (i + s_k) mod n): D shifts spread evenly over the
// n - 1 of the exact pattern, symmetric up to rounding, so every node sends and
// receives `bytes`. The runner then scales all its flows by one factor so that, alone,
// the activity takes as long as the exact pattern (execution/ipc_sampling.hpp); under
// contention its loads are a sample of the exact ones, so shares differ a little.
// Measured on bench/storage_model (b) with D = 32: 7.7x cheaper, per-job run times
// within 0.02 % (workloads/README.md section 3). Cost falls by about n / D.
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/pair_bytes.hpp"
#include "model/io_record.hpp"
#include "model/phase_profile.hpp"
#include "model/storage_endpoints.hpp"

namespace datasched {

/// One ptask: hosts are resource ids; bytes is row-major hosts x hosts (empty: none).
struct ActivitySpec {
  Tier tier            = Tier::Compute;
  TrafficClass traffic = TrafficClass::None;
  std::vector<int> hosts;
  std::vector<double> flops;
  PairBytes bytes; ///< between indices of `hosts`
  double total_bytes = 0;

  /// An approximate all-to-all (ipc_fanout): the exact pattern's bytes per pair; else 0.
  double exact_pair_bytes = 0;

  /// Indices (in the same step's list, all smaller than this one's) of the activities that
  /// must end before this one starts: INRFlow's causal order between flows (io_distribution).
  std::vector<size_t> after;
};

/// The devices a running job's data lives on.
struct StorageAssignment {
  StorageAllocation allocation = StorageAllocation::Internal;
  std::vector<int> devices; ///< NVM endpoint ids, or I/O server ids for san
  AccessType access = AccessType::Disperse;
};

/// Chooses where the job's data lives. Allocation and access: the decision's, else the
/// profile's. Devices: the decision's, else derived from the allocation (cache: every
/// executor's NVM; internal: the NVMs of the first stg_k executors; external: the NVMs
/// of the compute nodes that follow the allocation in id order, cyclically, skipping
/// allocated ones, then, if stg_k exceeds them, the allocation's own; san: the first
/// san_k I/O servers). Also checks that the platform has what the assignment needs
/// (I/O servers, node NVM, node DRAM): a policy may override the profile, so this is
/// known only when the job starts.
/// Throws InputError (without the job id: the caller adds it) when impossible.
StorageAssignment resolve_storage(const PhaseProfile& profile, const std::vector<int>& executors,
                                  const std::optional<RequestedStorage>& requested, const StorageEndpoints& endpoints,
                                  int nb_compute);

/// The activities of one phase (possibly none: a phase of zero work takes no time).
/// ipc_fanout > 0 approximates a communicate phase of n > ipc_fanout + 1 nodes (see
/// "Approximate all-to-all" above); 0 plans the exact all-to-all. io_groups > 0 runs the
/// I/O of an `io_distribution: per_task` phase in that many groups of consecutive I/O tasks
/// (see "I/O distribution" above); 0 plans one group per I/O task.
std::vector<ActivitySpec> plan_phase(const PhaseProfile& profile, const Phase& phase, const std::vector<int>& executors,
                                     const StorageAssignment& storage, const StorageEndpoints& endpoints,
                                     int ipc_fanout = 0, int io_groups = 0);

/// The stage-in (before phase 0) or stage-out (after the last phase) activity, if the
/// descriptor asks for one: stage_{in,out}_bytes split evenly over the data devices
/// (the I/O tasks' own NVMs for cache/local access, else the assigned devices), each
/// device's share striped over the first san_k I/O servers. None under san: the data
/// already lives on central storage.
std::vector<ActivitySpec> plan_stage(bool stage_in, const PhaseProfile& profile, const std::vector<int>& executors,
                                     const StorageAssignment& storage, const StorageEndpoints& endpoints);

/// Accumulates flows and flops over resource ids and builds the dense ptask.
class ActivityBuilder {
public:
  ActivityBuilder(Tier tier, TrafficClass traffic) : tier_(tier), traffic_(traffic) {}
  void add_flops(int host, double flops);
  void add_bytes(int src, int dst, double bytes);
  bool empty() const { return flops_total_ <= 0 && transfers_.empty(); }
  ActivitySpec build() const;

private:
  size_t index_of(int host);

  Tier tier_;
  TrafficClass traffic_;
  std::vector<int> hosts_;
  /// Index in hosts_ of each resource id: a table for the ids below kTableIds (every
  /// platform of the seeds: a phase of 500 nodes looks up a thousand ids, and a hash map
  /// was 3 % of a paper-scale run), a map beyond (a table would cost its size per phase).
  static constexpr int kTableIds = 4096;
  std::vector<std::uint32_t> index_table_;
  std::unordered_map<int, size_t> index_;
  std::vector<double> flops_;
  double flops_total_ = 0;
  std::vector<PairBytes::Pair> transfers_;
};

} // namespace datasched
