#include "execution/staged_writes.hpp"

#include <algorithm>
#include <string>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Host.hpp>

#include "common/fatal.hpp"
#include "execution/context.hpp"
#include "model/job.hpp"
#include "services/staging_layer.hpp"

namespace datasched {

namespace sg4 = simgrid::s4u;

std::shared_ptr<StagedWrites> StagedWrites::start(StagingLayer& layer, Context& context, Job& job,
                                                  sg4::Semaphore& wakeup, const std::vector<SanStream>& streams,
                                                  const std::vector<int>& servers)
{
  std::shared_ptr<StagedWrites> io(new StagedWrites(layer, context, job, wakeup, static_cast<int>(streams.size())));
  for (size_t rank = 0; rank < streams.size(); ++rank) {
    const int node     = streams[rank].node;
    const double bytes = static_cast<double>(streams[rank].bytes);
    io->add_bytes(bytes);
    sg4::Actor::create(
        "staged-" + job.id + "-" + std::to_string(rank), context.machines.at(node).host,
        [io, node, bytes, servers]() { run_actor_guarded([&] { io->run_stream(node, bytes, servers); }); })
        ->daemonize();
  }
  return io;
}

void StagedWrites::run_stream(int node, double bytes, const std::vector<int>& servers)
{
  StagingServer& server   = layer_.server_of_node(node);
  sg4::Host* client       = layer_.client_of_node(node);
  const double block_size = layer_.config().block_size;
  std::size_t block       = 0;
  for (double left = bytes; left > 0; left -= block_size, ++block) {
    if (stopped())
      return;
    sg4::Host* destination = context_.machines.at(servers[block % servers.size()]).host;
    server.write_block(client, std::min(left, block_size), 0, -1, destination);
  }
  stream_done();
}

} // namespace datasched
