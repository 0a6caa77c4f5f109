#pragma once
// The storage-daemon interference experiment (seed 004, on-demand file systems such as
// BeeOND): which hosts run the tightly coupled HPL-like job, which run the IOR-like I/O
// job, which host the storage services (object storage targets, metadata), what the
// services cost in CPU, read from a JSON file. The schema is documented in
// sim/src/interference/README.md; unknown keys are errors and every error names the
// file and the field (InputError).
//
// Hosts are given by name: the engine knows nothing of "matching BeeOND" or "Lustre";
// those configurations (and the placement policies) are host lists written by the
// Python side (datasched/analysis/seed004_interference.py, schedulers/storage_services.py).
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "interference/simgrid_model.hpp"
#include "services/daemon_costs.hpp"

namespace datasched::interference {

/// The HPL-like job: `iterations` times, every node computes `flops_per_iteration`
/// (spread over its cores), all nodes wait for the slowest (a barrier), then each node
/// sends `bytes_per_iteration` to the next node of the list (a ring).
struct HplJob {
  std::vector<std::string> hosts;
  int iterations             = 1;
  double flops_per_iteration = 0;
  double bytes_per_iteration = 0;
};

/// The IOR-like job: `processes_per_node` processes on every host, each writing its own
/// file (file per process) in `transfer_size` requests, synchronously (one outstanding
/// request), simulated `requests_per_batch` consecutive requests at a time.
struct IorJob {
  std::vector<std::string> hosts;
  int processes_per_node             = 1;
  std::uint64_t transfer_size        = 512;
  std::uint64_t requests_per_batch   = 1;
  std::uint64_t requests_per_process = 0; ///< 0: until the HPL job ends
  std::uint64_t sync_bytes           = 0; ///< device bytes each synchronous write costs besides its data
  double metadata_ops_per_request    = 0; ///< metadata operations each write causes (0: only the file create)
  std::uint64_t control_bytes        = 1; ///< size of requests to the metadata service and of replies
};

/// The file system's services: object storage targets (one per host, each on the host's
/// first <disk>) and metadata services; files are striped over `stripe_count` targets.
struct Services {
  std::vector<std::string> storage;
  std::vector<std::string> metadata;
  int stripe_count         = 4;
  std::uint64_t chunk_size = 524288;
  int storage_workers      = 12; ///< requests a storage service serves at once (its worker threads)
  int metadata_workers     = 4;
};

/// A node's memory bandwidth as a resource that SimGrid shares (the "memory" node model,
/// README.md): each HPL rank moves `hpl_bytes_per_flop` bytes per flop it computes through
/// its node's memory while computing, and a storage service moves `io_copies` times the
/// bytes it writes to its disk through its node's memory while writing them. Absent (the
/// default): no memory resource, as before.
struct NodeMemory {
  bool enabled              = false;
  double bandwidth          = 0; ///< BW_m, bytes/s of one node's memory
  double hpl_bytes_per_flop = 0; ///< bytes an HPL rank moves through memory per flop
  double io_copies          = 0; ///< times each device byte a storage service writes crosses memory
};

struct Experiment {
  std::string file; ///< where it was read from (for messages)
  std::uint64_t seed = 0;
  SimgridModel model = SimgridModel::PtaskL07; ///< "simgrid_model" (simgrid_model.hpp)
  HplJob hpl;
  IorJob ior;
  Services services;
  DaemonCosts costs;
  NodeMemory memory; ///< "memory"
};

/// Validates a parsed document; `file` only names the source in error messages.
/// Throws InputError("<file>: <field>: <problem>").
Experiment parse_experiment(const nlohmann::json& document, const std::string& file);

/// Reads and validates an experiment file (InputError on any problem).
Experiment load_experiment(const std::string& path);

} // namespace datasched::interference
