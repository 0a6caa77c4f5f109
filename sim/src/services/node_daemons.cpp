#include "services/node_daemons.hpp"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>
#include <simgrid/s4u/Host.hpp>

#include "common/json_file.hpp"
#include "model/input_limits.hpp"
#include "model/json_fields.hpp"
#include "services/idle_load.hpp"

namespace datasched {

NodeDaemonsConfig parse_node_daemons(const nlohmann::json& document, const std::string& file)
{
  Fields f(document, "", file);
  NodeDaemonsConfig c;
  c.request_size = f.integer<std::uint64_t>("request_size", c.request_size, {1, limits::kMaxBytes, "bytes"});
  c.costs        = read_daemon_costs(f, /*with_metadata=*/false, IdleForm::Steady);
  if (f.has("idle_seed") && c.costs.idle_form == IdleForm::Steady)
    f.fail("idle_seed", "the idle load is steady without idle_period: it has no phases to draw");
  c.idle_seed = f.integer<std::uint64_t>("idle_seed", 0, {0, limits::kMaxSeed});
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
          {"idle_flops_per_second", config.costs.idle_flops_per_second},
          {"idle_period", config.costs.idle_form == IdleForm::Steady ? 0.0 : config.costs.idle_period}};
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

std::vector<int> NodeDaemons::serving_nodes() const
{
  std::vector<int> nodes;
  for (const int node : node_of_)
    if (node >= 0)
      nodes.push_back(node);
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  return nodes;
}

RunCost NodeDaemons::idle_burst_rate() const
{
  if (config_.costs.idle_flops_per_second <= 0 || config_.costs.idle_form == IdleForm::Steady)
    return {};
  const double nodes = static_cast<double>(serving_nodes().size());
  return {nodes / config_.costs.idle_period, "idle bursts in each simulated second (" + format_estimate(nodes) +
                                                 " serving nodes / idle_period " +
                                                 format_estimate(config_.costs.idle_period) + " s)"};
}

void NodeDaemons::start_idle_load(const Machines& machines) const
{
  if (config_.costs.idle_flops_per_second <= 0)
    return;
  const std::vector<int> nodes     = serving_nodes();
  const std::vector<double> phases = idle_phases(nodes.size(), config_.costs, config_.idle_seed);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    simgrid::s4u::Host* host = machines.at(nodes[i]).host;
    datasched::start_idle_load(host, "idle_daemon_" + host->get_name(), config_.costs, phases.empty() ? 0.0 : phases[i],
                               nullptr);
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
