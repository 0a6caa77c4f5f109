#pragma once
// The flows of the named data items of one read or write phase (model/data_registry):
// which endpoints hold the bytes a phase reads, where a write puts them, and the
// write-back of the items evicted to make room. Pure planning over resource ids; the
// job runner starts the activities, SimGrid times them (one activity per tier, as
// phase_plan.hpp does for the descriptor's I/O):
//
//   item flow                 tier          flow (resource ids)
//   read, part on own NVM     local_nvm     X-nvm -> X
//   read, part on Y's NVM     remote_nvm    Y-nvm -> X        (device and path coupled)
//   read, central copy        san           io-J -> X-dram    (striped over the servers)
//   write to NVM              local_nvm     X -> X-nvm        (item striped over the writers)
//   write to central          san           X-dram -> io-J    (striped over every server)
//   write-back (eviction)     writeback     Y-nvm -> io-J     (before the write that needs room)
//
// With a node page cache (model/page_cache.hpp) a written share is split: its dirty part
// is a flow X -> X-dram (tier dram) run before the rest, which is written through as
// above; the dirty part is then flushed by a background flow on the same path as a
// written-through byte (X -> X-nvm, or X-dram -> io-J), execution/page_cache_flush.hpp.
// A read's cached part is a flow X-dram -> X (tier dram) beside the misses' flows, and
// the misses are cached clean when the phase ends.
//
// The phase's other bytes (amount x I/O tasks minus the items') follow the storage
// descriptor as before: `anonymous_amount` is their per-task amount.
#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "execution/phase_plan.hpp"
#include "export/data_csv.hpp"
#include "model/data_registry.hpp"
#include "model/io_record.hpp"
#include "model/page_cache.hpp"

namespace datasched {

struct ItemWrite {
  std::string name;
  ItemHome home = ItemHome::Nvm;
  double bytes  = 0;
  bool existed  = false;       ///< the write replaces an earlier version (out_data.csv: update)
  std::vector<ItemPart> parts; ///< NVM parts reserved for it (home nvm)
  std::vector<int> servers;    ///< I/O servers it is striped over (home central)
};

struct ItemRead {
  std::string name;
  double cache_hit = 0;                        ///< bytes served by the readers' page caches
  std::array<double, 3> bytes{};               ///< by ItemSource
  std::array<std::vector<int>, 3> locations{}; ///< endpoints read, by ItemSource
};

/// Dirty bytes of one node's share of an item, to flush to its device after the write.
struct PlannedFlush {
  int node = -1;
  std::string item;
  double bytes = 0;
  ActivitySpec flow; ///< X -> X-nvm, or X-dram -> the I/O servers
};

/// A read miss of one node: cached clean when the phase ends.
struct PlannedFill {
  int node = -1;
  std::string item;
  double bytes = 0;
};

struct PlannedItems {
  std::vector<ActivitySpec> cached; ///< writes absorbed by page caches: run before `activities`
  std::vector<PlannedFlush> flushes;
  std::vector<PlannedFill> fills;
  std::vector<Eviction> evictions;
  std::vector<ActivitySpec> writeback; ///< run before the phase (empty: nothing dirty to save)
  std::vector<ActivitySpec> activities;
  std::vector<ItemWrite> writes;
  std::vector<ItemRead> reads;
  double anonymous_amount = 0; ///< per I/O task, what the descriptor's tiers still move
  bool empty() const { return writes.empty() && reads.empty(); }
};

/// Plans the items of `phase` (a read or write with items) for a job on `executors`,
/// updating the registry: reads are looked up (and touched), writes start (old copies
/// dropped) and reserve their NVM room (evicting). Throws InputError naming the item.
/// `items_to` overrides each written item's destination; `name_of` names resource ids.
/// `cache` (may be null) is the nodes' page cache: writes and reads go through it.
PlannedItems plan_items(const PhaseProfile& profile, const Phase& phase, const std::vector<int>& executors,
                        DataRegistry& registry, const StorageEndpoints& endpoints, std::optional<ItemHome> items_to,
                        const std::function<std::string(int)>& name_of, double now, PageCache* cache = nullptr);

/// The write-back activity of `evictions` (Y-nvm -> every I/O server, evenly), if any.
std::vector<ActivitySpec> plan_writeback(const std::vector<Eviction>& evictions, const DataRegistry& registry);

/// The data of DATASCHED_ITEM_EVICTED (--datasched-item-evictions) for an eviction at
/// `date`: {"bytes": NVM bytes freed, "date", "item", "nodes": the compute nodes whose NVM
/// it left, "nvms": those NVM endpoints' resource ids (same order), "on_central": true (a
/// victim always keeps or gets a central copy: a dirty one with no I/O server to write it
/// back to is an error), "written_back": it was dirty, so this eviction writes it back}.
nlohmann::json eviction_event(const Eviction& eviction, const StorageEndpoints& endpoints, double date);

/// Records the evictions (out_data.csv: evict, and write_back from `start` to `end`
/// when there was something to save).
void record_evictions(const PlannedItems& planned, DataCsv& csv, const std::string& job, double start, double end);
/// Records the phase's item traffic (out_data.csv rows, the job's out_io.csv item columns).
void record_items(const PlannedItems& planned, IoRecord& io, DataCsv& csv, const std::string& job, double start,
                  double end);

/// The phase ended: the written items exist where they were written; read misses are
/// cached (when `cache` is not null).
void commit_items(const PlannedItems& planned, DataRegistry& registry, double now, PageCache* cache = nullptr);
/// The phase did not end (kill, walltime): gives back the NVM room its writes reserved.
void abandon_items(const PlannedItems& planned, DataRegistry& registry);

} // namespace datasched
