#pragma once
// The I/O forwarding service's vocabulary (seed 002): operations, the client access patterns,
// the request schedulers, the forwarding layer's and the data servers' parameters. Shared by
// the service (forwarding_service.hpp), the phase jobs of scheduling runs that use it
// (execution/forwarded_io.hpp) and the seed-002 experiment that reads them from its JSON
// (forwarding/experiment.hpp).
#include <cstdint>
#include <string>
#include <vector>

#include "services/server_cache.hpp"

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

} // namespace datasched::forwarding
