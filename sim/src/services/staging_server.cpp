#include "services/staging_server.hpp"
#include "common/fatal.hpp"
#include "common/kill_safe_lock.hpp"
#include "common/number_text.hpp"

#include <algorithm>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>

namespace datasched {

namespace sg4 = simgrid::s4u;

sg4::Disk* staging_disk(sg4::Host* server, const std::string& disk, const std::string& server_where,
                        const std::string& disk_where)
{
  const auto disks = server->get_disks();
  if (disk.empty()) {
    if (disks.size() != 1)
      throw InputError(server_where + ": host '" + server->get_name() + "' has " + std::to_string(disks.size()) +
                       " disks; the staging server needs one SSD" +
                       (disk_where.empty() ? "" : " (or name it in " + disk_where + ")"));
    return disks[0];
  }
  for (auto* d : disks)
    if (d->get_name() == disk)
      return d;
  throw InputError(disk_where + ": host '" + server->get_name() + "' has no disk '" + disk + "'");
}

double staging_capacity(double capacity, const sg4::Disk* disk, const std::string& where)
{
  if (capacity > 0)
    return capacity;
  if (const char* size = disk->get_property("size"))
    if (const auto v = finite_number(size); v && *v > 0)
      return *v;
  throw InputError(where + ".capacity: not given, and disk '" + disk->get_name() + "' of '" +
                   disk->get_host()->get_name() + "' has no positive \"size\" property");
}

StagingServer::StagingServer(const StagingParams& params, sg4::Host* server, sg4::Disk* ssd, sg4::Host* port,
                             double capacity, StagingTransfers& transfers, std::size_t owners, std::uint64_t seed)
    : params_(params), server_(server), ssd_(ssd), port_(port), capacity_(capacity), transfers_(transfers),
      mutex_(sg4::Mutex::create()), changed_(sg4::ConditionVariable::create()), owner_pending_(owners, 0.0), rng_(seed)
{}

void StagingServer::start_actors()
{
  sg4::Actor::create("ssd-writer", server_, [this]() { ssd_writer(); })->daemonize();
  sg4::Actor::create("data-mover", port_, [this]() { mover(); })->daemonize();
}

bool StagingServer::above_watermark() const
{
  return buffered_bytes_ + staged_bytes_ >= params_.high_watermark * capacity_;
}

void StagingServer::note_fill()
{
  stats_.max_fill = std::max(stats_.max_fill, buffered_bytes_ + staged_bytes_);
}

bool StagingServer::fits(double bytes) const
{
  // A block larger than the buffer still goes through, alone (the buffer is then empty).
  return !((buffered_bytes_ > 0 && buffered_bytes_ + bytes > params_.buffer_bytes) ||
           buffered_bytes_ + staged_bytes_ + bytes > capacity_);
}

void StagingServer::reserve(double bytes)
{
  buffered_bytes_ += bytes;
  in_flight_++;
  note_fill();
}

void StagingServer::grant_room()
{
  bool granted = false;
  for (;;) {
    std::vector<std::size_t> candidates;
    for (std::size_t i = 0; i < waiters_.size(); ++i)
      if (fits(waiters_[i]->bytes))
        candidates.push_back(i);
    if (candidates.empty())
      break;
    const std::size_t pick = candidates[static_cast<std::size_t>(rng_() % candidates.size())];
    reserve(waiters_[pick]->bytes);
    waiters_[pick]->granted = true;
    waiters_.erase(waiters_.begin() + static_cast<std::ptrdiff_t>(pick));
    granted = true;
  }
  if (granted)
    changed_->notify_all();
}

void StagingServer::write_block(sg4::Host* client, double bytes, int sl, int owner, sg4::Host* destination)
{
  {
    ScopedLock lock(mutex_);
    if (waiters_.empty() && fits(bytes)) {
      reserve(bytes);
    } else {
      Waiter me{bytes, false};
      waiters_.push_back(&me);
      grant_room();
      while (!me.granted)
        lock.wait(changed_);
    }
  }
  transfers_.absorb(client, server_, bytes, sl);
  ScopedLock lock(mutex_);
  in_flight_--;
  last_activity_ = sg4::Engine::get_clock();
  stats_.absorbed_bytes += bytes;
  stats_.blocks++;
  if (owner >= 0)
    owner_pending_[static_cast<std::size_t>(owner)] += bytes;
  to_ssd_.push_back({owner, bytes, destination});
  changed_->notify_all();
}

double StagingServer::wait_drained(int owner)
{
  ScopedLock lock(mutex_);
  while (owner_pending_[static_cast<std::size_t>(owner)] > 0)
    lock.wait(changed_);
  return sg4::Engine::get_clock();
}

void StagingServer::ssd_writer()
{
  for (;;) {
    Extent block;
    {
      ScopedLock lock(mutex_);
      while (to_ssd_.empty())
        lock.wait(changed_);
      block = to_ssd_.front();
    }
    ssd_->write(block.bytes);
    ScopedLock lock(mutex_);
    to_ssd_.pop_front();
    buffered_bytes_ -= block.bytes;
    staged_bytes_ += block.bytes;
    staged_.push_back(block);
    stats_.ssd_bytes += block.bytes;
    // Leaving the buffer ends the server's work on this block: the idle clock starts.
    last_activity_ = sg4::Engine::get_clock();
    grant_room();
    changed_->notify_all();
  }
}

void StagingServer::mover()
{
  for (;;) {
    std::vector<Extent> chunk;
    double chunk_bytes     = 0;
    sg4::Host* destination = nullptr;
    bool forced            = false;
    {
      ScopedLock lock(mutex_);
      for (;;) {
        if (staged_bytes_ <= 0) {
          lock.wait(changed_);
          continue;
        }
        if (above_watermark()) {
          forced = busy() || sg4::Engine::get_clock() < last_activity_ + params_.idle_seconds;
          break;
        }
        if (busy()) {
          lock.wait(changed_);
          continue;
        }
        const double idle_at = last_activity_ + params_.idle_seconds;
        if (sg4::Engine::get_clock() >= idle_at)
          break;
        lock.wait_until(changed_, idle_at);
      }
      // The oldest staged extents bound for the oldest one's destination, up to
      // drain_chunk bytes (splitting the last one).
      destination = staged_.front().destination;
      while (!staged_.empty() && chunk_bytes < params_.drain_chunk && staged_.front().destination == destination) {
        Extent& head      = staged_.front();
        const double take = std::min(head.bytes, params_.drain_chunk - chunk_bytes);
        chunk.push_back({head.owner, take, destination});
        chunk_bytes += take;
        head.bytes -= take;
        if (head.bytes <= 0)
          staged_.pop_front();
      }
    }
    const double start = sg4::Engine::get_clock();
    if (stats_.first_drain < 0)
      stats_.first_drain = start;
    ssd_->read(chunk_bytes);
    transfers_.drain(port_, destination, chunk_bytes);
    ScopedLock lock(mutex_);
    const double end = sg4::Engine::get_clock();
    staged_bytes_ -= chunk_bytes;
    for (const auto& part : chunk)
      if (part.owner >= 0)
        owner_pending_[static_cast<std::size_t>(part.owner)] -= part.bytes;
    stats_.drained_bytes += chunk_bytes;
    stats_.chunks++;
    stats_.forced_chunks += forced ? 1 : 0;
    stats_.drain_busy += end - start;
    stats_.last_drain_end = end;
    grant_room();
    changed_->notify_all();
  }
}

} // namespace datasched
