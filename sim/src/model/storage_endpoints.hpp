#pragma once
// Where each compute node's storage lives on the platform, as platforms/ builds it:
// a node X has an `X-dram` endpoint host (datasched_role=dram) and, on unified
// platforms, an `X-nvm` endpoint host (datasched_role=nvm), both with property
// node=X; central storage is the hosts with datasched_role=io_server. Moving bytes
// to or from an endpoint is an ordinary flow, so SimGrid shares the device link and
// the network path as one activity (platforms/README.md, "storage coupling").
#include <string>
#include <vector>

#include "model/machines.hpp"

namespace datasched {

class StorageEndpoints {
public:
  /// Reads the roles and owners from the machines' properties. Throws InputError when
  /// an endpoint names an owner that is not a compute node, or a node has two.
  static StorageEndpoints from_machines(const Machines& machines);

  enum class Kind { Dram, Nvm, IoServer };
  /// An empty map for `nb_resources` resource ids (unit tests build one by hand).
  explicit StorageEndpoints(int nb_resources = 0);
  /// Declares resource `id` an endpoint of `kind` (owner: its compute node, -1 for servers).
  /// Throws InputError when the owner already has an endpoint of that kind.
  void add(int id, Kind kind, int owner);

  int dram_of(int compute_id) const { return at(dram_, compute_id); }
  int nvm_of(int compute_id) const { return at(nvm_, compute_id); }
  /// The compute node that owns endpoint `id` (DRAM or NVM), -1 for any other host.
  int owner_of(int id) const { return at(owner_, id); }
  bool is_nvm(int id) const { return id >= 0 && id < static_cast<int>(is_nvm_.size()) && is_nvm_[id]; }
  bool is_io_server(int id) const
  {
    return id >= 0 && id < static_cast<int>(is_io_server_.size()) && is_io_server_[id];
  }
  /// Central storage servers, in resource-id order.
  const std::vector<int>& io_servers() const { return io_servers_; }
  bool has_node_nvm() const { return nb_nvm_ > 0; }
  bool has_node_dram() const { return nb_dram_ > 0; }
  /// Phases that read (`read`) or write central storage go through a SAN path
  /// (execution/san_path.hpp: forwarders carry both, staging servers writes): phase_plan
  /// leaves their SAN I/O to it, and a path carrying both needs no node DRAM endpoint.
  bool san_path_carries(bool read) const { return read ? san_path_reads_ : san_path_writes_; }
  void set_san_path(bool reads, bool writes)
  {
    san_path_reads_  = reads;
    san_path_writes_ = writes;
  }

private:
  static int at(const std::vector<int>& v, int id) { return id >= 0 && id < static_cast<int>(v.size()) ? v[id] : -1; }

  std::vector<int> dram_, nvm_, owner_;
  std::vector<bool> is_nvm_, is_io_server_;
  std::vector<int> io_servers_;
  int nb_nvm_           = 0;
  int nb_dram_          = 0;
  bool san_path_reads_  = false;
  bool san_path_writes_ = false;
};

} // namespace datasched
