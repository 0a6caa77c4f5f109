#pragma once
// Hashes (and the one validity test) for the engine's caches keyed by hosts: a pair of SimGrid objects (a route's
// ends) and a whole host list (an activity's hosts). Pointers are stable for the run
// (SimGrid never moves hosts or links), so hashing the addresses is enough; nothing
// iterates these containers in hash order where the order could reach an output.
#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

#include <simgrid/s4u/Host.hpp>

namespace datasched {

struct PointerPairHash {
  std::size_t operator()(const std::pair<const void*, const void*>& p) const
  {
    return std::hash<const void*>()(p.first) * 31 + std::hash<const void*>()(p.second);
  }
};

/// A list of resource ids (a job's node list), as a hash key.
struct IdListHash {
  std::size_t operator()(const std::vector<int>& ids) const
  {
    std::size_t h = ids.size();
    for (int id : ids)
      h = h * 1000003U ^ std::hash<int>()(id);
    return h;
  }
};

struct HostListHash {
  std::size_t operator()(const std::vector<simgrid::s4u::Host*>& hosts) const
  {
    std::size_t h = hosts.size();
    for (const auto* host : hosts)
      h = h * 1000003U ^ std::hash<const void*>()(host);
    return h;
  }
};

} // namespace datasched
