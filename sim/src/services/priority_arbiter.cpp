#include "services/priority_arbiter.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <unordered_set>

#include <simgrid/s4u/Engine.hpp>

namespace datasched {

void PriorityArbiter::configure(std::vector<double> weights, bool split)
{
  weights_ = std::move(weights);
  split_   = split;
}

const PriorityArbiter::Route& PriorityArbiter::route(simgrid::s4u::Host* src, simgrid::s4u::Host* dst)
{
  auto [it, inserted] = routes_.try_emplace({src, dst});
  if (inserted)
    src->route_to(dst, it->second, nullptr);
  return it->second;
}

std::vector<const simgrid::s4u::Link*> PriorityArbiter::shared_links(const std::vector<simgrid::s4u::Host*>& hosts,
                                                                     const PairBytes& bytes)
{
  // An application's all-to-all phases repeat on the same hosts: their links are found
  // once per host list (n^2 routes each time otherwise).
  const size_t n       = hosts.size();
  const bool all_pairs = bytes.every_pair_of(n);
  if (all_pairs)
    if (auto known = all_pairs_links_.find(hosts); known != all_pairs_links_.end())
      return known->second;
  // The shared links it uses, each once (a FATPIPE is not shared).
  std::vector<const simgrid::s4u::Link*> links;
  std::unordered_set<const simgrid::s4u::Link*> seen;
  for (const PairBytes::Pair& flow : bytes)
    for (const simgrid::s4u::Link* link : route(hosts[flow.src], hosts[flow.dst]))
      if (link->get_sharing_policy() != simgrid::s4u::Link::SharingPolicy::FATPIPE && seen.insert(link).second)
        links.push_back(link);
  // Deterministic order (by name; the first-use order would do too, but by name it is
  // independent of the order of the hosts).
  std::sort(links.begin(), links.end(), [](const auto* a, const auto* b) { return a->get_name() < b->get_name(); });
  if (all_pairs)
    all_pairs_links_.emplace(hosts, links);
  return links;
}

void PriorityArbiter::started(const simgrid::s4u::ExecPtr& exec, int traffic_class,
                              const std::vector<simgrid::s4u::Host*>& hosts, const PairBytes& bytes)
{
  if (!active())
    return;
  Running r;
  r.exec          = exec;
  r.traffic_class = traffic_class;
  r.order         = started_++;
  if (split_ && !bytes.empty()) {
    r.links = shared_links(hosts, bytes);
    count(r, +1);
  }
  // Only the activities on its links can see their counts change; itself always (with no
  // shared link it gets its class weight, as on an uncontended link).
  std::vector<const simgrid::s4u::Exec*> which;
  if (split_)
    which = users_of(r.links);
  if (which.empty())
    which.push_back(exec.get());
  running_.emplace(exec.get(), std::move(r));
  update(which);
}

void PriorityArbiter::ended(const simgrid::s4u::Exec* exec)
{
  auto it = running_.find(exec);
  if (it == running_.end())
    return;
  if (!split_) {
    running_.erase(it);
    return;
  }
  count(it->second, -1);
  const auto which = users_of(it->second.links);
  running_.erase(it);
  update(which);
}

void PriorityArbiter::count(const Running& r, double sign)
{
  const auto c = static_cast<std::size_t>(r.traffic_class);
  for (const auto* link : r.links) {
    auto& units = units_on_link_[link];
    if (units.empty())
      units.assign(weights_.size(), 0.0);
    units[c] += sign;
    if (sign > 0)
      users_on_link_[link].insert(r.exec.get());
    else
      users_on_link_[link].erase(r.exec.get());
  }
}

std::vector<const simgrid::s4u::Exec*>
PriorityArbiter::users_of(const std::vector<const simgrid::s4u::Link*>& links) const
{
  // Gathered through a set (an activity shares many links with another), returned in any
  // order: update() applies the changes in start order.
  std::unordered_set<const simgrid::s4u::Exec*> found;
  for (const auto* link : links)
    if (auto users = users_on_link_.find(link); users != users_on_link_.end())
      found.insert(users->second.begin(), users->second.end());
  return {found.begin(), found.end()};
}

double PriorityArbiter::wanted_priority(const Running& r)
{
  const auto c = static_cast<std::size_t>(r.traffic_class);
  double crowd = 1;
  if (split_) {
    // Its class's units on its likely bottleneck: the shared link it uses that leaves the
    // least bandwidth per unit using it (all classes); on a tie, the more crowded one.
    double least = std::numeric_limits<double>::infinity();
    for (const auto* link : r.links) {
      const auto& units  = units_on_link_[link];
      const double total = std::accumulate(units.begin(), units.end(), 0.0);
      const double share = link->get_bandwidth() / total;
      if (share < least || (share == least && units[c] > crowd)) {
        least = share;
        crowd = std::max(1.0, units[c]);
      }
    }
  }
  return weights_[c] / crowd;
}

void PriorityArbiter::update(const std::vector<const simgrid::s4u::Exec*>& which)
{
  // 1. Wanted priorities under the current counts, without any simcall.
  std::vector<std::pair<std::uint64_t, simgrid::s4u::ExecPtr>> changed;
  for (const auto* exec : which) {
    auto it = running_.find(exec);
    if (it == running_.end())
      continue;
    Running& r = it->second;
    r.wanted   = wanted_priority(r);
    if (r.wanted != r.applied)
      changed.emplace_back(r.order, r.exec);
  }
  std::sort(changed.begin(), changed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  // 2. Applied in start order, each looked up again (see the class comment). An activity
  // that ended at this date but whose actor has not yet called ended() keeps its entry:
  // only one with work left still has a share to set. Its s4u state says STARTED until
  // its waiter wakes, while SimGrid 3.32 has already freed its model action
  // (update_priority would then dereference a null action): the remaining ratio, 0 once
  // the action is gone, tells. During its latency the priority is kept for when the
  // latency is paid (priority_arbiter.hpp).
  for (const auto& [order, exec] : changed) {
    if (exec->get_state() != simgrid::s4u::Activity::State::STARTED || exec->get_remaining_ratio() <= 0)
      continue;
    auto it = running_.find(exec.get());
    if (it == running_.end() || it->second.wanted == it->second.applied)
      continue;
    const double priority = it->second.wanted;
    it->second.applied    = priority;
    exec->update_priority(priority); // a simcall: `it` may be invalid after it
  }
}

} // namespace datasched
