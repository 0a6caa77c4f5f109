#include "services/node_daemons.hpp"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/Host.hpp>

#include "common/json_file.hpp"
#include "model/json_fields.hpp"

namespace datasched {

NodeDaemonsConfig parse_node_daemons(const nlohmann::json& document, const std::string& file)
{
  Fields f(document, "", file);
  NodeDaemonsConfig c;
  c.request_size = f.integer<std::uint64_t>("request_size", c.request_size, {1, limits::kMaxBytes, "bytes"});
  for (const char* burst_key : {"idle_period", "idle_phase"})
    if (f.has(burst_key))
      f.fail(burst_key, "idle load runs without bursts in scheduling runs (a capped background execution per node, "
                        "services/node_daemons.hpp): give idle_flops_per_second alone");
  c.costs = read_daemon_costs(f, /*with_metadata=*/false);
  f.finish();
  return c;
}

NodeDaemonsConfig load_node_daemons(const std::string& path)
{
  return parse_node_daemons(read_json_input(path, "--storage-daemons"), path);
}

nlohmann::json describe_node_daemons(const NodeDaemonsConfig& config)
{
  return {{"request_size", config.request_size},
          {"flops_per_request", config.costs.flops_per_request},
          {"flops_per_byte", config.costs.flops_per_byte},
          {"idle_flops_per_second", config.costs.idle_flops_per_second}};
}

NodeDaemons::NodeDaemons(NodeDaemonsConfig config, const StorageEndpoints& endpoints, int nb_resources)
    : config_(config), node_of_(static_cast<size_t>(std::max(nb_resources, 0)), -1)
{
  for (int id = 0; id < nb_resources; ++id)
    if (endpoints.is_nvm(id))
      node_of_[static_cast<size_t>(id)] = endpoints.owner_of(id);
}

double NodeDaemons::flow_work(double bytes) const
{
  const double requests = std::ceil(bytes / static_cast<double>(config_.request_size));
  return requests * config_.costs.flops_per_request + bytes * config_.costs.flops_per_byte;
}

void NodeDaemons::start_idle_load(const Machines& machines) const
{
  const double rate = config_.costs.idle_flops_per_second;
  if (rate <= 0)
    return;
  std::vector<int> nodes;
  for (const int node : node_of_)
    if (node >= 0)
      nodes.push_back(node);
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  for (const int node : nodes) {
    simgrid::s4u::Host* host = machines.at(node).host;
    simgrid::s4u::Actor::create("idle_daemon_" + host->get_name(), host, [rate] {
      const simgrid::s4u::ExecPtr load = simgrid::s4u::this_actor::exec_init(rate * kIdleHorizon);
      load->set_bound(rate);
      load->start();
      load->wait();
    })->daemonize();
  }
}

bool NodeDaemons::serves_any(const std::vector<int>& hosts) const
{
  return std::any_of(hosts.begin(), hosts.end(), [&](int id) {
    return id >= 0 && static_cast<size_t>(id) < node_of_.size() && node_of_[static_cast<size_t>(id)] >= 0;
  });
}

double NodeDaemons::add_work(std::vector<int>& hosts, std::vector<double>& flops, const PairBytes& bytes) const
{
  const size_t n = hosts.size();
  if (bytes.empty() || n == 0)
    return 0;
  std::vector<std::pair<int, double>> work; // (daemon's node, flops), in flow order
  auto node_of = [&](int id) {
    return id >= 0 && static_cast<size_t>(id) < node_of_.size() ? node_of_[static_cast<size_t>(id)] : -1;
  };
  for (const PairBytes::Pair& flow : bytes)
    for (int end : {hosts[flow.src], hosts[flow.dst]})
      if (const int node = node_of(end); node >= 0)
        work.emplace_back(node, flow_work(flow.bytes));
  if (work.empty())
    return 0;
  flops.resize(n, 0.0);
  double added = 0;
  for (const auto& [node, f] : work) {
    auto at = std::find(hosts.begin(), hosts.end(), node);
    if (at == hosts.end()) { // the node joins the ptask, with no flows of its own
      hosts.push_back(node);
      flops.push_back(0.0);
      at = hosts.end() - 1;
    }
    flops[static_cast<size_t>(at - hosts.begin())] += f;
    added += f;
  }
  return added;
}

} // namespace datasched
