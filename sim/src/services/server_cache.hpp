#pragma once
// A data server's memory cache (seed 002, issue 34): write-behind and read-ahead, both
// off by default, both built on SimGrid activities.
//
// The server's memory is a SimGrid disk created on the server host at the configured
// memory bandwidth (read and write); copying into or out of the cache is an I/O on it.
//
// Write-behind (`write_behind` = D bytes > 0): a write share is admitted once the dirty
// bytes plus its own are at most D (it waits while they are not), copied into memory, and
// acknowledged; one flusher actor per server writes the dirty shares to the HDD in
// admission order, one HDD write at a time (so the flush competes with the reads on the
// HDD's curve), and each share stops being dirty when its HDD write ends. A share larger
// than D on its own goes straight to the HDD (write-through).
//
// Read-ahead (`read_ahead` = W bytes > 0): per file, the server keeps one read-ahead
// range of its object. A read share within the range is copied out of memory (after the
// HDD read filling the range, if that is still running); any other share issues one HDD
// read of max(W, share) bytes from the share's offset, and that becomes the file's range.
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>

#include <simgrid/s4u/ConditionVariable.hpp>
#include <simgrid/s4u/Io.hpp>
#include <simgrid/s4u/Mutex.hpp>

namespace simgrid::s4u {
class Host;
class Disk;
} // namespace simgrid::s4u

namespace datasched::forwarding {

struct CacheConfig {
  double memory_bandwidth    = 0; ///< bytes/s of the server's memory (read and write)
  std::uint64_t write_behind = 0; ///< dirty threshold D in bytes; 0: no write-behind
  std::uint64_t read_ahead   = 0; ///< read-ahead window W in bytes; 0: no read-ahead
  bool enabled() const { return write_behind > 0 || read_ahead > 0; }
};

/// The HDD range a read-ahead filled (or is filling) for one file on one server.
struct ReadAheadRange {
  std::uint64_t begin = 0;
  std::uint64_t end   = 0;
  bool ready          = false; ///< its HDD read has ended
};

/// One disk step of a server request: the activity to wait for, and what its end means.
struct DiskStep {
  simgrid::s4u::IoPtr io;
  bool on_hdd          = true;           ///< an HDD activity (counted, seek positions) or a memory copy
  std::uint64_t offset = 0;              ///< object offset of the share
  std::uint64_t bytes  = 0;              ///< bytes of the activity
  bool dirty           = false;          ///< a write-behind copy: to be flushed once it has ended
  std::shared_ptr<ReadAheadRange> fills; ///< a read-ahead range this HDD read fills (ready at its end)
};

class ServerCache {
public:
  /// Told when an HDD activity of the cache's own (a flush) starts (+1) or ends (-1), with
  /// its file and object offset, so the server's occupancy figures and seek positions see it.
  using HddActivity = std::function<void(int file, std::uint64_t offset, int delta)>;

  /// Creates the memory disk on `host` (named `datasched-cache`) at the configured bandwidth.
  ServerCache(const CacheConfig& config, simgrid::s4u::Host* host, simgrid::s4u::Disk* hdd, HddActivity on_flush);

  /// Starts the flusher actor (a daemon on the server host); with write-behind only.
  void start();

  /// The disk step of a write share (blocks the caller while the dirty bytes are too many).
  /// `hdd_started` is called before an HDD activity (write-through) starts.
  DiskStep write(int file, std::uint64_t offset, std::uint64_t bytes, const std::function<void()>& hdd_started);
  /// The disk step of a read share (blocks the caller while a range it falls in is being filled).
  DiskStep read(int file, std::uint64_t offset, std::uint64_t bytes, const std::function<void()>& hdd_started);
  /// Called when a step's activity has ended: queues a write-behind copy for the flusher,
  /// marks a read-ahead range ready.
  void ended(int file, const DiskStep& step);

  const CacheConfig& config() const { return config_; }
  std::uint64_t hits() const { return hits_; }

private:
  struct Dirty {
    int file             = 0;
    std::uint64_t offset = 0;
    std::uint64_t bytes  = 0;
  };
  void flusher(int flushes_left);
  void start_flusher();

  /// The flusher hands over to a fresh actor every this many flushes (SimGrid 3.32 keeps
  /// each disk activity in its creator's list: Service::kDispatchesPerWorkerActor).
  static constexpr int kFlushesPerActor = 64;

  CacheConfig config_;
  simgrid::s4u::Host* host_;
  simgrid::s4u::Disk* hdd_;
  simgrid::s4u::Disk* memory_;
  HddActivity on_flush_;
  simgrid::s4u::MutexPtr mutex_;
  simgrid::s4u::ConditionVariablePtr changed_;
  std::uint64_t dirty_bytes_ = 0;
  std::deque<Dirty> to_flush_;
  std::map<int, std::shared_ptr<ReadAheadRange>> ranges_;
  std::uint64_t hits_ = 0;
};

} // namespace datasched::forwarding
