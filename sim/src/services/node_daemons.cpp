#include "services/node_daemons.hpp"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "common/json_file.hpp"
#include "model/json_fields.hpp"

namespace datasched {

NodeDaemonsConfig parse_node_daemons(const nlohmann::json& document, const std::string& file)
{
  Fields f(document, "", file);
  NodeDaemonsConfig c;
  c.request_size = f.integer<std::uint64_t>("request_size", c.request_size, {1, limits::kMaxBytes, "bytes"});
  c.costs        = read_daemon_costs(f, /*with_metadata=*/false);
  if (c.costs.idle_flops_per_second > 0)
    f.fail("idle_flops_per_second",
           "idle daemon load is not modelled in scheduling runs (only by the --interference scenario): give 0");
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
          {"flops_per_byte", config.costs.flops_per_byte}};
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

bool NodeDaemons::serves_any(const std::vector<int>& hosts) const
{
  return std::any_of(hosts.begin(), hosts.end(), [&](int id) {
    return id >= 0 && static_cast<size_t>(id) < node_of_.size() && node_of_[static_cast<size_t>(id)] >= 0;
  });
}

double NodeDaemons::add_work(std::vector<int>& hosts, std::vector<double>& flops, std::vector<double>& bytes) const
{
  const size_t n = hosts.size();
  if (bytes.size() != n * n || n == 0)
    return 0;
  std::vector<std::pair<int, double>> work; // (daemon's node, flops), in flow order
  auto node_of = [&](int id) {
    return id >= 0 && static_cast<size_t>(id) < node_of_.size() ? node_of_[static_cast<size_t>(id)] : -1;
  };
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      const double b = bytes[i * n + j];
      if (b <= 0)
        continue;
      for (int end : {hosts[i], hosts[j]})
        if (const int node = node_of(end); node >= 0)
          work.emplace_back(node, flow_work(b));
    }
  if (work.empty())
    return 0;
  flops.resize(n, 0.0);
  double added = 0;
  for (const auto& [node, f] : work) {
    auto at = std::find(hosts.begin(), hosts.end(), node);
    if (at == hosts.end()) { // the node joins the ptask: one more row and column of zero bytes
      const size_t m = hosts.size();
      std::vector<double> grown((m + 1) * (m + 1), 0.0);
      for (size_t i = 0; i < m; ++i)
        std::copy(bytes.begin() + static_cast<std::ptrdiff_t>(i * m),
                  bytes.begin() + static_cast<std::ptrdiff_t>((i + 1) * m),
                  grown.begin() + static_cast<std::ptrdiff_t>(i * (m + 1)));
      bytes = std::move(grown);
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
