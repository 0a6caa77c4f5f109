#pragma once
// A node page cache in front of the node's storage for named data items (seed 001,
// Tables 1-3: file I/O "subject to O/S level caching"). Pure bookkeeping over item
// names and byte counts, per compute node; the job runner turns what it says into
// SimGrid activities (execution/item_traffic.hpp), so the cache is no bandwidth
// solver: a hit or a cached write is a flow on the node's DRAM link, a flush is a
// flow on the device, both shared by SimGrid with every other flow.
//
// Configuration: properties of a node's DRAM endpoint host (datasched_role=dram):
//   page_cache_capacity      bytes the cache may hold (absent: the node has no cache)
//   page_cache_dirty_ratio   fraction of the capacity that may be dirty, in [0, 1]
//                            (default 0.2, Linux's vm.dirty_ratio; 0: write-through)
//
// Rules (docs/storage.md, "Node page cache"):
// - A write of S bytes of an item by node X drops the item's cached bytes on every
//   node (a new version), then absorbs d = min(S, dirty_limit - dirty(X)) bytes as dirty
//   pages (written at the DRAM rate) and writes the other S - d through to the device;
//   the written-through bytes are kept as clean pages as far as clean room allows.
//   So T_write = d / B_mem + (S - d) / B_dev when nothing else shares the links.
// - The dirty bytes are flushed to the item's device after the write (a SimGrid flow
//   competing with other traffic); then they are clean.
// - A read of b bytes by node X hits h = min(b, cached(X, item)) at the DRAM rate; the
//   other b - h come from the device and are then cached clean (room permitting).
// - Room: dirty pages are never evicted (dirty <= dirty_limit <= capacity); clean pages
//   of other items go least recently used first (ties: by name).
#include <map>
#include <string>

#include "model/machines.hpp"
#include "model/storage_endpoints.hpp"

namespace datasched {

struct CachedItem {
  double bytes    = 0; ///< cached bytes of the item on this node (clean + dirty)
  double dirty    = 0; ///< of which not yet on the device
  double last_use = 0; ///< simulated seconds: LRU order
};

struct NodeCache {
  double capacity    = 0;
  double dirty_ratio = 0.2;
  double used        = 0; ///< sum of the entries' bytes
  double dirty       = 0; ///< sum of the entries' dirty bytes
  std::map<std::string, CachedItem> entries;

  double dirty_limit() const { return capacity * dirty_ratio; }
};

/// What a write of one node's share of an item does.
struct CachedWrite {
  double dirty   = 0; ///< absorbed by the cache (DRAM rate), flushed later
  double through = 0; ///< written straight to the device
};

class PageCache {
public:
  PageCache() = default;
  /// Reads every DRAM endpoint's page_cache_* properties. Throws InputError naming the
  /// host and property for a value that is not a number, negative, or a ratio > 1, or a
  /// dirty ratio without a capacity.
  static PageCache from_machines(const Machines& machines, const StorageEndpoints& endpoints);
  /// For unit tests and builders: node `node` gets a cache. Throws InputError as above.
  void configure(int node, double capacity, double dirty_ratio, const std::string& where);

  bool enabled(int node) const { return nodes_.count(node) > 0; }
  bool any() const { return !nodes_.empty(); }
  const NodeCache* node(int node) const;

  /// Node `node` writes `bytes` of `item` (its share of the item): see the class rules.
  /// The caller has dropped the item's older version with invalidate().
  CachedWrite write(int node, const std::string& item, double bytes, double now);
  /// The flush of `bytes` dirty bytes of `item` on `node` ended: they are clean.
  void flushed(int node, const std::string& item, double bytes);
  /// Node `node` reads `bytes` of `item`: the bytes the cache serves (the rest is a miss).
  double hit(int node, const std::string& item, double bytes, double now);
  /// A read miss of `bytes` of `item` ended: they become clean pages, room permitting.
  void fill(int node, const std::string& item, double bytes, double now);
  /// A new version of `item` is being written: its cached bytes go everywhere (a flush
  /// still running for its dirty bytes ends without effect).
  void invalidate(const std::string& item);

private:
  /// Evicts clean pages of items other than `keep`, LRU first, until `node` has `room`
  /// free bytes or nothing clean is left; returns the free bytes.
  double make_room(NodeCache& cache, const std::string& keep, double room);

  std::map<int, NodeCache> nodes_;
};

} // namespace datasched
