#pragma once
// The I/O forwarding experiment (seed 002, TWINS): one typed, validated description of
// clients, forwarders, data servers and applications, read from a JSON file.
// The schema is documented in sim/src/forwarding/README.md; unknown keys are errors, and
// every error names the file and the field (InputError).
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "forwarding/server_cache.hpp"
#include "model/run_cost.hpp"

namespace datasched::forwarding {

enum class Operation { Read, Write };
enum class AccessPattern { FilePerProcess, SharedStrided, SharedContiguous };
enum class SchedulerKind { Fifo, Hbrr, Twins };
enum class ClientMapping { Block, RoundRobin, Explicit };

std::string to_string(Operation op);
std::string to_string(AccessPattern pattern);
std::string to_string(SchedulerKind kind);

struct Application {
  std::string name;
  int processes                   = 0;
  AccessPattern pattern           = AccessPattern::FilePerProcess;
  Operation operation             = Operation::Write;
  std::uint64_t request_size      = 0;
  std::uint64_t bytes_per_process = 0;
  double start                    = 0; ///< simulated seconds before the first process may start
  double jitter                   = 0; ///< each process starts after start + U[0, jitter) seconds (seeded)
};

struct ForwardingLayer {
  int forwarders        = 1; ///< the first `forwarders` hosts of role "forwarder" (platform order)
  ClientMapping mapping = ClientMapping::Block;
  std::vector<int> explicit_mapping; ///< forwarder index per client node (Explicit)
  /// Explicit mapping given by forwarder host names (resolved against the platform by
  /// resolve_layout); empty when given by indices.
  std::vector<std::string> explicit_mapping_names;
  SchedulerKind scheduler = SchedulerKind::Fifo;
  double window           = 0.001; ///< TWINS time window per data server, seconds
  int max_in_flight       = 16;    ///< dispatches a forwarder has outstanding to servers
  int aggregation_limit   = 16;    ///< HBRR: most client requests merged into one dispatch
  bool twins_drain        = false; ///< TWINS: drain the previous server before serving the window's
};

struct Servers {
  int count                 = 1; ///< the first `count` hosts of role "io_server" with a disk
  std::uint64_t stripe_size = 65536;
  double hdd_alpha          = 0; ///< per-disk bandwidth B / (1 + alpha (n - 1)) for n streams
  double hdd_seek_scale     = 0; ///< > 0: the seek-aware curve (hdd.hpp), bytes of a "far" seek
  CacheConfig cache;             ///< write-behind and read-ahead (server_cache.hpp); off by default
};

struct Experiment {
  std::string file; ///< where it was read from (for messages)
  std::uint64_t seed     = 0;
  int client_nodes       = 1; ///< the first hosts of role "compute_node" (platform order)
  int processes_per_node = 1;
  bool forwarded         = true; ///< false: "direct", clients talk to the servers
  ForwardingLayer forwarding;
  Servers servers;
  std::uint64_t control_bytes = 1; ///< size of request/acknowledgement messages (0 would be free)
  std::vector<Application> applications;
  bool dispatch_trace = false; ///< write <prefix>_dispatches.csv (one row per server request)
};

/// Validates a parsed document; `file` only names the source in error messages.
/// Throws InputError("<file>: <field>: <problem>").
Experiment parse_experiment(const nlohmann::json& document, const std::string& file);

/// Reads and validates an experiment file (InputError on any problem).
Experiment load_experiment(const std::string& path);

/// The client requests of the run (each at least a message to a forwarder or server and
/// one back), estimated before it starts (model/run_cost.hpp).
RunCost client_request_cost(const Experiment& experiment);

} // namespace datasched::forwarding
