#include "execution/ipc_sampling.hpp"

#include <algorithm>
#include <unordered_map>

#include <simgrid/s4u/Link.hpp>

namespace datasched {

namespace {

using simgrid::s4u::Host;
using simgrid::s4u::Link;

/// Adds a flow of `bytes` over `link` as SimGrid's ptask model does: summed on a shared
/// link, the largest flow on a FATPIPE.
void load_link(std::unordered_map<const Link*, double>& load, const Link* link, double bytes)
{
  double& l = load[link];
  l         = link->get_sharing_policy() == Link::SharingPolicy::FATPIPE ? std::max(l, bytes) : l + bytes;
}

/// The largest load / bandwidth over the links of the flows (i -> j, bytes(i, j)).
template <typename Bytes>
double bottleneck_seconds(const std::vector<Host*>& hosts, Bytes bytes)
{
  std::unordered_map<const Link*, double> load;
  std::vector<Link*> route;
  const size_t n = hosts.size();
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      const double b = bytes(i, j);
      if (b <= 0)
        continue;
      route.clear();
      hosts[i]->route_to(hosts[j], route, nullptr);
      for (const Link* link : route)
        load_link(load, link, b);
    }
  double worst = 0;
  for (const auto& [link, l] : load)
    worst = std::max(worst, l / link->get_bandwidth());
  return worst;
}

} // namespace

double AllToAllCalibration::scale(const ActivitySpec& sampled, const std::vector<Host*>& hosts)
{
  auto it = cache_.find(sampled.hosts);
  if (it != cache_.end())
    return it->second;
  const size_t n     = hosts.size();
  const double pair  = sampled.exact_pair_bytes;
  const double exact = bottleneck_seconds(hosts, [pair](size_t i, size_t j) { return i == j ? 0.0 : pair; });
  const double approx =
      bottleneck_seconds(hosts, [&sampled, n](size_t i, size_t j) { return sampled.bytes[i * n + j]; });
  const double factor = exact > 0 && approx > 0 ? exact / approx : 1.0;
  cache_.emplace(sampled.hosts, factor);
  return factor;
}

} // namespace datasched
