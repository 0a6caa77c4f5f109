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

/// The largest load / bandwidth over the links of a load map.
double bottleneck_seconds(const std::unordered_map<const Link*, double>& load)
{
  double worst = 0;
  for (const auto& [link, l] : load)
    worst = std::max(worst, l / link->get_bandwidth());
  return worst;
}

} // namespace

std::string AllToAllCalibration::calibrate(const ActivitySpec& sampled, const std::vector<Host*>& hosts,
                                           RouteChecker& routes)
{
  if (cache_.count(sampled.hosts) != 0)
    return {};
  // One route per ordered pair serves both patterns: the exact one loads every pair with
  // exact_pair_bytes, the sampled one its own bytes (a subset of the pairs). The routes
  // come in row-major order, as the sampled pairs are kept: one cursor walks them.
  std::unordered_map<const Link*, double> exact_load, sampled_load;
  auto next_sampled = sampled.bytes.begin();
  std::string why   = routes.visit_all_routes(hosts, [&](size_t i, size_t j, const std::vector<Link*>& route) {
    while (next_sampled != sampled.bytes.end() &&
           (next_sampled->src < i || (next_sampled->src == i && next_sampled->dst < j)))
      ++next_sampled; // a pair the visit skips (a host to itself)
    const bool is_sampled = next_sampled != sampled.bytes.end() && next_sampled->src == i && next_sampled->dst == j;
    for (const Link* link : route) {
      load_link(exact_load, link, sampled.exact_pair_bytes);
      if (is_sampled)
        load_link(sampled_load, link, next_sampled->bytes);
    }
  });
  if (!why.empty())
    return why;
  const double exact = bottleneck_seconds(exact_load), approx = bottleneck_seconds(sampled_load);
  cache_.emplace(sampled.hosts, exact > 0 && approx > 0 ? exact / approx : 1.0);
  return {};
}

double AllToAllCalibration::scale(const ActivitySpec& sampled) const
{
  return cache_.at(sampled.hosts);
}

} // namespace datasched
