#include "execution/item_traffic.hpp"

#include <algorithm>

#include "common/fatal.hpp"
#include "protocol/writer.hpp"

namespace datasched {

namespace {

/// The phase's I/O tasks: the first io_tasks of its active nodes (as phase_plan's plan_io).
std::vector<int> io_nodes(const PhaseProfile& profile, const Phase& phase, const std::vector<int>& executors)
{
  size_t active = executors.size();
  if (phase.nodes > 0 && phase.nodes < static_cast<int>(executors.size()))
    active = static_cast<size_t>(phase.nodes);
  const size_t n = std::min(active, static_cast<size_t>(profile.io_tasks));
  return std::vector<int>(executors.begin(), executors.begin() + static_cast<std::ptrdiff_t>(n));
}

int dram_of(const StorageEndpoints& endpoints, int node, const std::string& item)
{
  const int dram = endpoints.dram_of(node);
  if (dram < 0)
    throw InputError("data item '" + item + "' moves between central storage and compute node " + std::to_string(node) +
                     ", which has no DRAM endpoint (central I/O reaches a node through it)");
  return dram;
}

int nvm_of(const StorageEndpoints& endpoints, int node, const std::string& item)
{
  const int nvm = endpoints.nvm_of(node);
  if (nvm < 0)
    throw InputError("data item '" + item + "' is written to the NVM of compute node " + std::to_string(node) +
                     ", which has none (a SAN-mode platform? write it with \"to\": \"central\")");
  return nvm;
}

void plan_read(const ItemUse& use, const std::vector<int>& readers, DataRegistry& registry,
               const StorageEndpoints& endpoints, double now, ActivityBuilder& local, ActivityBuilder& remote,
               ActivityBuilder& central, PlannedItems& out)
{
  ItemRead record;
  record.name = use.name;
  for (const ItemFlow& f : registry.plan_read(use.name, use.bytes, readers, endpoints, now)) {
    switch (f.source) {
      case ItemSource::LocalNvm:
        local.add_bytes(f.location, f.reader, f.bytes);
        break;
      case ItemSource::RemoteNvm:
        remote.add_bytes(f.location, f.reader, f.bytes);
        break;
      case ItemSource::Central:
        central.add_bytes(f.location, dram_of(endpoints, f.reader, use.name), f.bytes);
        break;
    }
    record.bytes[static_cast<int>(f.source)] += f.bytes;
    record.locations[static_cast<int>(f.source)].push_back(f.location);
  }
  out.reads.push_back(std::move(record));
}

/// A read through the readers' page caches: each reader's share (bytes / readers) is
/// served by its cache as far as it holds the item, the rest read from where the item
/// lives (as plan_read, for that reader alone) and cached when the phase ends.
void plan_cached_read(const ItemUse& use, const std::vector<int>& readers, DataRegistry& registry,
                      const StorageEndpoints& endpoints, double now, PageCache& cache, ActivityBuilder& local,
                      ActivityBuilder& remote, ActivityBuilder& central, ActivityBuilder& hits, PlannedItems& out)
{
  const DataItem* found = registry.find(use.name);
  if (!found || !found->exists) { // the registry's error: the item is not there to read
    plan_read(use, readers, registry, endpoints, now, local, remote, central, out);
    return;
  }
  ItemRead record;
  record.name        = use.name;
  const double share = use.bytes / static_cast<double>(readers.size());
  for (int reader : readers) {
    const double hit = cache.hit(reader, use.name, share, now);
    if (hit > 0) {
      hits.add_bytes(dram_of(endpoints, reader, use.name), reader, hit);
      record.cache_hit += hit;
    }
    if (share - hit <= 0)
      continue;
    PlannedItems miss;
    plan_read(ItemUse{use.name, share - hit, use.home}, {reader}, registry, endpoints, now, local, remote, central,
              miss);
    for (int s = 0; s < 3; ++s) {
      record.bytes[s] += miss.reads.front().bytes[s];
      for (int location : miss.reads.front().locations[s])
        record.locations[s].push_back(location);
    }
    out.fills.push_back(PlannedFill{reader, use.name, share - hit});
  }
  out.reads.push_back(std::move(record));
}

} // namespace

PlannedItems plan_items(const PhaseProfile& profile, const Phase& phase, const std::vector<int>& executors,
                        DataRegistry& registry, const StorageEndpoints& endpoints, std::optional<ItemHome> items_to,
                        const std::function<std::string(int)>& name_of, double now, PageCache* cache)
{
  PlannedItems out;
  const std::vector<int> nodes = io_nodes(profile, phase, executors);
  const bool read              = phase.kind == PhaseKind::Read;
  const double n               = static_cast<double>(nodes.size());
  ActivityBuilder local(Tier::LocalNvm, TrafficClass::Storage);
  ActivityBuilder remote(Tier::RemoteNvm, TrafficClass::Storage);
  ActivityBuilder central(Tier::San, TrafficClass::Storage);
  ActivityBuilder hits(Tier::Dram, TrafficClass::Storage);     // page-cache hits: X-dram -> X
  ActivityBuilder absorbed(Tier::Dram, TrafficClass::Storage); // dirty pages written: X -> X-dram
  double item_bytes = 0;
  for (const ItemUse& use : phase.items) {
    item_bytes += use.bytes;
    if (read) {
      if (cache && std::any_of(nodes.begin(), nodes.end(), [&](int x) { return cache->enabled(x); }))
        plan_cached_read(use, nodes, registry, endpoints, now, *cache, local, remote, central, hits, out);
      else
        plan_read(use, nodes, registry, endpoints, now, local, remote, central, out);
      continue;
    }
    ItemWrite w;
    w.name                = use.name;
    w.home                = items_to.value_or(use.home);
    w.bytes               = use.bytes;
    const DataItem* found = registry.find(use.name);
    w.existed             = found && found->exists;
    registry.begin_write(use.name);
    if (cache)
      cache->invalidate(use.name);
    // Each writer's share: the part its page cache absorbs (if any), the rest written through.
    auto split = [&](int node, double share) {
      const CachedWrite cw = cache ? cache->write(node, use.name, share, now) : CachedWrite{0, share};
      if (cw.dirty > 0)
        absorbed.add_bytes(node, dram_of(endpoints, node, use.name), cw.dirty);
      return cw;
    };
    if (w.home == ItemHome::Central) {
      if (registry.io_servers().empty())
        throw InputError(
            "data item '" + use.name +
            "' is written to central storage, but the platform has no I/O server (datasched_role=io_server)");
      w.servers = registry.io_servers();
      for (int node : nodes) {
        const int dram       = dram_of(endpoints, node, use.name);
        const CachedWrite cw = split(node, use.bytes / n);
        for (const ItemPart& stripe : registry.central_stripes(cw.through))
          central.add_bytes(dram, stripe.location, stripe.bytes);
        if (cw.dirty > 0) {
          ActivityBuilder flush(Tier::Writeback, TrafficClass::Storage);
          for (const ItemPart& stripe : registry.central_stripes(cw.dirty))
            flush.add_bytes(dram, stripe.location, stripe.bytes);
          out.flushes.push_back(PlannedFlush{node, use.name, cw.dirty, flush.build()});
        }
      }
    } else {
      for (int node : nodes) {
        const int nvm      = nvm_of(endpoints, node, use.name);
        const double share = use.bytes / n;
        // A throw here ends the simulation (the caller's fatal): no reservation to give back.
        std::vector<Eviction> evicted = registry.reserve(nvm, share, use.name, name_of(nvm));
        w.parts.push_back(ItemPart{nvm, share});
        for (Eviction& e : evicted)
          out.evictions.push_back(std::move(e));
        const CachedWrite cw = split(node, share);
        local.add_bytes(node, nvm, cw.through);
        if (cw.dirty > 0) {
          ActivityBuilder flush(Tier::Writeback, TrafficClass::Storage);
          flush.add_bytes(node, nvm, cw.dirty);
          out.flushes.push_back(PlannedFlush{node, use.name, cw.dirty, flush.build()});
        }
      }
    }
    out.writes.push_back(std::move(w));
  }
  out.anonymous_amount = std::max(0.0, phase.amount - item_bytes / std::max(n, 1.0));
  for (const ActivityBuilder* b : {&local, &remote, &central, &hits})
    if (!b->empty())
      out.activities.push_back(b->build());
  if (!absorbed.empty())
    out.cached.push_back(absorbed.build());
  out.writeback = plan_writeback(out.evictions, registry);
  return out;
}

std::vector<ActivitySpec> plan_writeback(const std::vector<Eviction>& evictions, const DataRegistry& registry)
{
  ActivityBuilder b(Tier::Writeback, TrafficClass::Storage);
  for (const Eviction& e : evictions)
    for (const ItemPart& part : e.writeback)
      for (const ItemPart& stripe : registry.central_stripes(part.bytes))
        b.add_bytes(part.location, stripe.location, stripe.bytes);
  if (b.empty())
    return {};
  return {b.build()};
}

nlohmann::json eviction_event(const Eviction& eviction, const StorageEndpoints& endpoints, double date)
{
  std::vector<int> nodes;
  for (int nvm : eviction.locations)
    nodes.push_back(endpoints.owner_of(nvm));
  return nlohmann::json{{"item", eviction.item},
                        {"nodes", nodes},
                        {"nvms", eviction.locations},
                        {"bytes", eviction.bytes},
                        {"written_back", !eviction.writeback.empty()},
                        {"on_central", true},
                        {"date", protocol_time(date)}};
}

void record_evictions(const PlannedItems& planned, DataCsv& csv, const std::string& job, double start, double end)
{
  for (const Eviction& e : planned.evictions) {
    csv.add(start, start, e.item, "evict", job, e.bytes, e.locations);
    if (e.writeback.empty())
      continue;
    double bytes = 0;
    std::vector<int> from;
    for (const ItemPart& part : e.writeback) {
      bytes += part.bytes;
      from.push_back(part.location);
    }
    csv.add(start, end, e.item, "write_back", job, bytes, from);
  }
}

void record_items(const PlannedItems& planned, IoRecord& io, DataCsv& csv, const std::string& job, double start,
                  double end)
{
  for (const ItemRead& r : planned.reads)
    if (r.cache_hit > 0)
      csv.add(start, end, r.name, "read_page_cache", job, r.cache_hit, {});
  for (const ItemRead& r : planned.reads)
    for (int s = 0; s < 3; ++s) {
      if (r.bytes[s] <= 0)
        continue;
      io.item_read_bytes[s] += r.bytes[s];
      csv.add(start, end, r.name, "read_" + item_source_to_string(static_cast<ItemSource>(s)), job, r.bytes[s],
              r.locations[s]);
    }
  for (const ItemWrite& w : planned.writes) {
    io.item_written_bytes[static_cast<int>(w.home)] += w.bytes;
    std::vector<int> where = w.servers;
    for (const ItemPart& p : w.parts)
      where.push_back(p.location);
    csv.add(start, end, w.name, w.existed ? "update" : "create", job, w.bytes, where);
  }
}

void commit_items(const PlannedItems& planned, DataRegistry& registry, double now, PageCache* cache)
{
  if (cache)
    for (const PlannedFill& f : planned.fills)
      cache->fill(f.node, f.item, f.bytes, now);
  for (const ItemWrite& w : planned.writes) {
    if (w.home == ItemHome::Central)
      registry.commit_central(w.name, w.bytes, now);
    else
      registry.commit_nvm(w.name, w.parts, now);
  }
}

void abandon_items(const PlannedItems& planned, DataRegistry& registry)
{
  for (const ItemWrite& w : planned.writes)
    for (const ItemPart& p : w.parts)
      registry.release(p.location, p.bytes);
}

} // namespace datasched
