#pragma once
// A job step's SAN I/O run by the engine's own actors instead of ptasks: one client
// stream per I/O task, each an actor on its node issuing blocking requests to a service
// (forwarders: execution/forwarded_io.hpp; a staging server: execution/staged_writes.hpp).
// The step ends when the streams and the step's other activities have all ended.
//
// Completion reaches the job's actor through its worker's wakeup semaphore, the one a
// kill releases (job_pool.hpp): the last stream to finish releases it once, and the job
// counts which release it consumed. A killed or timed-out job stops its streams: each
// finishes the request it has and issues no more.
#include <cstdint>
#include <vector>

#include <simgrid/s4u/Semaphore.hpp>

#include "execution/phase_plan.hpp"

namespace datasched {

struct Job;

/// One I/O task of a streamed phase: its node (compute resource id) and bytes.
struct SanStream {
  int node            = 0;
  std::uint64_t bytes = 0;
};

/// The SAN streams of a read/write phase (pure): one per I/O task that has device bytes
/// (the phase amount less the DRAM hit share, rounded to bytes); none for other phases or
/// allocations.
std::vector<SanStream> plan_san_streams(const PhaseProfile& profile, const Phase& phase,
                                        const std::vector<int>& executors, const StorageAssignment& storage);

class StreamedIo {
public:
  virtual ~StreamedIo()                    = default;
  StreamedIo(const StreamedIo&)            = delete;
  StreamedIo& operator=(const StreamedIo&) = delete;

  bool released() const { return released_; }
  double end() const { return end_; }
  double bytes() const { return bytes_; }
  /// The job consumed the release of `wakeup` that completion made.
  bool token_consumed = false;
  /// No request after the current ones; no release any more.
  void stop() { stopped_ = true; }

protected:
  StreamedIo(Job& job, simgrid::s4u::Semaphore& wakeup, int streams);
  bool stopped() const { return stopped_; }
  void add_bytes(double bytes) { bytes_ += bytes; }
  /// A stream is done: the last one releases the job's wakeup (unless stopped or killed).
  void stream_done();

  Job& job_;

private:
  simgrid::s4u::SemaphorePtr wakeup_;
  int running_   = 0;
  bool stopped_  = false;
  bool released_ = false;
  double end_    = 0;
  double bytes_  = 0;
};

} // namespace datasched
