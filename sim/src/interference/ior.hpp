#pragma once
// The IOR-like I/O job (seed 004 Table III: file per process, small synchronous writes,
// for as long as the compute job runs). Every process writes its own file sequentially,
// one request outstanding: request (with its data) over the network to the storage target
// holding the current chunk, the target's CPU work and disk write, a reply. Files are
// striped in `chunk_size` chunks over `stripe_count` targets: chunk k of file f is on
// target (f + k mod stripe_count) mod S. Each file's metadata service is f mod M; the
// file's creation is one metadata operation, and each write causes
// `metadata_ops_per_request` more (accumulated, whole operations sent when due).
//
// `requests_per_batch` consecutive requests of a process (never crossing a chunk) are
// simulated as one: one message of their bytes, one CPU activity and one disk write of
// their summed cost, and a pause of (batch - 1) route round trips, the latency the merged
// requests would have paid. batch = 1 is exact; larger batches are cheaper to simulate
// and keep every byte, flop and latency, but not the interleaving of single requests.
#include <cstdint>
#include <memory>
#include <vector>

#include <simgrid/forward.h>

#include "interference/experiment.hpp"
#include "services/storage_services.hpp"

namespace datasched::interference {

struct IorStats {
  std::uint64_t requests = 0; ///< completed writes
  std::uint64_t bytes    = 0;
};

/// Starts one daemon actor per process (they run until the simulation ends, or until
/// each has written `requests_per_process` requests).
void start_ior(const Experiment& experiment, const std::vector<simgrid::s4u::Host*>& hosts,
               std::vector<std::unique_ptr<Service>>& storage, std::vector<std::unique_ptr<Service>>& metadata,
               IorStats& stats);

} // namespace datasched::interference
