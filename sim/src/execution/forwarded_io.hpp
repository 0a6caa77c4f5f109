#pragma once
// SAN I/O of `datasched_phases` jobs through the I/O forwarding layer (engine option
// --forwarding-layer; forwarding/job_layer.hpp). On such a run a read or write phase of a
// job whose data lives on central storage (allocation `san`) does not become one ptask
// io-J -> X-dram (phase_plan.hpp): each I/O task becomes a client *stream*, an actor on its
// node that issues blocking requests of `request_size` bytes, one at a time, to its node's
// forwarder; the forwarder's scheduler (FIFO/HBRR/TWINS) sends them on to the job's san_k
// data servers (services/forwarding_service.hpp). The phase ends when the streams and the phase's
// other activities (the DRAM share) have all ended.
//
// A job's files: one per I/O task (`pattern: file_per_process`) or one shared file,
// opened at the job's first forwarded phase and striped over the job's san_k servers
// (`stripe_size`; file f from the job's server f mod san_k); request i of task r follows
// the pattern's offsets (services/forwarding_requests.hpp) in every phase.
//
// Completion reaches the job's actor through its worker's wakeup semaphore, the one a
// kill releases (job_pool.hpp): the job counts which releases it consumed. A killed or
// timed-out job stops its streams: each finishes the request it has at the forwarder
// (what is already queued or on the disks is served) and issues no more.
#include <cstdint>
#include <memory>
#include <vector>

#include <simgrid/s4u/Semaphore.hpp>

#include "execution/phase_plan.hpp"
#include "services/forwarding_requests.hpp"

namespace datasched {

struct Context;
struct Job;

/// One I/O task of a forwarded phase: its node (compute resource id) and bytes.
struct ForwardedStream {
  int node            = 0;
  std::uint64_t bytes = 0;
};

/// The forwarded streams of a read/write phase (pure): one per I/O task that has device
/// bytes (the phase amount less the DRAM hit share, rounded to bytes); none for other
/// phases or allocations.
std::vector<ForwardedStream> plan_forwarded_io(const PhaseProfile& profile, const Phase& phase,
                                               const std::vector<int>& executors, const StorageAssignment& storage);

/// One running forwarded phase of a job.
class ForwardedIo : public std::enable_shared_from_this<ForwardedIo> {
public:
  /// Starts one daemon stream actor per stream. `files` are the job's forwarded files
  /// (opened here on the first call). Releases `wakeup` once when every stream is done,
  /// unless stopped before or the job was killed.
  static std::shared_ptr<ForwardedIo> start(Context& context, Job& job, simgrid::s4u::Semaphore& wakeup, bool read,
                                            const std::vector<ForwardedStream>& streams,
                                            const std::vector<int>& servers, std::vector<int>& files);

  bool released() const { return released_; }
  double end() const { return end_; }
  double bytes() const { return bytes_; }
  /// The job consumed the release of `wakeup` that completion made.
  bool token_consumed = false;
  /// No request after the current ones; no release any more.
  void stop() { stopped_ = true; }

private:
  ForwardedIo(Context& context, Job& job, simgrid::s4u::Semaphore& wakeup)
      : context_(context), job_(job), wakeup_(&wakeup)
  {}
  void run_stream(int node, std::vector<forwarding::FileRange> requests);

  Context& context_;
  Job& job_;
  simgrid::s4u::SemaphorePtr wakeup_;
  bool read_     = true;
  int running_   = 0;
  bool stopped_  = false;
  bool released_ = false;
  double end_    = 0;
  double bytes_  = 0;
};

} // namespace datasched
