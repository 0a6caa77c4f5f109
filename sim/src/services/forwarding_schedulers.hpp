#pragma once
// Request schedulers of an I/O forwarding node (seed 002): which queued client request(s)
// the forwarder sends to the data servers next. Pure and time-explicit (the caller passes
// the simulated clock), so their orderings are unit-tested without SimGrid
// (sim/tests/test_forwarding_schedulers.cpp).
//   FIFO : one queue, arrival order, no aggregation (IOFSL's FIFO).
//   HBRR : one queue per file handle, served round-robin over handles in order of first
//          arrival; the head request is merged with queued requests of the same file and
//          operation that extend it contiguously (before or after), up to `limit` requests.
//   TWINS: one queue per data server; forwarder f serves only server (f + k) mod S during
//          window k = [k W, (k+1) W): forwarders with distinct indices (f < S) serve
//          distinct servers at every instant, and every forwarder visits every server.
//          Windows are global (aligned on t = 0), as if the forwarders' clocks agree.
//          With `drain`, a forwarder starts no dispatch to its window's server while
//          dispatches it started to another server are still in flight: at a window end it
//          first drains the previous server (it then talks to one server at a time).
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "services/forwarding_types.hpp"

namespace datasched::forwarding {

/// A client request (or, under TWINS, its share on one data server) waiting at a forwarder.
struct QueuedRequest {
  std::uint64_t id            = 0; ///< client request id
  int file                    = 0;
  Operation op                = Operation::Write;
  std::uint64_t offset        = 0;
  std::uint64_t size          = 0;  ///< bytes (under TWINS: the bytes of this request on `server`)
  int server                  = -1; ///< TWINS: the data server this share goes to; -1 otherwise
  std::uint64_t object_offset = 0;  ///< TWINS: where the share starts in the server's object
  double arrival              = 0;
};

/// What the forwarder sends next: one or more queued requests forming one contiguous range
/// of one file (HBRR aggregation), or one server share (TWINS).
struct Dispatch {
  std::vector<QueuedRequest> parts; ///< in the order they were taken
  int file                    = 0;
  Operation op                = Operation::Write;
  std::uint64_t offset        = 0;  ///< merged range (TWINS: the share's client request offset)
  std::uint64_t size          = 0;  ///< merged bytes
  int server                  = -1; ///< TWINS: the only server this dispatch goes to
  std::uint64_t object_offset = 0;  ///< TWINS: where the share starts in the server's object
};

class RequestScheduler {
public:
  virtual ~RequestScheduler()                     = default;
  virtual void push(const QueuedRequest& request) = 0;
  /// The next dispatch allowed at time `now`, or nothing (empty, or TWINS: nothing for the
  /// window's server).
  virtual std::optional<Dispatch> pop(double now) = 0;
  /// The earliest time after `now` at which pop may return something without a push
  /// (TWINS: the start of the next window whose server has queued shares); infinity when
  /// only a push can change pop's answer.
  virtual double next_change(double now) const
  {
    (void)now;
    return std::numeric_limits<double>::infinity();
  }
  virtual std::size_t queued() const = 0;
  /// TWINS splits client requests into server shares before queueing them.
  virtual bool queues_server_shares() const { return false; }
  /// Whether the forwarder must report each dispatch's completion (completed()); only
  /// then does it lock and wake its workers after a dispatch.
  virtual bool wants_completions() const { return false; }
  /// A dispatch returned by pop has completed on the servers.
  virtual void completed(const Dispatch& dispatch) { (void)dispatch; }
};

class FifoScheduler : public RequestScheduler {
public:
  void push(const QueuedRequest& request) override;
  std::optional<Dispatch> pop(double now) override;
  std::size_t queued() const override { return queue_.size(); }

private:
  std::deque<QueuedRequest> queue_;
};

class HbrrScheduler : public RequestScheduler {
public:
  explicit HbrrScheduler(int limit) : limit_(limit) {}
  void push(const QueuedRequest& request) override;
  std::optional<Dispatch> pop(double now) override;
  std::size_t queued() const override { return count_; }

private:
  int limit_;
  std::map<int, std::deque<QueuedRequest>> queues_; ///< per file handle
  std::vector<int> order_;                          ///< handles in order of first arrival
  std::size_t next_  = 0;                           ///< round-robin position in order_
  std::size_t count_ = 0;
};

class TwinsScheduler : public RequestScheduler {
public:
  TwinsScheduler(int forwarder_index, int servers, double window, bool drain = false);
  void push(const QueuedRequest& request) override;
  std::optional<Dispatch> pop(double now) override;
  double next_change(double now) const override;
  std::size_t queued() const override { return count_; }
  bool queues_server_shares() const override { return true; }
  bool wants_completions() const override { return drain_; }
  void completed(const Dispatch& dispatch) override;
  /// The data server this forwarder serves at time `now`.
  int server_at(double now) const;
  /// Index k of the window holding `now` (tolerant to rounding at window ends).
  long long window_index(double now) const;

private:
  int forwarder_;
  double window_;
  std::vector<std::deque<QueuedRequest>> queues_; ///< per data server
  std::size_t count_ = 0;
  bool drain_        = false;
  std::vector<int> in_flight_; ///< dispatches started and not completed, per data server (drain)
};

std::unique_ptr<RequestScheduler> make_scheduler(const ForwardingLayer& layer, int forwarder_index, int servers);

} // namespace datasched::forwarding
