#pragma once
// A staging server (seed 003 §III), as a service: it absorbs client writes into its
// memory, writes them to its SSD, and its data mover drains the SSD to the back-end
// storage over a separate path, lazily. Two users: seed 003's QoS experiment (clients on
// the IB fabric, service levels, scenarios/qos_staging.cpp) and the SAN writes of
// scheduling runs' phase jobs (--staging-layer, services/staging_layer.hpp). How the bytes
// move is the user's (StagingTransfers): the QoS mode arbitrates IB service levels, the
// scheduling runs pass every transfer through their traffic arbiter as storage traffic.
//
// Write path of one block of b bytes from a client (one dd write, direct I/O):
//   1. wait for room: b bytes in the server's receive buffer (buffer_bytes) and in the
//      SSD (buffer + staged + b <= capacity) -- back-pressure on the client. When room
//      frees, it goes to a *random* waiting client (seeded): the server serves its queue
//      pairs in no fixed order, and a fixed order would make two streaming clients
//      alternate exactly and phase-lock with periodic MPI traffic;
//   2. RDMA: client -> server (StagingTransfers::absorb; in the QoS mode a single-flow
//      ptask on the write's SL, qos/flows.hpp);
//   3. the client's write returns (the block is in server memory); the server's SSD
//      writer writes it to the SSD (a SimGrid disk write, one block at a time, in order)
//      and frees its buffer space; the block is now *staged*.
// Drain (the data mover, one per server): takes up to drain_chunk staged bytes (oldest
// first, all bound for one destination: each block names where it goes), reads them from
// the SSD (disk read: it shares the SSD with the SSD writer), sends them port ->
// destination (StagingTransfers::drain; no IB SL there), and frees their SSD space.
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

namespace datasched {

/// The server's sizes and drain rule (the QoS experiment's `staging` object and the
/// --staging-layer file give them).
struct StagingParams {
  double buffer_bytes   = 64.0 * 1024 * 1024; ///< server memory holding received blocks not yet on the SSD
  double idle_seconds   = 1e-3;               ///< tau: how long the server must be idle before the mover drains
  double drain_chunk    = 4.0 * 1024 * 1024;  ///< bytes the mover reads and sends at a time
  double high_watermark = 0.9; ///< fill fraction (buffer + SSD) above which the mover drains even when busy
};

/// How a staging server's bytes cross the network; the user decides how they are arbitrated.
class StagingTransfers {
public:
  virtual ~StagingTransfers() = default;
  /// A client's block into the server's memory; returns once it has arrived.
  virtual void absorb(simgrid::s4u::Host* client, simgrid::s4u::Host* server, double bytes, int sl) = 0;
  /// A drained chunk from the server's port to its destination; returns once it has arrived.
  virtual void drain(simgrid::s4u::Host* port, simgrid::s4u::Host* destination, double bytes) = 0;
};

/// The server's SSD: the disk named `disk` of `server`, or (`disk` empty) its only disk.
/// Throws InputError("<server_where>: ...") when the host has not exactly one disk and none
/// is named, suggesting `disk_where` (the input's field naming a disk) when there is one,
/// and InputError("<disk_where>: ...") when the named disk does not exist.
simgrid::s4u::Disk* staging_disk(simgrid::s4u::Host* server, const std::string& disk, const std::string& server_where,
                                 const std::string& disk_where);
/// `capacity` if positive, else the disk's "size" property (bytes). Throws
/// InputError("<where>.capacity: ...") when neither is a positive number.
double staging_capacity(double capacity, const simgrid::s4u::Disk* disk, const std::string& where);

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
  /// other blocks use the id -1. `port`: the server's host on the drain path.
  StagingServer(const StagingParams& params, simgrid::s4u::Host* server, simgrid::s4u::Disk* ssd,
                simgrid::s4u::Host* port, double capacity, StagingTransfers& transfers, std::size_t owners,
                std::uint64_t seed);

  /// Starts the SSD writer and the data mover (daemon actors on the server and its port).
  void start_actors();
  /// Called by a client actor: one block of `bytes` on `sl`; returns when it is in the
  /// server's memory. `owner`: the explicit write it belongs to, or -1; `destination`:
  /// where the mover will drain it.
  void write_block(simgrid::s4u::Host* client, double bytes, int sl, int owner, simgrid::s4u::Host* destination);
  /// Blocks the calling actor until every byte of explicit write `owner` is on the PFS;
  /// returns that time.
  double wait_drained(int owner);

  const StagingStats& stats() const { return stats_; }
  double staged_bytes() const { return staged_bytes_; }
  double buffered_bytes() const { return buffered_bytes_; }
  const std::string& name() const { return server_->get_name(); }
  simgrid::s4u::Host* host() const { return server_; }

private:
  struct Extent {
    int owner                       = -1;
    double bytes                    = 0;
    simgrid::s4u::Host* destination = nullptr;
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

  StagingParams params_;
  simgrid::s4u::Host* server_;
  simgrid::s4u::Disk* ssd_;
  simgrid::s4u::Host* port_;
  double capacity_;
  StagingTransfers& transfers_;

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

} // namespace datasched
