#include "services/staging_layer.hpp"

#include <algorithm>

#include <simgrid/s4u/Disk.hpp>

#include "common/csv.hpp"
#include "common/fatal.hpp"
#include "common/json_file.hpp"
#include "model/input_limits.hpp"
#include "model/interval_set.hpp"
#include "model/json_fields.hpp"
#include "model/machines.hpp"
#include "model/platform_check.hpp"
#include "model/storage_endpoints.hpp"

namespace datasched {

namespace sg4 = simgrid::s4u;

namespace {
/// Byte counts of the file are doubles (the server's accounting): up to 10^15 (a petabyte per
/// server), where a double still holds every whole byte (2^53 ~ 9e15).
constexpr double kMaxBytes = 1e15;
} // namespace

StagingParams read_staging_params(Fields& f, double& capacity, double max_bytes)
{
  StagingParams p;
  p.buffer_bytes   = f.number("buffer_bytes", p.buffer_bytes, {0, true, max_bytes, "bytes"});
  capacity         = f.number("capacity", 0, {0, false, max_bytes, "bytes"});
  p.idle_seconds   = f.number("idle_seconds", p.idle_seconds, {0, false, limits::kMaxSeconds, "seconds"});
  p.drain_chunk    = f.number("drain_chunk", p.drain_chunk, {0, true, max_bytes, "bytes"});
  p.high_watermark = f.number("high_watermark", p.high_watermark, {0, true, 1, "fraction of the capacity"});
  return p;
}

StagingLayerConfig parse_staging_layer(const nlohmann::json& doc, const std::string& file)
{
  StagingLayerConfig c;
  c.file = file;
  Fields f(doc, "", file);
  c.block_size = f.number("block_size", c.block_size, {0, true, kMaxBytes, "bytes"});
  c.params     = read_staging_params(f, c.capacity, kMaxBytes);
  c.seed       = f.integer<std::uint64_t>("seed", 0, {0, limits::kMaxSeed});
  f.finish();
  return c;
}

StagingLayerConfig load_staging_layer(const std::string& path)
{
  return parse_staging_layer(read_json_input(path, "--staging-layer"), path);
}

void StagingLayer::Transfers::absorb(sg4::Host* client, sg4::Host* server, double bytes, int /*sl*/)
{
  transfer(client, server, bytes, observer_);
}

void StagingLayer::Transfers::drain(sg4::Host* port, sg4::Host* destination, double bytes)
{
  transfer(port, destination, bytes, observer_);
}

StagingLayer::StagingLayer(StagingLayerConfig config, const Machines& machines, const StorageEndpoints& endpoints,
                           TransferObserver* observer, const std::string& platform_file)
    : config_(std::move(config)), transfers_(observer)
{
  const std::string where = "--staging-layer " + config_.file + ": platform '" + platform_file + "'";
  for (const Machine& m : machines.all()) {
    auto it = m.properties.find("datasched_role");
    if (it == m.properties.end() || it->second != "staging")
      continue;
    if (m.role != Role::Storage)
      throw InputError(where + ": staging host '" + m.name +
                       "' must also have role=storage (else the scheduler would run jobs on it)");
    const std::string host = where + ": staging host '" + m.name + "'";
    sg4::Disk* ssd = staging_disk(m.host, "", host, ""); // the layer has no disk field: one <disk> per staging host
    const double capacity = staging_capacity(config_.capacity, ssd, host);
    // One seed per server, from the file's seed and the server's index.
    const std::uint64_t seed = config_.seed * 1000003u + servers_.size();
    servers_.push_back(
        std::make_unique<StagingServer>(config_.params, m.host, ssd, m.host, capacity, transfers_, 0, seed));
    server_ids_.push_back(m.id);
  }
  if (servers_.empty())
    throw InputError(where + " has no staging server (no host with datasched_role=staging)");
  auto check_route = [&](sg4::Host* from, sg4::Host* to) {
    if (std::string why = RouteChecker::route_problem(from, to); !why.empty())
      throw InputError(where + ": " + why);
  };
  const auto nodes = static_cast<std::size_t>(machines.nb_compute());
  for (std::size_t c = 0; c < nodes; ++c) {
    server_of_node_.push_back(c * servers_.size() / nodes);
    const int dram = endpoints.dram_of(static_cast<int>(c));
    client_of_node_.push_back(machines.at(dram >= 0 ? dram : static_cast<int>(c)).host);
    check_route(client_of_node_.back(), servers_[server_of_node_.back()]->host());
  }
  for (const auto& server : servers_)
    for (int io : endpoints.io_servers())
      check_route(server->host(), machines.at(io).host);
}

sg4::Host* StagingLayer::client_of_node(int compute_id) const
{
  return client_of_node_.at(static_cast<std::size_t>(compute_id));
}

StagingServer& StagingLayer::server_of_node(int compute_id)
{
  return *servers_.at(server_of_node_.at(static_cast<std::size_t>(compute_id)));
}

void StagingLayer::start_actors()
{
  for (auto& server : servers_)
    server->start_actors();
}

void StagingLayer::write_outputs(const std::string& prefix) const
{
  std::string out = "server,absorbed_bytes,ssd_bytes,drained_bytes,blocks,chunks,forced_chunks,drain_busy_seconds,"
                    "first_drain,last_drain_end,max_fill_bytes,left_bytes\n";
  for (const auto& server : servers_) {
    const StagingStats& s = server->stats();
    out += server->name() + "," + whole_number(s.absorbed_bytes) + "," + whole_number(s.ssd_bytes) + "," +
           whole_number(s.drained_bytes) + "," + std::to_string(s.blocks) + "," + std::to_string(s.chunks) + "," +
           std::to_string(s.forced_chunks) + "," + fixed6(s.drain_busy) + "," + fixed6(s.first_drain) + "," +
           fixed6(s.last_drain_end) + "," + whole_number(s.max_fill) + "," +
           whole_number(server->buffered_bytes() + server->staged_bytes()) + "\n";
  }
  write_file_atomically(prefix + "_staging.csv", out);
}

nlohmann::json StagingLayer::describe() const
{
  std::vector<IntervalSet> nodes(servers_.size());
  for (std::size_t c = 0; c < server_of_node_.size(); ++c)
    nodes[server_of_node_[c]].insert(static_cast<int>(c));
  nlohmann::json servers = nlohmann::json::array();
  for (std::size_t s = 0; s < servers_.size(); ++s)
    servers.push_back({{"id", server_ids_[s]}, {"name", servers_[s]->name()}, {"nodes", nodes[s].to_string()}});
  const StagingParams& p = config_.params;
  return {{"servers", servers},
          {"block_size", config_.block_size},
          {"buffer_bytes", p.buffer_bytes},
          {"idle_seconds", p.idle_seconds},
          {"drain_chunk", p.drain_chunk},
          {"high_watermark", p.high_watermark}};
}

} // namespace datasched
