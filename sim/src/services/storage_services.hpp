#pragma once
// Storage services running on hosts (object storage targets and metadata services, as
// BeeOND starts them on every node of an allocation; the interference scenario of seed 004
// runs them). Serving work is a SimGrid Exec on the service's host, so it takes CPU from
// anything else computing there: SimGrid's solver shares the host's cores between the
// service thread and the job's rank threads. A service serves at most `workers` requests at
// once (its worker threads); further requests wait in arrival order. With a memory resource
// on its host (the "memory" node model: interference/memory.hpp, memory_traffic.hpp), a
// storage service moves io_copies x the bytes it writes to its disk through its node's
// memory while it writes them.
#include <cstdint>
#include <string>

#include <simgrid/forward.h>
#include <simgrid/s4u/Semaphore.hpp>

#include "services/daemon_costs.hpp"

namespace datasched::interference {

enum class ServiceKind { Storage, Metadata };

std::string to_string(ServiceKind kind);

struct ServiceStats {
  std::uint64_t requests = 0; ///< storage requests served (completed)
  std::uint64_t bytes    = 0; ///< storage bytes written (completed)
  double metadata_ops    = 0; ///< metadata operations served (completed)
  double request_flops   = 0; ///< CPU work of completed requests and operations
  double idle_flops      = 0; ///< CPU work of completed idle bursts
};

class Service {
public:
  /// `memory`: the host's memory resource (nullptr: none), crossed `io_copies` times by
  /// every byte written to `disk`.
  Service(ServiceKind kind, simgrid::s4u::Host* host, simgrid::s4u::Disk* disk, int workers, const DaemonCosts& costs,
          simgrid::s4u::Disk* memory = nullptr, double io_copies = 0);

  /// Serves `requests` synchronous writes carrying `bytes` bytes (blocking the calling
  /// actor): the service's CPU work, then `device_bytes` written on its disk (and, at the
  /// same time, io_copies x `device_bytes` moved through its node's memory).
  void write(std::uint64_t requests, std::uint64_t bytes, std::uint64_t device_bytes);

  /// Serves `operations` metadata operations (CPU work only: metadata fits in memory).
  void metadata(double operations);

  /// Starts the service's idle load (services/idle_load.hpp) from `phase` on, as a daemon actor
  /// named `actor_name`; its completed bursts count in stats().idle_flops.
  void start_idle_load(const std::string& actor_name, double phase);

  ServiceKind kind() const { return kind_; }
  simgrid::s4u::Host* host() const { return host_; }
  const ServiceStats& stats() const { return stats_; }

private:
  /// Runs `flops` on the service's host (one core's worth of a thread); 0 costs nothing.
  static void compute(simgrid::s4u::Host* host, double flops);

  ServiceKind kind_;
  simgrid::s4u::Host* host_;
  simgrid::s4u::Disk* disk_;
  simgrid::s4u::Disk* memory_;
  double io_copies_;
  simgrid::s4u::SemaphorePtr workers_;
  const DaemonCosts& costs_;
  ServiceStats stats_;
};

} // namespace datasched::interference
