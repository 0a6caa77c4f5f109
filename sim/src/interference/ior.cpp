#include "interference/ior.hpp"

#include "common/transfer.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Host.hpp>

namespace datasched::interference {

namespace sg4 = simgrid::s4u;

namespace {

/// The latency of the route from `a` to `b` and back (no bandwidth term).
double round_trip_latency(sg4::Host* a, sg4::Host* b)
{
  std::vector<sg4::Link*> links;
  double there = 0;
  double back  = 0;
  a->route_to(b, links, &there);
  links.clear();
  b->route_to(a, links, &back);
  return there + back;
}

/// A message of `bytes` (none for 0: control_bytes 0 makes requests and replies free, as
/// an empty L07 task is; the compound host model has no empty transfer).
void send(sg4::Host* from, sg4::Host* to, std::uint64_t bytes)
{
  if (bytes > 0)
    transfer(from, to, static_cast<double>(bytes));
}

void metadata_call(sg4::Host* client, Service& service, double operations, std::uint64_t control_bytes)
{
  send(client, service.host(), control_bytes);
  service.metadata(operations);
  send(service.host(), client, control_bytes);
}

void process(const Experiment& e, sg4::Host* client, std::size_t file, std::vector<std::unique_ptr<Service>>& storage,
             std::vector<std::unique_ptr<Service>>& metadata, IorStats& stats)
{
  const auto& ior           = e.ior;
  const auto& services      = e.services;
  const std::size_t targets = storage.size();
  Service& md               = *metadata[file % metadata.size()];
  metadata_call(client, md, 1, ior.control_bytes); // the file's creation
  const std::uint64_t per_chunk = services.chunk_size / ior.transfer_size;
  std::uint64_t done            = 0;
  double metadata_due           = 0;
  while (ior.requests_per_process == 0 || done < ior.requests_per_process) {
    const std::uint64_t chunk    = done / per_chunk;
    const std::uint64_t in_chunk = per_chunk - done % per_chunk;
    std::uint64_t requests       = std::min<std::uint64_t>(ior.requests_per_batch, in_chunk);
    if (ior.requests_per_process > 0)
      requests = std::min(requests, ior.requests_per_process - done);
    Service& target = *storage[(file + chunk % static_cast<std::uint64_t>(services.stripe_count)) % targets];
    metadata_due += static_cast<double>(requests) * ior.metadata_ops_per_request;
    if (const double whole = std::floor(metadata_due); whole >= 1) {
      metadata_due -= whole;
      metadata_call(client, md, whole, ior.control_bytes);
    }
    const std::uint64_t bytes = requests * ior.transfer_size;
    send(client, target.host(), bytes);
    target.write(requests, bytes, bytes + requests * ior.sync_bytes);
    send(target.host(), client, ior.control_bytes);
    if (requests > 1)
      sg4::this_actor::sleep_for(static_cast<double>(requests - 1) * round_trip_latency(client, target.host()));
    done += requests;
    stats.requests += requests;
    stats.bytes += bytes;
  }
}

} // namespace

void start_ior(const Experiment& e, const std::vector<sg4::Host*>& hosts,
               std::vector<std::unique_ptr<Service>>& storage, std::vector<std::unique_ptr<Service>>& metadata,
               IorStats& stats)
{
  std::size_t file = 0;
  for (auto* host : hosts)
    for (int p = 0; p < e.ior.processes_per_node; ++p, ++file)
      sg4::Actor::create("ior-" + std::to_string(file), host, [&e, host, file, &storage, &metadata, &stats]() {
        process(e, host, file, storage, metadata, stats);
      })->daemonize();
}

} // namespace datasched::interference
