#include "execution/ipc_sampling.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include <simgrid/s4u/Link.hpp>

#include "model/route_memo.hpp"

namespace datasched {

namespace {

using simgrid::s4u::Host;

/// Per-link loads of one pattern, by link number of a RouteMemo, summed as SimGrid's ptask
/// model does (on a shared link the flows add up, a FATPIPE carries its largest flow), in
/// the order the flows come.
class LinkLoads {
public:
  void add(const RouteMemo& memo, RouteMemo::Route route, double bytes)
  {
    for (std::uint32_t k = 0; k < route.size; ++k) {
      const std::uint32_t link = route.links[k];
      if (link >= load_.size())
        load_.resize(memo.link_count(), -1.0);
      double& l = load_[link];
      if (l < 0) { // first flow on this link
        l = 0;
        used_.push_back(link);
      }
      l = memo.fatpipe(link) ? std::max(l, bytes) : l + bytes;
    }
  }

  /// The largest load / bandwidth over the links used.
  double bottleneck_seconds(const RouteMemo& memo) const
  {
    double worst = 0;
    for (std::uint32_t link : used_)
      worst = std::max(worst, load_[link] / memo.link(link)->get_bandwidth());
    return worst;
  }

private:
  std::vector<double> load_; ///< by link number; -1 for a link no flow uses
  std::vector<std::uint32_t> used_;
};

/// Per-link loads of the exact pattern, where every flow carries the same bytes: a link's
/// load depends only on how many flows cross it, so the pair loop only counts, and each
/// load is then the sum of that many copies of the bytes, added one by one as LinkLoads
/// (and SimGrid) would, so the very same double.
class EqualFlowLoads {
public:
  void add(const RouteMemo& memo, RouteMemo::Route route)
  {
    for (std::uint32_t k = 0; k < route.size; ++k) {
      const std::uint32_t link = route.links[k];
      if (link >= count_.size())
        count_.resize(memo.link_count(), 0);
      if (count_[link]++ == 0)
        used_.push_back(link);
    }
  }

  /// The largest load / bandwidth over the links used, each flow carrying `bytes`.
  double bottleneck_seconds(const RouteMemo& memo, double bytes) const
  {
    std::uint32_t most = 0;
    for (std::uint32_t link : used_)
      most = std::max(most, count_[link]);
    std::vector<double> sum_of(most + 1, 0.0); // sum_of[k]: k copies of bytes, added in turn
    for (std::uint32_t k = 1; k <= most; ++k)
      sum_of[k] = sum_of[k - 1] + bytes;
    double worst = 0;
    for (std::uint32_t link : used_) {
      const double load = memo.fatpipe(link) ? bytes : sum_of[count_[link]];
      worst             = std::max(worst, load / memo.link(link)->get_bandwidth());
    }
    return worst;
  }

private:
  std::vector<std::uint32_t> count_; ///< flows crossing each link, by link number
  std::vector<std::uint32_t> used_;
};

} // namespace

std::string AllToAllCalibration::calibrate(const ActivitySpec& sampled, const std::vector<Host*>& hosts,
                                           RouteChecker& routes)
{
  if (cache_.count(sampled.hosts) != 0)
    return {};
  // One route per ordered pair serves both patterns: the exact one loads every pair with
  // exact_pair_bytes, the sampled one its own bytes (a subset of the pairs). The routes
  // come in row-major order, as the sampled pairs are kept: one cursor walks them.
  EqualFlowLoads exact;
  LinkLoads approx;
  const RouteMemo& memo = routes.route_memo();
  auto next_sampled     = sampled.bytes.begin();
  std::string why       = routes.visit_all_routes(hosts, [&](size_t i, size_t j, RouteMemo::Route route) {
    exact.add(memo, route);
    while (next_sampled != sampled.bytes.end() &&
           (next_sampled->src < i || (next_sampled->src == i && next_sampled->dst < j)))
      ++next_sampled; // a pair the visit skips (a host to itself)
    if (next_sampled != sampled.bytes.end() && next_sampled->src == i && next_sampled->dst == j)
      approx.add(memo, route, next_sampled->bytes);
  });
  if (!why.empty())
    return why;
  const double exact_seconds  = exact.bottleneck_seconds(memo, sampled.exact_pair_bytes);
  const double approx_seconds = approx.bottleneck_seconds(memo);
  cache_.emplace(sampled.hosts, exact_seconds > 0 && approx_seconds > 0 ? exact_seconds / approx_seconds : 1.0);
  return {};
}

double AllToAllCalibration::scale(const ActivitySpec& sampled) const
{
  return cache_.at(sampled.hosts);
}

} // namespace datasched
