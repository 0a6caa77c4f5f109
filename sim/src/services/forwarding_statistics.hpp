#pragma once
// What an I/O forwarding run measures, filled in by the actors (scenarios/io_forwarding.cpp) and
// written by forwarding/outputs.cpp. Sizes are counted where the paper's table counts
// them: leaving clients, leaving forwarders (after aggregation), arriving at servers.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace datasched::forwarding {

struct ApplicationStats {
  double first_start     = -1; ///< when its first process issued its first request
  double end             = 0;  ///< when its last process received its last reply
  std::uint64_t requests = 0;
  int processes_done     = 0;
};

struct ForwarderStats {
  std::uint64_t client_requests = 0; ///< requests arriving from clients
  std::uint64_t client_bytes    = 0;
  std::uint64_t dispatches      = 0; ///< what the scheduler sent on (after aggregation)
  std::uint64_t dispatch_bytes  = 0;
  std::uint64_t server_requests = 0; ///< after splitting over the servers' stripes
  std::uint64_t server_bytes    = 0;
  std::uint64_t waits           = 0; ///< queued entries dispatched
  double wait_sum               = 0;
  double wait_max               = 0;
};

/// When requests of one operation arrived at a server: how many, the first and the last
/// arrival. Their pace is the mean gap (last - first) / (count - 1) (README.md, Outputs).
struct ArrivalSpan {
  std::uint64_t count = 0;
  double first        = 0;
  double last         = 0;

  /// Arrivals are added in share order after a batch of sends has ended, not in time order.
  void add(double t)
  {
    first = count == 0 ? t : std::min(first, t);
    last  = count == 0 ? t : std::max(last, t);
    ++count;
  }
};

struct ServerStats {
  std::uint64_t requests        = 0;
  std::uint64_t bytes           = 0;
  double busy_time              = 0; ///< seconds with at least one disk activity
  double disk_time              = 0; ///< integral of the number of disk activities over time
  int max_active                = 0; ///< most disk activities at once
  std::uint64_t device_requests = 0; ///< HDD activities (with a cache: misses, read-aheads, flushes, write-throughs)
  std::uint64_t cache_hits      = 0; ///< server requests served by the memory cache (write-behind, read-ahead hits)
  ArrivalSpan read_arrivals;         ///< server requests of reads: when their request reached the server
  ArrivalSpan write_arrivals;        ///< server requests of writes: when their data reached the server
  // Running state.
  int active         = 0;
  double last_change = 0;
};

/// One server request, for the optional dispatch trace.
struct DispatchRecord {
  std::string source; ///< forwarder host (or client host in direct mode)
  int server          = 0;
  double start        = 0;
  double end          = 0;
  std::uint64_t bytes = 0;
  int client_requests = 0; ///< client requests (or shares) merged into this dispatch
};

struct Statistics {
  std::vector<ApplicationStats> applications;
  std::vector<ForwarderStats> forwarders;
  std::vector<ServerStats> servers;
  std::vector<DispatchRecord> dispatches; ///< only when the trace is asked for
};

} // namespace datasched::forwarding
