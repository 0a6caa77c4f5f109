#include "services/forwarding_service.hpp"

#include "common/fatal.hpp"
#include "common/transfer.hpp"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <string>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Disk.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Io.hpp>

namespace datasched::forwarding {

namespace sg4      = simgrid::s4u;
using KillSafeLock = Service::Lock;

Service::Service(const ForwardingLayer& layer, std::vector<sg4::Host*> forwarders, std::vector<sg4::Host*> servers,
                 std::vector<sg4::Disk*> disks, std::uint64_t control_bytes, bool dispatch_trace, double hdd_alpha,
                 double hdd_seek_scale, const CacheConfig& cache)
    : layer_(layer), servers_(std::move(servers)), disks_(std::move(disks)), control_bytes_(control_bytes),
      dispatch_trace_(dispatch_trace)
{
  for (auto* disk : disks_) {
    spreads_.push_back(hdd_seek_scale > 0 ? std::make_unique<SeekSpread>(hdd_seek_scale) : nullptr);
    apply_hdd_curve(disk, hdd_alpha, spreads_.back().get());
  }
  stats_servers_.resize(servers_.size());
  for (std::size_t i = 0; i < servers_.size() && cache.enabled(); ++i)
    caches_.push_back(std::make_unique<ServerCache>(cache, servers_[i], disks_[i],
                                                    [this, i](int file, std::uint64_t offset, int delta) {
                                                      hdd_activity(static_cast<int>(i), file, offset, delta);
                                                    }));
  for (std::size_t f = 0; f < forwarders.size(); ++f) {
    Forwarder fw;
    fw.host      = forwarders[f];
    fw.scheduler = make_scheduler(layer_, static_cast<int>(f), static_cast<int>(servers_.size()));
    fw.mutex     = sg4::Mutex::create();
    fw.wake      = sg4::ConditionVariable::create();
    forwarders_.push_back(std::move(fw));
  }
  stats_forwarders_.resize(forwarders_.size());
}

void Service::start_caches()
{
  for (auto& cache : caches_)
    cache->start();
}

void Service::hdd_activity(int server, int file, std::uint64_t offset, int delta)
{
  auto& stats = stats_servers_[static_cast<std::size_t>(server)];
  if (delta > 0) {
    stats.device_requests++;
    if (auto& spread = spreads_[static_cast<std::size_t>(server)]) // before the activity: the solver reads it
      spread->add(file, offset);
  } else if (auto& spread = spreads_[static_cast<std::size_t>(server)]) {
    spread->remove(file, offset);
  }
  disk_activity_changes(stats, delta);
}

void Service::start_workers()
{
  for (std::size_t f = 0; f < forwarders_.size(); ++f)
    for (int w = 0; w < layer_.max_in_flight; ++w)
      start_worker(static_cast<int>(f), w);
}

void Service::start_worker(int f, int w)
{
  sg4::Actor::create("fwd" + std::to_string(f) + "-worker" + std::to_string(w),
                     forwarders_[static_cast<std::size_t>(f)].host,
                     [this, f, w]() { run_actor_guarded([this, f, w] { worker(f, w); }); })
      ->daemonize();
}

int Service::open_file(std::shared_ptr<const FilePlacement> placement)
{
  files_.push_back(std::move(placement));
  return static_cast<int>(files_.size() - 1);
}

std::vector<Striping::ServerShare> Service::split(const FileRange& range) const
{
  const FilePlacement& placement = *files_.at(static_cast<std::size_t>(range.file));
  auto shares                    = placement.striping.split(range);
  if (!placement.servers.empty())
    for (auto& s : shares)
      s.server = placement.servers.at(static_cast<std::size_t>(s.server));
  return shares;
}

sg4::Host* Service::forwarder_host(int forwarder) const
{
  return forwarders_.at(static_cast<std::size_t>(forwarder)).host;
}

void Service::count_client_request(int forwarder, std::uint64_t bytes)
{
  auto& stats = stats_forwarders_.at(static_cast<std::size_t>(forwarder));
  stats.client_requests++;
  stats.client_bytes += bytes;
}

std::shared_ptr<Ticket> Service::enqueue(int forwarder, const FileRange& range, Operation op)
{
  Forwarder& fw = forwarders_.at(static_cast<std::size_t>(forwarder));
  auto ticket   = std::make_shared<Ticket>();
  std::uint64_t id;
  if (free_ids_.empty()) {
    id = tickets_.size();
    tickets_.push_back(ticket);
  } else {
    id = free_ids_.back();
    free_ids_.pop_back();
    tickets_[id] = ticket;
  }
  KillSafeLock lock(fw.mutex);
  QueuedRequest q;
  q.id      = id;
  q.file    = range.file;
  q.op      = op;
  q.offset  = range.offset;
  q.size    = range.size;
  q.arrival = sg4::Engine::get_clock();
  if (fw.scheduler->queues_server_shares()) {
    auto shares     = split(range);
    ticket->pending = static_cast<int>(shares.size());
    for (const auto& share : shares) {
      q.server        = share.server;
      q.size          = share.bytes;
      q.object_offset = share.object_offset;
      fw.scheduler->push(q);
    }
  } else {
    ticket->pending = 1;
    fw.scheduler->push(q);
  }
  fw.wake->notify_all();
  return ticket;
}

/// One of a forwarder's `max_in_flight` workers: takes the scheduler's next dispatch
/// (waiting for a request, or under TWINS for the next window), sends it to the data
/// servers and releases the client requests it completed.
void Service::worker(int f, int w)
{
  Forwarder& fw  = forwarders_[static_cast<std::size_t>(f)];
  auto& fw_stats = stats_forwarders_[static_cast<std::size_t>(f)];
  for (int served = 0; served < kDispatchesPerWorkerActor; ++served) {
    std::optional<Dispatch> next;
    {
      KillSafeLock lock(fw.mutex);
      // The window end this worker last slept until. SimGrid may wake it a rounding error
      // (or its timing precision) before that date; the scheduler is then asked at the
      // date itself, so every timed wait moves it to a later window and a tiny window can
      // never make the worker wait for "now" again and again.
      double reached = 0;
      for (;;) {
        const double now = std::max(sg4::Engine::get_clock(), reached);
        next             = fw.scheduler->pop(now);
        if (next)
          break;
        // Nothing queued: only a push can help. Something queued for another server
        // (TWINS): the next window may serve it.
        const double change = fw.scheduler->next_change(now);
        if (fw.scheduler->queued() == 0 || std::isinf(change))
          lock.wait(fw.wake);
        else if (lock.wait_until(fw.wake, change) == std::cv_status::timeout)
          reached = change;
      }
    }
    const double now = sg4::Engine::get_clock();
    fw_stats.dispatches++;
    fw_stats.dispatch_bytes += next->size;
    for (const auto& part : next->parts) {
      const double wait = now - part.arrival;
      fw_stats.waits++;
      fw_stats.wait_sum += wait;
      fw_stats.wait_max = std::max(fw_stats.wait_max, wait);
    }
    std::vector<Striping::ServerShare> shares;
    if (next->server >= 0)
      shares.push_back({next->server, next->size, next->object_offset});
    else
      shares = split({next->file, next->offset, next->size});
    fw_stats.server_requests += shares.size();
    for (const auto& s : shares)
      fw_stats.server_bytes += s.bytes;
    serve(fw.host, next->op, next->file, shares, static_cast<int>(next->parts.size()));
    if (fw.scheduler->wants_completions()) { // TWINS drain: waiting workers may go on now
      KillSafeLock lock(fw.mutex);
      fw.scheduler->completed(*next);
      fw.wake->notify_all();
    }
    for (const auto& part : next->parts) {
      auto& ticket = tickets_[part.id];
      if (--ticket->pending == 0) {
        auto done = ticket; // the slot may be reused once freed
        ticket.reset();
        free_ids_.push_back(part.id);
        done->done->release();
      }
    }
  }
  start_worker(f, w); // a fresh actor goes on (kDispatchesPerWorkerActor says why)
}

void Service::serve(sg4::Host* source, Operation op, int file, const std::vector<Striping::ServerShare>& shares,
                    int client_requests)
{
  const double start = sg4::Engine::get_clock();
  std::vector<sg4::ExecPtr> sends;
  for (const auto& s : shares)
    sends.push_back(transfer_async(source, servers_[static_cast<std::size_t>(s.server)],
                                   op == Operation::Write ? s.bytes : control_bytes_, transfer_observer_));
  wait_transfers(sends);
  for (std::size_t i = 0; i < shares.size(); ++i) { // arrivals at each server, when each send ended
    auto& server = stats_servers_[static_cast<std::size_t>(shares[i].server)];
    (op == Operation::Read ? server.read_arrivals : server.write_arrivals).add(sends[i]->get_finish_time());
  }
  // The disk step of each share: an HDD activity, or (with a server cache) a copy in or out
  // of the server's memory (server_cache.hpp), started in share order.
  std::vector<sg4::IoPtr> ios;
  std::vector<DiskStep> steps;
  std::vector<int> io_server;
  for (const auto& s : shares) {
    const auto server_index = static_cast<std::size_t>(s.server);
    auto& server            = stats_servers_[server_index];
    server.requests++;
    server.bytes += s.bytes;
    const auto hdd_started = [this, &s, file] { hdd_activity(s.server, file, s.object_offset, +1); };
    DiskStep step;
    if (!caches_.empty()) {
      auto& cache = *caches_[server_index];
      step        = op == Operation::Read ? cache.read(file, s.object_offset, s.bytes, hdd_started)
                                          : cache.write(file, s.object_offset, s.bytes, hdd_started);
    } else {
      hdd_started();
      auto* disk  = disks_[server_index];
      step.offset = s.object_offset;
      step.bytes  = s.bytes;
      step.io     = op == Operation::Read ? disk->read_async(s.bytes) : disk->write_async(s.bytes);
    }
    if (!step.on_hdd)
      server.cache_hits++;
    ios.push_back(step.io);
    steps.push_back(std::move(step));
    io_server.push_back(s.server);
  }
  // In completion order, so the servers' occupancy figures see each end when it happens.
  while (!ios.empty()) {
    const auto done  = static_cast<std::size_t>(sg4::Io::wait_any(ios));
    const auto& step = steps[done];
    if (step.on_hdd)
      hdd_activity(io_server[done], file, step.offset, -1);
    if (!caches_.empty())
      caches_[static_cast<std::size_t>(io_server[done])]->ended(file, step);
    ios.erase(ios.begin() + static_cast<std::ptrdiff_t>(done));
    steps.erase(steps.begin() + static_cast<std::ptrdiff_t>(done));
    io_server.erase(io_server.begin() + static_cast<std::ptrdiff_t>(done));
  }
  std::vector<sg4::ExecPtr> replies;
  for (const auto& s : shares)
    replies.push_back(transfer_async(servers_[static_cast<std::size_t>(s.server)], source,
                                     op == Operation::Read ? s.bytes : control_bytes_, transfer_observer_));
  wait_transfers(replies);
  if (dispatch_trace_)
    for (const auto& s : shares)
      dispatches_.push_back({source->get_name(), s.server, start, sg4::Engine::get_clock(), s.bytes, client_requests});
}

void Service::wait_transfers(const std::vector<sg4::ExecPtr>& transfers) const
{
  for (const auto& c : transfers) {
    c->wait();
    if (transfer_observer_ != nullptr)
      transfer_observer_->ended(c.get());
  }
}

/// Keeps a server's occupancy figures: time with at least one disk activity, the
/// integral of the number of activities over time, and its maximum.
void Service::disk_activity_changes(ServerStats& server, int delta)
{
  const double now = sg4::Engine::get_clock();
  if (server.active > 0) {
    server.busy_time += now - server.last_change;
    server.disk_time += (now - server.last_change) * server.active;
  }
  server.last_change = now;
  server.active += delta;
  server.max_active = std::max(server.max_active, server.active);
}

} // namespace datasched::forwarding
