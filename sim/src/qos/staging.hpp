#pragma once
// A staging group's server (seed 003 §III): it absorbs client writes over the IB fabric
// into its memory, writes them to its SSD, and its data mover drains the SSD to the
// back-end PFS over the separate storage network, lazily.
//
// Write path of one block of b bytes from a client (one dd write, direct I/O):
//   1. wait for room: b bytes in the server's receive buffer (buffer_bytes) and in the
//      SSD (buffer + staged + b <= capacity) -- back-pressure on the client. When room
//      frees, it goes to a *random* waiting client (seeded): the server serves its queue
//      pairs in no fixed order, and a fixed order would make two streaming clients
//      alternate exactly and phase-lock with periodic MPI traffic;
//   2. RDMA: a single-flow ptask client -> server on the write's SL (qos/flows.hpp);
//   3. the client's write returns (the block is in server memory); the server's SSD
//      writer writes it to the SSD (a SimGrid disk write, one block at a time, in order)
//      and frees its buffer space; the block is now *staged*.
// Drain (the data mover, one per server): takes up to drain_chunk staged bytes (oldest
// first), reads them from the SSD (disk read: it shares the SSD with the SSD writer),
// sends them port -> PFS over the storage network (a ptask, no IB SL there),
// and frees their SSD space.
//
// "Idle", precisely: the server is idle at time t when no client block is in flight to it
// (step 2) nor waiting in its buffer for the SSD (step 3), and the last such activity
// ended at or before t - idle_seconds (tau). The mover starts a chunk only when the
// server is idle, or when buffer + staged bytes reach high_watermark x capacity (forced:
// without it a client streaming forever would fill the SSD and block). A chunk started
// runs to its end (no pre-emption): a client write arriving meanwhile shares the SSD
// with the chunk's read for at most one chunk. The drain never touches the IB fabric, so
// "the network is idle" is observed at the server's own IB port, which only its clients
// use.
#include <cstdint>
#include <deque>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <simgrid/s4u/ConditionVariable.hpp>
#include <simgrid/s4u/Disk.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Mutex.hpp>

#include "qos/experiment.hpp"
#include "qos/flows.hpp"

namespace datasched::qos {

struct StagingStats {
  double absorbed_bytes       = 0; ///< received from clients (in server memory)
  double ssd_bytes            = 0; ///< written to the SSD
  double drained_bytes        = 0; ///< sent to the PFS
  std::uint64_t blocks        = 0;
  std::uint64_t chunks        = 0;
  std::uint64_t forced_chunks = 0; ///< started above the high watermark while not idle
  double drain_busy           = 0; ///< seconds the mover spent reading + sending chunks
  double first_drain          = -1;
  double last_drain_end       = -1;
  double max_fill             = 0; ///< largest buffer + staged bytes seen
};

class StagingServer {
public:
  /// `owners` is the number of explicit writes whose drain is tracked (ids 0..owners-1);
  /// noise blocks use the id -1.
  StagingServer(const Staging& config, simgrid::s4u::Host* server, simgrid::s4u::Disk* ssd, simgrid::s4u::Host* port,
                simgrid::s4u::Host* pfs, double capacity, FlowLauncher& flows, std::size_t owners, std::uint64_t seed);

  /// Starts the SSD writer and the data mover (daemon actors on the server and its port).
  void start_actors();
  /// Called by a client actor: one block of `bytes` on `sl`; returns when it is in the
  /// server's memory. `owner`: the explicit write it belongs to, or -1.
  void write_block(simgrid::s4u::Host* client, double bytes, int sl, int owner);
  /// Blocks the calling actor until every byte of explicit write `owner` is on the PFS;
  /// returns that time.
  double wait_drained(int owner);

  const StagingStats& stats() const { return stats_; }
  double staged_bytes() const { return staged_bytes_; }
  double buffered_bytes() const { return buffered_bytes_; }
  const std::string& name() const { return server_->get_name(); }

private:
  struct Extent {
    int owner    = -1;
    double bytes = 0;
  };

  struct Waiter {
    double bytes = 0;
    bool granted = false;
  };

  bool busy() const { return in_flight_ > 0 || !to_ssd_.empty(); }
  bool fits(double bytes) const;
  void reserve(double bytes);
  /// Gives room to waiting clients, picked at random among those whose block fits.
  void grant_room();
  bool above_watermark() const;
  void ssd_writer();
  void mover();
  void note_fill();

  const Staging& config_;
  simgrid::s4u::Host* server_;
  simgrid::s4u::Disk* ssd_;
  simgrid::s4u::Host* port_;
  simgrid::s4u::Host* pfs_;
  double capacity_;
  FlowLauncher& flows_;

  simgrid::s4u::MutexPtr mutex_;
  simgrid::s4u::ConditionVariablePtr changed_;
  int in_flight_         = 0;
  double last_activity_  = -std::numeric_limits<double>::infinity();
  double buffered_bytes_ = 0; ///< reserved or received, not yet on the SSD
  double staged_bytes_   = 0; ///< on the SSD, not yet drained
  std::deque<Extent> to_ssd_;
  std::deque<Extent> staged_;
  std::vector<double> owner_pending_; ///< bytes of each explicit write not yet drained
  std::vector<Waiter*> waiters_;      ///< clients waiting for room, in arrival order
  std::mt19937_64 rng_;
  StagingStats stats_;
};

} // namespace datasched::qos
