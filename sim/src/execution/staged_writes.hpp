#pragma once
// SAN writes of `datasched_phases` jobs through the staging layer (engine option
// --staging-layer; services/staging_layer.hpp). On such a run a write phase of a job whose
// data lives on central storage (allocation `san`) does not become one ptask X-dram ->
// io-J (phase_plan.hpp): each I/O task becomes a client stream (execution/streamed_io.hpp)
// that writes its bytes in blocks of `block_size` to its node's staging server, one block
// at a time (dd with direct I/O); the phase's SAN share ends when every block is in a
// server's memory. Block i of a task goes to the job's I/O server i mod san_k (the
// job's data stays striped over its servers), where the server's data mover drains it
// later (services/staging_server.hpp: idle time, watermark, chunks). A stopped stream
// finishes the block it is writing and writes no more.
#include <memory>
#include <vector>

#include "execution/streamed_io.hpp"

namespace datasched {

struct Context;
class StagingLayer;

/// One running staged write phase of a job.
class StagedWrites final : public StreamedIo {
public:
  /// Starts one daemon stream actor per stream; `servers` are the job's I/O servers
  /// (resource ids). Releases `wakeup` once when every stream is absorbed, unless stopped
  /// before or the job was killed.
  static std::shared_ptr<StagedWrites> start(StagingLayer& layer, Context& context, Job& job,
                                             simgrid::s4u::Semaphore& wakeup, const std::vector<SanStream>& streams,
                                             const std::vector<int>& servers);

private:
  StagedWrites(StagingLayer& layer, Context& context, Job& job, simgrid::s4u::Semaphore& wakeup, int streams)
      : StreamedIo(job, wakeup, streams), layer_(layer), context_(context)
  {}
  void run_stream(int node, double bytes, const std::vector<int>& servers);

  StagingLayer& layer_;
  Context& context_;
};

} // namespace datasched
