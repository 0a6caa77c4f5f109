#include "qos/flows.hpp"
#include "common/kill_safe_lock.hpp"

#include <algorithm>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Semaphore.hpp>

namespace datasched::qos {

namespace sg4 = simgrid::s4u;

bool weights_in_play(const ArbitrationTable& table, const std::set<int>& used)
{
  std::set<double> weights[2]; // [low, high]
  for (int sl : used)
    weights[table.is_high(sl, "flow") ? 1 : 0].insert(table.weight(sl, "flow"));
  return weights[0].size() > 1 || weights[1].size() > 1;
}

FlowLauncher::FlowLauncher(const ArbitrationTable& table, const std::set<int>& used)
    : table_(table), weighted_(weights_in_play(table, used)), mutex_(sg4::Mutex::create()),
      changed_(sg4::ConditionVariable::create())
{
  double max_weight[2] = {0, 0}; // [low, high]
  for (int sl : used) {
    const int high   = table.is_high(sl, "flow") ? 1 : 0;
    max_weight[high] = std::max(max_weight[high], table.weight(sl, "flow"));
  }
  std::vector<double> lane_weight(kVirtualLanes, 1.0);
  for (int sl = 0; sl < kServiceLevels; ++sl) {
    const auto s = static_cast<std::size_t>(sl);
    priority_[s] = 1;
    if (!used.count(sl))
      continue;
    high_[s] = table.is_high(sl, "flow");
    if (weighted_)
      priority_[s] = table.weight(sl, "flow") / max_weight[high_[s] ? 1 : 0];
    if (!high_[s])
      priority_[s] *= table.low_table_factor();
    lane_weight[static_cast<std::size_t>(table.sl2vl[s])] = priority_[s]; // the SLs of one VL have its weight
  }
  if (weighted()) // each flow carries its lane's weight, not split among the lane's flows (flows.hpp)
    arbiter_.configure(std::move(lane_weight), false);
}

const FlowLauncher::Route& FlowLauncher::route(sg4::Host* src, sg4::Host* dst)
{
  const auto key = std::make_pair(static_cast<const void*>(src), static_cast<const void*>(dst));
  auto it        = routes_.find(key);
  if (it != routes_.end())
    return it->second;
  Route r;
  src->route_to(dst, r.links, nullptr);
  return routes_.emplace(key, std::move(r)).first->second;
}

sg4::ExecPtr FlowLauncher::launch(sg4::Host* src, sg4::Host* dst, double bytes, int sl)
{
  // bytes[i * 2 + j]: from host i to host j; only 0 -> 1 is non-zero (one flow).
  std::vector<double> amounts{0.0, bytes, 0.0, 0.0};
  auto exec = sg4::this_actor::exec_init({src, dst}, {0.0, 0.0}, amounts);
  exec->start();
  if (sl >= 0) // the arbiter is active only when weights are in play (header)
    arbiter_.started(exec, table_.sl2vl[static_cast<std::size_t>(sl)], {src, dst},
                     PairBytes::from_flows({{0, 1, bytes}}));
  started_++;
  running_++;
  max_running_ = std::max(max_running_, running_);
  return exec;
}

void FlowLauncher::high_flow_changes(const Route& r, int delta)
{
  ScopedLock lock(mutex_);
  for (const auto* link : r.links)
    high_on_link_[link] += delta;
  if (delta < 0)
    changed_->notify_all();
}

void FlowLauncher::ended(const sg4::Exec* exec, const Route& r, bool high)
{
  arbiter_.ended(exec);
  running_--;
  if (high)
    high_flow_changes(r, -1);
}

void FlowLauncher::wait_for_no_high_flow(const Route& r)
{
  ScopedLock lock(mutex_);
  auto blocked = [&]() {
    return std::any_of(r.links.begin(), r.links.end(), [&](const sg4::Link* l) {
      auto it = high_on_link_.find(l);
      return it != high_on_link_.end() && it->second > 0;
    });
  };
  while (blocked())
    lock.wait(changed_);
}

void FlowLauncher::transfer_low(sg4::Host* src, sg4::Host* dst, double bytes, int sl)
{
  const Route& r = route(src, dst);
  if (table_.low_table_by_solver()) { // the solver weighs it: no pieces
    auto exec = launch(src, dst, bytes, sl);
    exec->wait();
    ended(exec.get(), r, false);
    return;
  }
  for (double left = bytes; left > 0;) {
    const double piece = std::min(left, table_.granularity);
    wait_for_no_high_flow(r);
    auto exec = launch(src, dst, piece, sl);
    exec->wait();
    ended(exec.get(), r, false);
    left -= piece;
  }
}

void FlowLauncher::transfer(sg4::Host* src, sg4::Host* dst, double bytes, int sl)
{
  if (!high_[static_cast<std::size_t>(sl)]) {
    transfer_low(src, dst, bytes, sl);
    return;
  }
  const Route& r = route(src, dst);
  high_flow_changes(r, +1);
  auto exec = launch(src, dst, bytes, sl);
  exec->wait();
  ended(exec.get(), r, true);
}

void FlowLauncher::transfer_all(const std::vector<FlowSpec>& flows)
{
  // High flows: started here, waited for in completion order (each end opens the gate
  // at once). Low flows: one actor each, since they move piece by piece.
  std::vector<sg4::ExecPtr> running;
  std::vector<const Route*> routes;
  auto low_done = sg4::Semaphore::create(0);
  int lows      = 0;
  for (const auto& f : flows) {
    if (!high_[static_cast<std::size_t>(f.sl)]) {
      lows++;
      sg4::Actor::create("low-flow", f.src, [this, f, low_done]() {
        transfer_low(f.src, f.dst, f.bytes, f.sl);
        low_done->release();
      });
      continue;
    }
    const Route& r = route(f.src, f.dst);
    high_flow_changes(r, +1);
    running.push_back(launch(f.src, f.dst, f.bytes, f.sl));
    routes.push_back(&r);
  }
  while (!running.empty()) {
    const auto done = static_cast<std::size_t>(sg4::Exec::wait_any(running));
    ended(running[done].get(), *routes[done], true);
    running.erase(running.begin() + static_cast<std::ptrdiff_t>(done));
    routes.erase(routes.begin() + static_cast<std::ptrdiff_t>(done));
  }
  for (int i = 0; i < lows; ++i)
    low_done->acquire();
}

void FlowLauncher::transfer_unarbitrated(sg4::Host* src, sg4::Host* dst, double bytes)
{
  const Route& r = route(src, dst);
  auto exec      = launch(src, dst, bytes, -1);
  exec->wait();
  ended(exec.get(), r, false);
}

} // namespace datasched::qos
