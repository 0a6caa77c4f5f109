#pragma once
// SAN I/O of `datasched_phases` jobs through the I/O forwarding layer (engine option
// --forwarding-layer; forwarding/job_layer.hpp). On such a run a read or write phase of a
// job whose data lives on central storage (allocation `san`) does not become one ptask
// io-J -> X-dram (phase_plan.hpp): each I/O task becomes a client stream
// (execution/streamed_io.hpp) that issues blocking requests of `request_size` bytes, one
// at a time, to its node's forwarder; the forwarder's scheduler (FIFO/HBRR/TWINS) sends
// them on to the job's san_k data servers (services/forwarding_service.hpp).
//
// A job's files: one per I/O task (`pattern: file_per_process`) or one shared file,
// opened at the job's first forwarded phase and striped over the job's san_k servers
// (`stripe_size`; file f from the job's server f mod san_k); request i of task r follows
// the pattern's offsets (services/forwarding_requests.hpp) in every phase. A stopped
// stream finishes the request it has at the forwarder (what is already queued or on the
// disks is served) and issues no more.
#include <memory>
#include <vector>

#include "execution/streamed_io.hpp"
#include "services/forwarding_requests.hpp"

namespace datasched {

struct Context;

namespace forwarding {
class JobLayer;
}

/// One running forwarded phase of a job.
class ForwardedIo final : public StreamedIo {
public:
  /// Starts one daemon stream actor per stream. `files` are the job's forwarded files
  /// (opened here on the first call). Releases `wakeup` once when every stream is done,
  /// unless stopped before or the job was killed.
  static std::shared_ptr<ForwardedIo> start(forwarding::JobLayer& layer, Context& context, Job& job,
                                            simgrid::s4u::Semaphore& wakeup, bool read,
                                            const std::vector<SanStream>& streams, const std::vector<int>& servers,
                                            std::vector<int>& files);

private:
  ForwardedIo(forwarding::JobLayer& layer, Context& context, Job& job, simgrid::s4u::Semaphore& wakeup, bool read,
              int streams)
      : StreamedIo(job, wakeup, streams), layer_(layer), context_(context), read_(read)
  {}
  void run_stream(int node, std::vector<forwarding::FileRange> requests);

  forwarding::JobLayer& layer_;
  Context& context_;
  bool read_ = true;
};

} // namespace datasched
