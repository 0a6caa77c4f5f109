#include "model/page_cache.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <vector>

#include "common/fatal.hpp"
#include "common/number_text.hpp"

namespace datasched {

namespace {

/// The property `key` of `machine` as a finite number, or `fallback` when absent.
/// Throws InputError naming the host and property otherwise.
double number_property(const Machine& machine, const std::string& key, double fallback, bool* present)
{
  auto it  = machine.properties.find(key);
  *present = it != machine.properties.end();
  if (!*present)
    return fallback;
  const auto value = finite_number(it->second);
  if (!value)
    throw InputError("platform: DRAM endpoint '" + machine.name + "' has " + key + "='" + it->second +
                     "' (expected a number)");
  return *value;
}

std::string number_text(double value)
{
  std::ostringstream out;
  out << value;
  return out.str();
}

} // namespace

PageCache PageCache::from_machines(const Machines& machines, const StorageEndpoints& endpoints)
{
  PageCache cache;
  for (const Machine& m : machines.all()) {
    const int owner = endpoints.owner_of(m.id);
    if (owner < 0 || endpoints.dram_of(owner) != m.id)
      continue;
    bool has_capacity = false, has_ratio = false;
    const double capacity = number_property(m, "page_cache_capacity", 0, &has_capacity);
    const double ratio    = number_property(m, "page_cache_dirty_ratio", 0.2, &has_ratio);
    if (has_ratio && !has_capacity)
      throw InputError("platform: DRAM endpoint '" + m.name +
                       "' has page_cache_dirty_ratio but no page_cache_capacity (the cache's size in bytes)");
    if (has_capacity)
      cache.configure(owner, capacity, ratio, "platform: DRAM endpoint '" + m.name + "'");
  }
  return cache;
}

void PageCache::configure(int node, double capacity, double dirty_ratio, const std::string& where)
{
  if (!std::isfinite(capacity) || capacity < 0)
    throw InputError(where + " has page_cache_capacity=" + number_text(capacity) +
                     " (expected a number of bytes >= 0)");
  if (!std::isfinite(dirty_ratio) || dirty_ratio < 0 || dirty_ratio > 1)
    throw InputError(where + " has page_cache_dirty_ratio=" + number_text(dirty_ratio) +
                     " (expected a fraction in [0, 1])");
  NodeCache& c  = nodes_[node];
  c.capacity    = capacity;
  c.dirty_ratio = dirty_ratio;
}

const NodeCache* PageCache::node(int node) const
{
  auto it = nodes_.find(node);
  return it == nodes_.end() ? nullptr : &it->second;
}

double PageCache::make_room(NodeCache& cache, const std::string& keep, double room)
{
  double free = cache.capacity - cache.used;
  if (free >= room)
    return free;
  std::vector<std::pair<double, std::string>> order; // (last use, name): LRU first, ties by name
  for (const auto& [name, entry] : cache.entries)
    if (name != keep && entry.bytes > entry.dirty)
      order.emplace_back(entry.last_use, name);
  std::sort(order.begin(), order.end());
  for (const auto& [last_use, name] : order) {
    if (free >= room)
      break;
    CachedItem& entry  = cache.entries.at(name);
    const double taken = std::min(entry.bytes - entry.dirty, room - free);
    entry.bytes -= taken;
    cache.used -= taken;
    free += taken;
    if (entry.bytes <= 0)
      cache.entries.erase(name);
  }
  return free;
}

CachedWrite PageCache::write(int node, const std::string& item, double bytes, double now)
{
  CachedWrite out;
  auto it = nodes_.find(node);
  if (it == nodes_.end()) {
    out.through = bytes;
    return out;
  }
  NodeCache& cache = it->second;
  out.dirty        = std::clamp(cache.dirty_limit() - cache.dirty, 0.0, bytes);
  out.through      = bytes - out.dirty;
  // Dirty pages always fit: dirty <= dirty_limit <= capacity, and clean pages give way.
  const double free  = make_room(cache, item, bytes);
  const double clean = std::clamp(free - out.dirty, 0.0, out.through);
  CachedItem& entry  = cache.entries[item];
  entry.bytes += out.dirty + clean;
  entry.dirty += out.dirty;
  entry.last_use = now;
  cache.used += out.dirty + clean;
  cache.dirty += out.dirty;
  if (entry.bytes <= 0)
    cache.entries.erase(item);
  return out;
}

void PageCache::flushed(int node, const std::string& item, double bytes)
{
  auto it = nodes_.find(node);
  if (it == nodes_.end())
    return;
  auto entry = it->second.entries.find(item);
  if (entry == it->second.entries.end())
    return; // the item was rewritten meanwhile: its dirty bytes were dropped
  const double cleaned = std::min(bytes, entry->second.dirty);
  entry->second.dirty -= cleaned;
  it->second.dirty -= cleaned;
}

double PageCache::hit(int node, const std::string& item, double bytes, double now)
{
  auto it = nodes_.find(node);
  if (it == nodes_.end())
    return 0;
  auto entry = it->second.entries.find(item);
  if (entry == it->second.entries.end())
    return 0;
  entry->second.last_use = now;
  return std::min(bytes, entry->second.bytes);
}

void PageCache::fill(int node, const std::string& item, double bytes, double now)
{
  auto it = nodes_.find(node);
  if (it == nodes_.end() || bytes <= 0)
    return;
  NodeCache& cache   = it->second;
  const double free  = make_room(cache, item, bytes);
  const double added = std::clamp(free, 0.0, bytes);
  if (added <= 0)
    return;
  CachedItem& entry = cache.entries[item];
  entry.bytes += added;
  entry.last_use = now;
  cache.used += added;
}

void PageCache::invalidate(const std::string& item)
{
  for (auto& [node, cache] : nodes_) {
    auto entry = cache.entries.find(item);
    if (entry == cache.entries.end())
      continue;
    cache.used -= entry->second.bytes;
    cache.dirty -= entry->second.dirty;
    cache.entries.erase(entry);
  }
}

} // namespace datasched
