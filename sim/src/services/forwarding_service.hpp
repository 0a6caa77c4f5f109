#pragma once
// The I/O forwarding layer as a running service: the forwarders' request schedulers and
// worker actors, and the data servers they send requests to (network messages plus disk
// activities). Shared by the standalone experiment mode (scenarios/io_forwarding.cpp) and by the
// phase jobs of scheduling runs whose SAN I/O is forwarded (execution/forwarded_io.hpp),
// so both use one model of a forwarder.
//
// A client hands a request to its forwarder with enqueue() once the request message has
// arrived there, then waits on the returned ticket; the forwarder's workers take the
// scheduler's dispatches, run them on the servers (serve()) and release the tickets of the
// client requests a dispatch completed. Files are registered first (open_file): a file's
// striping and the data servers its stripes live on.
#include <cstdint>
#include <memory>
#include <vector>

#include <simgrid/s4u/ConditionVariable.hpp>
#include <simgrid/s4u/Mutex.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include "common/kill_safe_lock.hpp"
#include "common/transfer.hpp"
#include "services/forwarding_requests.hpp"
#include "services/forwarding_schedulers.hpp"
#include "services/forwarding_statistics.hpp"
#include "services/forwarding_types.hpp"
#include "services/hdd.hpp"
#include "services/server_cache.hpp"

namespace simgrid::s4u {
class Host;
class Disk;
} // namespace simgrid::s4u

namespace datasched::forwarding {

/// Where a file's bytes live: its striping over `servers.size()` servers (or all of the
/// service's servers when `servers` is empty), stripe server i being service server
/// servers[i].
struct FilePlacement {
  Striping striping;
  std::vector<int> servers;
};

/// One client request waiting for the forwarding layer: released when every dispatch
/// (or TWINS share) carrying it has completed on the servers.
struct Ticket {
  int pending                     = 0;
  simgrid::s4u::SemaphorePtr done = simgrid::s4u::Semaphore::create(0);
};

class Service {
public:
  /// How the workers and clients hold a forwarder's mutex. The workers are daemons, killed
  /// wherever they are when the run ends - possibly blocked re-locking the mutex after a
  /// TWINS window wait timed out. A std::unique_lock would then unlock a mutex it does not
  /// hold through a simcall during the kill's unwinding, and SimGrid 3.32 aborts the process
  /// (sim/tests/test_forwarding_kill_safety.cpp); this lock lets go without the simcall.
  using Lock = ScopedLock;

  /// `layer` gives the scheduler kind, window, workers per forwarder and aggregation limit;
  /// the servers' disks get the HDD curve of `hdd_alpha` (seek-aware when `hdd_seek_scale` > 0).
  Service(const ForwardingLayer& layer, std::vector<simgrid::s4u::Host*> forwarders,
          std::vector<simgrid::s4u::Host*> servers, std::vector<simgrid::s4u::Disk*> disks, std::uint64_t control_bytes,
          bool dispatch_trace, double hdd_alpha, double hdd_seek_scale, const CacheConfig& cache = {});

  /// Creates `max_in_flight` daemon worker actors per forwarder (forwarder 0's first).
  void start_workers();
  /// Starts the servers' cache flushers (write-behind; server_cache.hpp), if any.
  void start_caches();

  /// Tells `observer` (not owned; nullptr: nobody) of every forwarder-server transfer.
  void set_transfer_observer(TransferObserver* observer) { transfer_observer_ = observer; }
  TransferObserver* transfer_observer() const { return transfer_observer_; }

  /// Registers a file; returns its id (0, 1, 2… in registration order). Files of one job
  /// share their placement (a run may open millions of files: an id costs a pointer).
  int open_file(std::shared_ptr<const FilePlacement> placement);

  /// The server shares of `range` (service server indices), in the order the range reaches them.
  std::vector<Striping::ServerShare> split(const FileRange& range) const;

  /// Queues a client request that has arrived at forwarder `forwarder`; the caller waits
  /// on the ticket's semaphore. Under TWINS the request is split into server shares here.
  std::shared_ptr<Ticket> enqueue(int forwarder, const FileRange& range, Operation op);

  /// Server requests from `source` (a forwarder, or a client without forwarding), one per
  /// share, run concurrently stage by stage: request messages (with the data for a write),
  /// disk activities, replies (with the data for a read). Blocks the calling actor.
  /// `file`: the file the shares belong to (the seek-aware HDD curve's positions).
  void serve(simgrid::s4u::Host* source, Operation op, int file, const std::vector<Striping::ServerShare>& shares,
             int client_requests);

  simgrid::s4u::Host* forwarder_host(int forwarder) const;
  std::size_t nb_forwarders() const { return forwarders_.size(); }
  std::size_t nb_servers() const { return servers_.size(); }
  /// Counts a client request arriving at a forwarder (bytes leaving the client).
  void count_client_request(int forwarder, std::uint64_t bytes);

  std::vector<ForwarderStats>& forwarder_stats() { return stats_forwarders_; }
  std::vector<ServerStats>& server_stats() { return stats_servers_; }
  std::vector<DispatchRecord>& dispatch_records() { return dispatches_; }

private:
  struct Forwarder {
    simgrid::s4u::Host* host = nullptr;
    std::unique_ptr<RequestScheduler> scheduler;
    simgrid::s4u::MutexPtr mutex;
    simgrid::s4u::ConditionVariablePtr wake;
  };

  /// Waits for each of `transfers` in turn, telling the observer as each one ends.
  void wait_transfers(const std::vector<simgrid::s4u::ExecPtr>& transfers) const;
  /// One worker actor: serves dispatches, then hands over to a fresh actor.
  void worker(int forwarder, int slot);
  void start_worker(int forwarder, int slot);

  /// A worker actor serves this many dispatches, then a new actor takes its slot. SimGrid
  /// 3.32 never takes a disk activity out of the list of the actor that created it
  /// (IoImpl's constructor appends it to ActorImpl::activities_; nothing removes it until
  /// the actor ends), and every later completion of that actor's transfers scans that list
  /// (std::list::remove): quadratic, 84 % of the CPU of seed 002's paper-sized test. A new
  /// actor starts with an empty list. The hand-over happens between two dispatches, when
  /// the worker holds nothing.
  static constexpr int kDispatchesPerWorkerActor = 64;
  static void disk_activity_changes(ServerStats& server, int delta);
  /// An HDD activity of `server` starts (+1) or ends (-1): occupancy figures, device
  /// requests, the seek-aware curve's positions.
  void hdd_activity(int server, int file, std::uint64_t offset, int delta);

  ForwardingLayer layer_;
  std::vector<Forwarder> forwarders_;
  std::vector<simgrid::s4u::Host*> servers_;
  std::vector<simgrid::s4u::Disk*> disks_;
  std::vector<std::unique_ptr<SeekSpread>> spreads_; ///< per server, when the HDD curve is seek-aware
  std::vector<std::unique_ptr<ServerCache>> caches_; ///< per server, when servers have a cache
  std::uint64_t control_bytes_;
  TransferObserver* transfer_observer_ = nullptr;
  bool dispatch_trace_;
  std::vector<std::shared_ptr<const FilePlacement>> files_;
  /// Tickets of queued client requests, by the id their queued entries carry.
  std::vector<std::shared_ptr<Ticket>> tickets_;
  std::vector<std::uint64_t> free_ids_;
  std::vector<ForwarderStats> stats_forwarders_;
  std::vector<ServerStats> stats_servers_;
  std::vector<DispatchRecord> dispatches_;
};

} // namespace datasched::forwarding
