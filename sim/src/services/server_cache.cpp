#include "services/server_cache.hpp"

#include "common/fatal.hpp"
#include "common/kill_safe_lock.hpp"

#include <algorithm>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Disk.hpp>
#include <simgrid/s4u/Host.hpp>

namespace datasched::forwarding {

namespace sg4 = simgrid::s4u;
using Lock    = ScopedLock;

ServerCache::ServerCache(const CacheConfig& config, sg4::Host* host, sg4::Disk* hdd, HddActivity on_flush)
    : config_(config), host_(host), hdd_(hdd), on_flush_(std::move(on_flush)), mutex_(sg4::Mutex::create()),
      changed_(sg4::ConditionVariable::create())
{
  memory_ = host_->create_disk("datasched-cache", config_.memory_bandwidth, config_.memory_bandwidth);
  memory_->seal();
}

void ServerCache::start()
{
  if (config_.write_behind > 0)
    start_flusher();
}

void ServerCache::start_flusher()
{
  sg4::Actor::create("cache-flusher-" + host_->get_name(), host_, [this]() {
    run_actor_guarded([this] { flusher(kFlushesPerActor); });
  })->daemonize();
}

DiskStep ServerCache::write(int file, std::uint64_t offset, std::uint64_t bytes,
                            const std::function<void()>& hdd_started)
{
  (void)file;
  DiskStep step;
  step.offset = offset;
  step.bytes  = bytes;
  if (config_.write_behind == 0 || bytes > config_.write_behind) { // write-through
    hdd_started();
    step.io = hdd_->write_async(bytes);
    return step;
  }
  {
    Lock lock(mutex_);
    while (dirty_bytes_ + bytes > config_.write_behind)
      lock.wait(changed_);
    dirty_bytes_ += bytes; // reserved at admission, released when its flush ends
  }
  step.on_hdd = false;
  step.dirty  = true;
  step.io     = memory_->write_async(bytes);
  return step;
}

DiskStep ServerCache::read(int file, std::uint64_t offset, std::uint64_t bytes,
                           const std::function<void()>& hdd_started)
{
  DiskStep step;
  step.offset = offset;
  step.bytes  = bytes;
  if (config_.read_ahead == 0) {
    hdd_started();
    step.io = hdd_->read_async(bytes);
    return step;
  }
  Lock lock(mutex_);
  auto& range = ranges_[file];
  if (range && range->begin <= offset && offset + bytes <= range->end) {
    const auto filling = range; // the file's range may be replaced while this one waits
    while (!filling->ready)
      lock.wait(changed_);
    hits_++;
    step.on_hdd = false;
    step.io     = memory_->read_async(bytes);
    return step;
  }
  const std::uint64_t length = std::max(config_.read_ahead, bytes);
  range                      = std::make_shared<ReadAheadRange>(ReadAheadRange{offset, offset + length, false});
  step.fills                 = range;
  step.bytes                 = length;
  hdd_started();
  step.io = hdd_->read_async(length);
  return step;
}

void ServerCache::ended(int file, const DiskStep& step)
{
  if (!step.dirty && !step.fills)
    return;
  Lock lock(mutex_);
  if (step.dirty)
    to_flush_.push_back({file, step.offset, step.bytes});
  if (step.fills)
    step.fills->ready = true;
  changed_->notify_all();
}

/// Writes the dirty shares to the HDD in admission order, one at a time; each stops being
/// dirty (admitting waiting writes) when its HDD write ends.
void ServerCache::flusher(int flushes_left)
{
  for (; flushes_left > 0; --flushes_left) {
    Dirty next;
    {
      Lock lock(mutex_);
      while (to_flush_.empty())
        lock.wait(changed_);
      next = to_flush_.front();
      to_flush_.pop_front();
    }
    on_flush_(next.file, next.offset, +1);
    hdd_->write_async(next.bytes)->wait();
    on_flush_(next.file, next.offset, -1);
    Lock lock(mutex_);
    dirty_bytes_ -= next.bytes;
    changed_->notify_all();
  }
  start_flusher(); // a fresh actor goes on (kFlushesPerActor says why)
}

} // namespace datasched::forwarding
