#include "execution/traffic.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include <simgrid/s4u/Engine.hpp>

#include "fatal.hpp"

namespace datasched {

namespace {

/// FP's IPC priority over storage's: strict in practice (DESIGN.md measured 1e6:1 on one
/// link: 1.000001 s against 1 s) while keeping BMF's equilibrium well conditioned.
constexpr double kStrictFactor = 1e6;

double positive_number(const std::string& text, const std::string& where)
{
  try {
    size_t used    = 0;
    const double v = std::stod(text, &used);
    if (used == text.size() && std::isfinite(v) && v > 0)
      return v;
  } catch (const std::exception&) {
  }
  throw InputError(where + ": '" + text + "' is not a positive number");
}

} // namespace

TrafficPolicy TrafficPolicy::parse(const std::string& text)
{
  const std::string where = "option --traffic-policy '" + text + "'";
  TrafficPolicy p;
  p.text = text;
  if (text == "none")
    return p;
  if (text == "np") {
    p.kind = Kind::Np;
    return p;
  }
  if (text == "fp") {
    p.kind                                            = Kind::Fp;
    p.weight[static_cast<int>(TrafficClass::Ipc)]     = kStrictFactor;
    p.weight[static_cast<int>(TrafficClass::Storage)] = 1;
    return p;
  }
  if (text.rfind("ba:", 0) == 0) {
    const double x = positive_number(text.substr(3), where);
    if (x >= 100)
      throw InputError(where + ": the IPC share must be between 0 and 100 (exclusive); use fp for strict priority");
    p.kind                                            = Kind::Ba;
    p.weight[static_cast<int>(TrafficClass::Ipc)]     = x;
    p.weight[static_cast<int>(TrafficClass::Storage)] = 100 - x;
    return p;
  }
  if (text.rfind("weights:", 0) == 0) {
    p.kind                       = Kind::Weights;
    bool seen[kNbTrafficClasses] = {false, false, false};
    std::stringstream items(text.substr(8));
    std::string item;
    while (std::getline(items, item, ',')) {
      const auto eq = item.find('=');
      if (eq == std::string::npos)
        throw InputError(where + ": expected class=weight, got '" + item + "'");
      const std::string name = item.substr(0, eq);
      TrafficClass c;
      if (name == "ipc")
        c = TrafficClass::Ipc;
      else if (name == "storage")
        c = TrafficClass::Storage;
      else
        throw InputError(where + ": unknown traffic class '" + name + "' (expected ipc or storage)");
      p.weight[static_cast<int>(c)] = positive_number(item.substr(eq + 1), where);
      seen[static_cast<int>(c)]     = true;
    }
    if (!seen[static_cast<int>(TrafficClass::Ipc)] || !seen[static_cast<int>(TrafficClass::Storage)])
      throw InputError(where + ": give a weight for both classes, e.g. weights:ipc=3,storage=1");
    return p;
  }
  throw InputError(where + ": unknown traffic policy (expected none, np, ba:X, fp or weights:ipc=A,storage=B)");
}

const TrafficArbiter::Route& TrafficArbiter::route(simgrid::s4u::Host* src, simgrid::s4u::Host* dst)
{
  auto [it, inserted] = routes_.try_emplace({src, dst});
  if (inserted)
    src->route_to(dst, it->second.links, &it->second.latency);
  return it->second;
}

void TrafficArbiter::started(const simgrid::s4u::ExecPtr& exec, TrafficClass traffic,
                             const std::vector<simgrid::s4u::Host*>& hosts, const std::vector<double>& bytes)
{
  if (!policy_.active() || traffic == TrafficClass::None)
    return;
  Running r;
  r.exec    = exec;
  r.traffic = traffic;
  // The activity's latency, as L07 computes it: the longest route among its flows.
  double latency = 0;
  const size_t n = hosts.size();
  if (!bytes.empty())
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j)
        if (bytes[i * n + j] > 0)
          latency = std::max(latency, route(hosts[i], hosts[j]).latency);
  if (latency > 0) {
    r.ready_at     = simgrid::s4u::Engine::get_clock() + latency;
    r.latency_paid = false;
  }
  if (policy_.counts_class_members() && !bytes.empty()) {
    // Per shared link: total and largest flow, as BMF weighs them.
    std::unordered_map<const simgrid::s4u::Link*, std::pair<double, double>> load;
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j) {
        const double b = bytes[i * n + j];
        if (b <= 0)
          continue;
        for (const simgrid::s4u::Link* link : route(hosts[i], hosts[j]).links) {
          if (link->get_sharing_policy() == simgrid::s4u::Link::SharingPolicy::FATPIPE)
            continue; // a FATPIPE is not shared
          auto& [total, biggest] = load[link];
          total += b;
          biggest = std::max(biggest, b);
        }
      }
    for (const auto& [link, tb] : load)
      r.links.emplace_back(link, tb.first / tb.second);
    // Deterministic order (load is a hash map): by link name.
    std::sort(r.links.begin(), r.links.end(),
              [](const auto& a, const auto& b) { return a.first->get_name() < b.first->get_name(); });
  }
  running_.push_back(std::move(r));
  if (policy_.counts_class_members()) {
    count(running_.back(), +1);
    for (auto& other : running_)
      apply_priority(other);
  } else {
    apply_priority(running_.back());
  }
}

void TrafficArbiter::ended(const simgrid::s4u::Exec* exec)
{
  auto it = std::find_if(running_.begin(), running_.end(), [exec](const Running& r) { return r.exec.get() == exec; });
  if (it == running_.end())
    return;
  if (policy_.counts_class_members())
    count(*it, -1);
  running_.erase(it);
  if (policy_.counts_class_members())
    for (auto& other : running_)
      apply_priority(other);
}

void TrafficArbiter::count(const Running& r, double sign)
{
  const int c = static_cast<int>(r.traffic);
  for (const auto& [link, flows] : r.links)
    flows_on_link_[link][c] += sign * flows;
}

void TrafficArbiter::apply_priority(Running& r)
{
  const int c  = static_cast<int>(r.traffic);
  double crowd = 1;
  if (policy_.counts_class_members())
    for (const auto& [link, flows] : r.links)
      crowd = std::max(crowd, flows_on_link_[link][c]);
  // Not during the latency (see traffic.hpp): its waiter's settle() sets it once paid.
  if (!r.latency_paid) {
    if (simgrid::s4u::Engine::get_clock() < due_date(r))
      return;
    r.latency_paid = true;
  }
  const double priority = policy_.weight[c] / crowd;
  // An activity that ended at this date but whose actor has not yet called ended()
  // keeps its entry: only a started one still has a share to set.
  if (priority != r.priority && r.exec->get_state() == simgrid::s4u::Activity::State::STARTED) {
    r.priority = priority;
    r.exec->update_priority(priority);
  }
}

double TrafficArbiter::due_date(const Running& r)
{
  // One nanosecond after the latency (relative at large dates, where a double's step
  // is coarser), so that SimGrid's own reset of the penalty, at that date, is past.
  return r.ready_at + 1e-9 + 1e-15 * r.ready_at;
}

double TrafficArbiter::next_due(const std::vector<simgrid::s4u::ExecPtr>& execs) const
{
  double due = std::numeric_limits<double>::infinity();
  for (const Running& r : running_)
    if (!r.latency_paid && std::find(execs.begin(), execs.end(), r.exec) != execs.end())
      due = std::min(due, due_date(r));
  return due;
}

void TrafficArbiter::settle()
{
  for (auto& r : running_)
    apply_priority(r);
}

} // namespace datasched
