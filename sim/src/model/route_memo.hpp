#pragma once
// Routes between host pairs, each routed once per run and kept by pair, with the links
// numbered densely. The calibration of sampled all-to-alls (execution/ipc_sampling.hpp)
// needs the route of every pair of each new host list, and the jobs of one machine share
// most of their pairs: 50 applications on 600 nodes visit each pair about a dozen times,
// and SimGrid routes a pair through nested zones with allocations and hash lookups (a
// fifth of a paper-scale run). Here a kept route is a row lookup, and a link is a small
// integer, so per-link sums are vector slots instead of hash entries.
//
// Memory: 4 bytes per pair slot of the hosts seen (rows grow on demand) and 4 per link of
// each kept route. Past the bound the memo starts again empty (between two uses only: host
// and link numbers restart); a host list too large for the bound is not memoised at all.
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

namespace datasched {

class RouteMemo {
public:
  /// A kept route: `size` link numbers at `links` (valid until the next keep()).
  struct Route {
    const std::uint32_t* links = nullptr;
    std::uint32_t size         = 0;
  };

  explicit RouteMemo(std::size_t max_bytes = std::size_t{256} << 20) : max_bytes_(max_bytes) {}

  /// Whether a list of n hosts can be memoised within the bound (its n x n slots).
  bool fits(std::size_t n) const { return n * n * sizeof(std::uint32_t) <= max_bytes_ / 2; }
  /// Empties the memo when past its bound. Host and link numbers restart: call it
  /// before numbering a list's hosts, never while using routes.
  void trim();

  /// The number of `host` (assigned on first sight).
  std::uint32_t host_number(simgrid::s4u::Host* host);
  /// The kept route from host number `src` to `dst`, if any.
  bool find(std::uint32_t src, std::uint32_t dst, Route& route) const;
  /// Keeps `links` as the route from `src` to `dst` and returns it.
  Route keep(std::uint32_t src, std::uint32_t dst, const std::vector<simgrid::s4u::Link*>& links);
  /// `links` numbered without being kept (for lists that do not fit): valid until the next call.
  Route number(const std::vector<simgrid::s4u::Link*>& links);

  std::size_t link_count() const { return links_.size(); }
  simgrid::s4u::Link* link(std::uint32_t number) const { return links_[number]; }
  bool fatpipe(std::uint32_t number) const { return fatpipe_[number] != 0; }

private:
  static constexpr std::uint32_t kNone = UINT32_MAX;
  struct Span {
    std::uint32_t start;
    std::uint32_t size;
  };

  std::size_t bytes() const;
  std::uint32_t link_number(simgrid::s4u::Link* link);

  std::size_t max_bytes_;
  std::unordered_map<simgrid::s4u::Host*, std::uint32_t> host_number_;
  std::vector<std::vector<std::uint32_t>> route_of_; ///< [src][dst]: index in spans_, or kNone
  std::vector<Span> spans_;                          ///< each kept route's place in pool_
  std::vector<std::uint32_t> pool_;                  ///< link numbers of the kept routes
  std::unordered_map<simgrid::s4u::Link*, std::uint32_t> link_number_;
  std::vector<simgrid::s4u::Link*> links_;
  std::vector<std::uint8_t> fatpipe_;
  std::vector<std::uint32_t> scratch_; ///< number()'s result
  std::size_t row_slots_ = 0;
};

} // namespace datasched
