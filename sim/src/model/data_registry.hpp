#pragma once
// Named data items (files) that outlive the jobs that write them (seed 001: workflow
// steps share data through node SCM). The registry knows, for every item, where its
// bytes are: parts on node NVM endpoints and/or a copy on central storage (the I/O
// servers), and how full each node NVM is. It decides nothing about time: the job
// runner (and the data movers) turn what it says into SimGrid activities, and SimGrid
// times them. Pure bookkeeping over resource ids, unit-tested directly.
//
// Rules (documented in workloads/README.md, "Named data items"):
// - A write to NVM stripes the item evenly over the writing I/O tasks' own NVMs; a
//   write to central storage stripes it evenly over every I/O server. A write replaces
//   the item's previous copies (its NVM space is freed when the write starts).
// - An item on NVM without a central copy is dirty. Staging it out (data mover) or
//   evicting it writes it back; a stage-in adds NVM parts and keeps the central copy.
// - Capacity: each NVM endpoint's `capacity` host property (bytes; absent: unlimited).
//   Making room for new bytes on an NVM evicts whole items that have a part there, least
//   recently used first (ties: by name), skipping items pinned by a running job (every
//   item its profile names) or being moved; a dirty victim is written back to central
//   storage first, an engine activity whose time the job that needed the room waits for.
//   When the room cannot be made even by evicting every unpinned item, or there is no
//   central storage to write a dirty victim back to, the request fails naming the item.
// - A read finds the item's bytes where they are: a part on a reader's own NVM is read
//   by that reader (local), a part on another node's NVM is spread evenly over the
//   readers (remote, Y-nvm -> X), a central copy (only when no NVM copy exists) is
//   spread evenly over the readers, each share striped over the item's servers.
//   Reading b of the item's s bytes reads b/s of every part.
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "model/machines.hpp"
#include "model/storage_endpoints.hpp"

namespace datasched {

/// Bytes of an item on one endpoint (a node NVM endpoint or an I/O server), by resource id.
struct ItemPart {
  int location = -1;
  double bytes = 0;
};

struct DataItem {
  std::string name;
  double size     = 0;
  bool exists     = false;             ///< written (or declared pre-existing) and not being rewritten
  double last_use = 0;                 ///< last read, write or staging (simulated seconds): LRU order
  int pins        = 0;                 ///< running jobs and movers using it: never evicted while > 0
  std::vector<ItemPart> nvm_parts;     ///< on node NVM endpoints
  std::vector<ItemPart> central_parts; ///< on I/O servers (empty: no central copy)

  bool on_nvm() const { return !nvm_parts.empty(); }
  bool on_central() const { return !central_parts.empty(); }
  bool dirty() const { return on_nvm() && !on_central(); }
};

/// Where a read finds its bytes (out_io.csv / out_data.csv categories).
enum class ItemSource { LocalNvm, RemoteNvm, Central };
std::string item_source_to_string(ItemSource source);

/// One flow of a read: `bytes` from `location` to `reader` (a compute node id).
struct ItemFlow {
  int location      = -1;
  int reader        = -1;
  double bytes      = 0;
  ItemSource source = ItemSource::LocalNvm;
};

/// An item evicted from NVM to make room; `writeback` lists the NVM parts to copy to
/// central storage first (empty when a central copy existed: the item was clean).
struct Eviction {
  std::string item;
  double bytes = 0;           ///< NVM bytes freed (all its parts)
  std::vector<int> locations; ///< the NVM endpoints it left
  std::vector<ItemPart> writeback;
};

class DataRegistry {
public:
  DataRegistry() = default;
  /// NVM capacities from the endpoints' `capacity` property (bytes; absent: unlimited).
  /// Throws InputError for a capacity that is not a finite number >= 0.
  static DataRegistry from_machines(const Machines& machines, const StorageEndpoints& endpoints);
  /// For unit tests: `capacity[nvm endpoint id]`, I/O servers for central copies.
  DataRegistry(std::map<int, double> capacity, std::vector<int> io_servers);

  /// An item that exists on central storage before the simulation starts (a workload's
  /// `datasched_data` entry with producer null). Throws InputError if declared twice.
  void declare_on_central(const std::string& name, double bytes);

  const DataItem* find(const std::string& name) const;
  const std::map<std::string, DataItem>& items() const { return items_; }
  const std::vector<int>& io_servers() const { return io_servers_; }

  void pin(const std::string& name);
  void unpin(const std::string& name);

  /// The flows that read `bytes` of the item into `readers` (compute node ids).
  /// Throws InputError when the item does not exist yet, holds fewer bytes, or lives
  /// on central storage on a platform without I/O servers.
  std::vector<ItemFlow> plan_read(const std::string& name, double bytes, const std::vector<int>& readers,
                                  const StorageEndpoints& endpoints, double now);

  /// A write starts: the item's previous copies are dropped (their NVM space freed).
  void begin_write(const std::string& name);
  /// Reserves `bytes` on NVM endpoint `nvm` for `item`, evicting as the class comment
  /// says; the evicted items have already left the NVM in the registry (their
  /// write-back is the caller's to run). Throws InputError when it cannot fit.
  std::vector<Eviction> reserve(int nvm, double bytes, const std::string& item, const std::string& nvm_name);
  /// Gives back a reservation that will not be used (a killed job).
  void release(int nvm, double bytes);
  /// The write ended: the item is `parts` on NVM (reserved before), dirty.
  void commit_nvm(const std::string& name, const std::vector<ItemPart>& parts, double now);
  /// The write ended: the item is on central storage only (striped over every server).
  void commit_central(const std::string& name, double bytes, double now);
  /// A stage-out (or write-back) ended: the item also has a central copy (clean).
  void add_central_copy(const std::string& name, double now);
  /// A stage-in or move ended: the item's NVM copy is `parts` (reserved before).
  void set_nvm_copy(const std::string& name, const std::vector<ItemPart>& parts, double now);
  /// Drops the item's NVM parts (e.g. after a move whose source is freed).
  void drop_nvm_copy(const std::string& name);

  /// Called after every change of an NVM endpoint's usage (used_on) with the new value:
  /// the engine dates it and writes `<prefix>_nvm.csv` (export/nvm_csv.hpp).
  using UsageListener = std::function<void(int nvm, double used)>;
  void set_usage_listener(UsageListener listener) { usage_listener_ = std::move(listener); }

  double capacity_of(int nvm) const;
  double used_on(int nvm) const; ///< item parts plus reservations
  bool limited(int nvm) const { return capacity_.count(nvm) > 0; }

  /// Central copy of `bytes` striped over every I/O server.
  std::vector<ItemPart> central_stripes(double bytes) const;

private:
  DataItem& item(const std::string& name);
  void remove_nvm_parts(DataItem& item);
  void add_usage(int nvm, double delta);

  std::map<std::string, DataItem> items_;
  std::map<int, double> capacity_; ///< only limited NVMs
  std::map<int, double> used_;     ///< parts + reservations, per NVM endpoint
  std::vector<int> io_servers_;
  UsageListener usage_listener_;
};

} // namespace datasched
