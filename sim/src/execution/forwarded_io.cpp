#include "execution/forwarded_io.hpp"

#include "common/fatal.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>

#include "common/transfer.hpp"
#include "execution/context.hpp"
#include "forwarding/job_layer.hpp"
#include "model/job.hpp"

namespace datasched {

namespace sg4 = simgrid::s4u;
using forwarding::Operation;

std::shared_ptr<ForwardedIo> ForwardedIo::start(forwarding::JobLayer& layer, Context& context, Job& job,
                                                sg4::Semaphore& wakeup, bool read,
                                                const std::vector<SanStream>& streams, const std::vector<int>& servers,
                                                std::vector<int>& files)
{
  auto& cfg = layer.config();
  std::shared_ptr<ForwardedIo> io(new ForwardedIo(layer, context, job, wakeup, read, static_cast<int>(streams.size())));
  forwarding::Application app; // the streams as one application of services/forwarding_requests.hpp
  app.processes         = static_cast<int>(streams.size());
  app.pattern           = cfg.pattern;
  app.request_size      = cfg.request_size;
  app.bytes_per_process = streams.front().bytes;
  if (files.empty()) {
    auto placement                  = std::make_shared<forwarding::FilePlacement>();
    placement->striping.stripe_size = cfg.stripe_size;
    placement->striping.servers     = static_cast<int>(servers.size());
    for (int id : servers)
      placement->servers.push_back(layer.server_index(id));
    for (int f = 0; f < forwarding::files_of(app); ++f)
      files.push_back(layer.service().open_file(placement));
  }
  for (size_t rank = 0; rank < streams.size(); ++rank) {
    // Job files are not numbered contiguously: requests name file 0 (or their rank), mapped here.
    auto requests = forwarding::process_requests(app, static_cast<int>(rank), 0);
    for (auto& r : requests)
      r.file = files.at(static_cast<size_t>(r.file));
    io->add_bytes(static_cast<double>(streams[rank].bytes));
    const int node = streams[rank].node;
    sg4::Actor::create(
        "fwdio-" + job.id + "-" + std::to_string(rank), context.machines.at(node).host,
        [io, node, requests]() mutable { run_actor_guarded([&] { io->run_stream(node, std::move(requests)); }); })
        ->daemonize();
  }
  return io;
}

void ForwardedIo::run_stream(int node, std::vector<forwarding::FileRange> requests)
{
  auto& layer               = layer_;
  auto& service             = layer.service();
  const std::uint64_t ctl   = layer.config().control_bytes;
  const int forwarder       = layer.forwarder_of_node(node);
  sg4::Host* client         = context_.machines.at(node).host;
  sg4::Host* forwarder_host = service.forwarder_host(forwarder);
  const Operation op        = read_ ? Operation::Read : Operation::Write;
  for (const auto& range : requests) {
    if (stopped())
      return;
    // As a client process of the standalone mode (scenarios/io_forwarding.cpp): the request (with
    // the data for a write) to the forwarder, its dispatches, the reply (data for a read).
    transfer(client, forwarder_host, read_ ? ctl : range.size, service.transfer_observer());
    service.count_client_request(forwarder, range.size);
    service.enqueue(forwarder, range, op)->done->acquire();
    transfer(forwarder_host, client, read_ ? range.size : ctl, service.transfer_observer());
  }
  stream_done();
}

} // namespace datasched
