#include "forwarding/job_layer.hpp"

#include <simgrid/s4u/Disk.hpp>
#include <simgrid/s4u/Host.hpp>

#include "common/fatal.hpp"
#include "common/json_file.hpp"
#include "forwarding/field_ranges.hpp"
#include "forwarding/layout.hpp"
#include "forwarding/outputs.hpp"
#include "model/json_fields.hpp"
#include "model/machines.hpp"
#include "model/storage_endpoints.hpp"
#include "services/hdd.hpp"

namespace datasched::forwarding {

JobLayerConfig parse_job_layer(const nlohmann::json& doc, const std::string& file)
{
  JobLayerConfig c;
  c.file = file;
  Fields f(doc, "", file);
  auto sched                     = f.choice("scheduler", "", {"fifo", "hbrr", "twins"}, true);
  c.forwarding.scheduler         = sched == "fifo"   ? SchedulerKind::Fifo
                                   : sched == "hbrr" ? SchedulerKind::Hbrr
                                                     : SchedulerKind::Twins;
  c.forwarding.window            = f.number("window", 0.001, kWindowRange);
  c.forwarding.max_in_flight     = f.integer("max_in_flight", 16, kMaxInFlightRange);
  c.forwarding.aggregation_limit = f.integer("aggregation_limit", 16, kAggregationRange);
  c.forwarding.twins_drain       = f.boolean("drain", false);
  if (c.forwarding.twins_drain && c.forwarding.scheduler != SchedulerKind::Twins)
    f.fail("drain", "only applies to scheduler \"twins\"");
  c.forwarding.mapping = f.choice("mapping", "block", {"block", "round_robin"}, false) == "block"
                             ? ClientMapping::Block
                             : ClientMapping::RoundRobin;
  c.request_size       = f.integer<std::uint64_t>("request_size", 1 << 20, {1, limits::kMaxBytes, "bytes"});
  auto pattern  = f.choice("pattern", "file_per_process", {"file_per_process", "shared_strided", "shared_contiguous"});
  c.pattern     = pattern == "file_per_process" ? AccessPattern::FilePerProcess
                  : pattern == "shared_strided" ? AccessPattern::SharedStrided
                                                : AccessPattern::SharedContiguous;
  c.stripe_size = f.integer<std::uint64_t>("stripe_size", 65536, {1, limits::kMaxBytes, "bytes"});
  c.hdd_alpha   = f.number("hdd_alpha", 0, {0, false, limits::kMaxAmount});
  c.hdd_seek_scale = f.number("hdd_seek_scale", 0, {0, false, limits::kMaxAmount, "bytes"});
  c.control_bytes  = f.integer<std::uint64_t>("control_bytes", 1, {0, limits::kMaxBytes, "bytes"});
  f.finish();
  return c;
}

JobLayerConfig load_job_layer(const std::string& path)
{
  return parse_job_layer(read_json_input(path, "--forwarding-layer"), path);
}

JobLayer::JobLayer(JobLayerConfig config, const Machines& machines, const StorageEndpoints& endpoints,
                   const std::string& platform_file)
    : config_(std::move(config))
{
  const std::string where = "--forwarding-layer " + config_.file + ": platform '" + platform_file + "'";
  std::vector<simgrid::s4u::Host*> forwarders;
  for (const Machine& m : machines.all()) {
    auto it = m.properties.find("datasched_role");
    if (it != m.properties.end() && it->second == "forwarder")
      forwarders.push_back(m.host);
  }
  if (forwarders.empty())
    throw InputError(where + " has no I/O forwarder (no host with datasched_role=forwarder)");
  if (endpoints.io_servers().empty())
    throw InputError(where + " has no data server (no host with datasched_role=io_server)");
  std::vector<simgrid::s4u::Host*> servers;
  std::vector<simgrid::s4u::Disk*> disks;
  server_index_.assign(static_cast<std::size_t>(machines.size()), -1);
  for (int id : endpoints.io_servers()) {
    auto* host = machines.at(id).host;
    auto list  = host->get_disks();
    if (list.empty())
      throw InputError(where + ": data server '" + host->get_name() + "' has no <disk>");
    server_index_[static_cast<std::size_t>(id)] = static_cast<int>(servers.size());
    servers.push_back(host);
    disks.push_back(list.front());
  }
  config_.forwarding.forwarders = static_cast<int>(forwarders.size());
  for (int c = 0; c < machines.nb_compute(); ++c)
    forwarder_of_node_.push_back(forwarder_of(config_.forwarding, c, machines.nb_compute()));
  server_hosts_ = servers;
  service_ = std::make_unique<Service>(config_.forwarding, std::move(forwarders), std::move(servers), std::move(disks),
                                       config_.control_bytes, false, config_.hdd_alpha, config_.hdd_seek_scale);
}

void JobLayer::write_outputs(const std::string& prefix)
{
  std::vector<std::string> forwarders, servers;
  for (std::size_t f = 0; f < service_->nb_forwarders(); ++f)
    forwarders.push_back(service_->forwarder_host(static_cast<int>(f))->get_name());
  for (auto* host : server_hosts_)
    servers.push_back(host->get_name());
  write_layer_outputs(prefix, config_.forwarding.scheduler, forwarders, servers, service_->forwarder_stats(),
                      service_->server_stats());
}

int JobLayer::server_index(int resource_id) const
{
  return resource_id >= 0 && resource_id < static_cast<int>(server_index_.size())
             ? server_index_[static_cast<std::size_t>(resource_id)]
             : -1;
}

} // namespace datasched::forwarding
