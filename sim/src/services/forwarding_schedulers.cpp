#include "services/forwarding_schedulers.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "common/fatal.hpp"

namespace datasched::forwarding {

namespace {
std::string shortest(double x)
{
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", x);
  return buffer;
}

Dispatch single(const QueuedRequest& r)
{
  Dispatch d;
  d.parts         = {r};
  d.file          = r.file;
  d.op            = r.op;
  d.offset        = r.offset;
  d.size          = r.size;
  d.server        = r.server;
  d.object_offset = r.object_offset;
  return d;
}
} // namespace

void FifoScheduler::push(const QueuedRequest& request)
{
  queue_.push_back(request);
}

std::optional<Dispatch> FifoScheduler::pop(double)
{
  if (queue_.empty())
    return std::nullopt;
  Dispatch d = single(queue_.front());
  queue_.pop_front();
  return d;
}

void HbrrScheduler::push(const QueuedRequest& request)
{
  auto [it, inserted] = queues_.try_emplace(request.file);
  if (inserted)
    order_.push_back(request.file);
  it->second.push_back(request);
  ++count_;
}

std::optional<Dispatch> HbrrScheduler::pop(double)
{
  if (count_ == 0)
    return std::nullopt;
  // The next handle with queued requests, round-robin from next_.
  std::deque<QueuedRequest>* queue = nullptr;
  for (std::size_t step = 0; step < order_.size(); ++step) {
    std::size_t at = (next_ + step) % order_.size();
    auto& q        = queues_[order_[at]];
    if (!q.empty()) {
      queue = &q;
      next_ = (at + 1) % order_.size();
      break;
    }
  }
  Dispatch d = single(queue->front());
  queue->pop_front();
  // Grow the range while a queued request of the same operation touches either end.
  bool grown = true;
  while (grown && static_cast<int>(d.parts.size()) < limit_) {
    grown = false;
    for (auto it = queue->begin(); it != queue->end(); ++it) {
      if (it->op != d.op)
        continue;
      if (it->offset == d.offset + d.size) {
        d.size += it->size;
      } else if (it->offset + it->size == d.offset) {
        d.offset = it->offset;
        d.size += it->size;
      } else {
        continue;
      }
      d.parts.push_back(*it);
      queue->erase(it);
      grown = true;
      break;
    }
  }
  count_ -= d.parts.size();
  return d;
}

TwinsScheduler::TwinsScheduler(int forwarder_index, int servers, double window, bool drain)
    : forwarder_(forwarder_index), window_(window), queues_(static_cast<std::size_t>(servers)), drain_(drain),
      in_flight_(static_cast<std::size_t>(servers), 0)
{}

void TwinsScheduler::completed(const Dispatch& dispatch)
{
  if (drain_)
    --in_flight_.at(static_cast<std::size_t>(dispatch.server));
}

long long TwinsScheduler::window_index(double now) const
{
  // A worker woken at the end of window k sees a clock of (k+1)*W rounded: without the
  // tolerance, floor could still say k and the worker would wait for "now" forever.
  const double index = std::floor(now / window_ + 1e-9);
  if (!(index < 0x1p62)) // a window index must fit in 64 bits (now 1e12 s, window 1e-9 s would not)
    fatal("forwarding.window: " + shortest(window_) + " s windows: the clock (" + shortest(now) +
          " s) is past 2^62 windows; use a larger window");
  auto k = static_cast<long long>(index); // checked: below 2^62
  // The tolerance is relative to one window: once now / W is above about 10^7 it is below
  // a double's resolution and a clock of exactly (k+1)*W could still give k (issue 32: a
  // 1 ns window spun forever). The boundaries are the doubles next_change returns, so a
  // clock at or past boundary k+1 is in window k+1 whatever the division says.
  while (static_cast<double>(k + 1) * window_ <= now)
    ++k;
  return k;
}

int TwinsScheduler::server_at(double now) const
{
  const long long servers = static_cast<long long>(queues_.size());
  return static_cast<int>((forwarder_ + window_index(now)) % servers);
}

double TwinsScheduler::next_change(double now) const
{
  // The next window whose server has queued shares: idle workers sleep through windows
  // with nothing to send instead of waking at every window end.
  const long long servers = static_cast<long long>(queues_.size());
  const long long current = window_index(now);
  for (long long k = current + 1; k <= current + servers; ++k)
    if (!queues_[static_cast<std::size_t>((forwarder_ + k) % servers)].empty())
      return static_cast<double>(k) * window_;
  return std::numeric_limits<double>::infinity();
}

void TwinsScheduler::push(const QueuedRequest& request)
{
  queues_.at(static_cast<std::size_t>(request.server)).push_back(request);
  ++count_;
}

std::optional<Dispatch> TwinsScheduler::pop(double now)
{
  const auto server = static_cast<std::size_t>(server_at(now));
  auto& q           = queues_[server];
  if (q.empty())
    return std::nullopt;
  if (drain_)
    for (std::size_t s = 0; s < in_flight_.size(); ++s)
      if (s != server && in_flight_[s] > 0)
        return std::nullopt; // still draining another server: completed() wakes the workers
  Dispatch d = single(q.front());
  q.pop_front();
  --count_;
  if (drain_)
    ++in_flight_[server];
  return d;
}

std::unique_ptr<RequestScheduler> make_scheduler(const ForwardingLayer& layer, int forwarder_index, int servers)
{
  switch (layer.scheduler) {
    case SchedulerKind::Fifo:
      return std::make_unique<FifoScheduler>();
    case SchedulerKind::Hbrr:
      return std::make_unique<HbrrScheduler>(layer.aggregation_limit);
    case SchedulerKind::Twins:
      return std::make_unique<TwinsScheduler>(forwarder_index, servers, layer.window, layer.twins_drain);
  }
  return nullptr;
}

} // namespace datasched::forwarding
