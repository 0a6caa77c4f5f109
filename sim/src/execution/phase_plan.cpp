#include "execution/phase_plan.hpp"

#include <algorithm>
#include <cstdint>
#include <set>

#include "common/fatal.hpp"

namespace datasched {

// ---- ActivityBuilder ----------------------------------------------------------

size_t ActivityBuilder::index_of(int host)
{
  constexpr std::uint32_t kAbsent = UINT32_MAX;
  if (host >= 0 && host < kTableIds) {
    const auto id = static_cast<size_t>(host);
    if (id >= index_table_.size())
      index_table_.resize(std::max(id + 1, std::min<size_t>(2 * index_table_.size(), kTableIds)), kAbsent);
    if (index_table_[id] == kAbsent) {
      index_table_[id] = static_cast<std::uint32_t>(hosts_.size());
      hosts_.push_back(host);
      flops_.push_back(0);
    }
    return index_table_[id];
  }
  auto [it, inserted] = index_.emplace(host, hosts_.size());
  if (inserted) {
    hosts_.push_back(host);
    flops_.push_back(0);
  }
  return it->second;
}

void ActivityBuilder::add_flops(int host, double flops)
{
  if (flops <= 0)
    return;
  flops_[index_of(host)] += flops;
  flops_total_ += flops;
}

void ActivityBuilder::add_bytes(int src, int dst, double bytes)
{
  if (bytes <= 0)
    return;
  const size_t s = index_of(src);
  const size_t d = index_of(dst);
  transfers_.push_back(PairBytes::Pair{static_cast<std::uint32_t>(s), static_cast<std::uint32_t>(d), bytes});
}

ActivitySpec ActivityBuilder::build() const
{
  ActivitySpec spec;
  spec.tier    = tier_;
  spec.traffic = traffic_;
  spec.hosts   = hosts_;
  spec.flops   = flops_;
  for (const auto& t : transfers_)
    spec.total_bytes += t.bytes;
  spec.bytes = PairBytes::from_flows(transfers_);
  return spec;
}

// ---- storage assignment ----------------------------------------------------------

namespace {

int nvm_or_throw(const StorageEndpoints& endpoints, int node, const char* why)
{
  const int nvm = endpoints.nvm_of(node);
  if (nvm < 0)
    throw InputError("compute node " + std::to_string(node) + " has no NVM endpoint (" + why +
                     "; a SAN-mode platform has no node NVM)");
  return nvm;
}

std::vector<int> checked_requested_devices(StorageAllocation allocation, const RequestedStorage& requested,
                                           const StorageEndpoints& endpoints)
{
  const bool san = allocation == StorageAllocation::San;
  std::set<int> seen;
  for (int id : requested.devices) {
    if (san && !endpoints.is_io_server(id))
      throw InputError("datasched_storage device " + std::to_string(id) +
                       " is not an I/O server (datasched_role=io_server), as allocation 'san' needs");
    if (!san && !endpoints.is_nvm(id))
      throw InputError("datasched_storage device " + std::to_string(id) + " is not a node NVM endpoint " +
                       "(datasched_role=nvm), as allocation '" + storage_allocation_to_string(allocation) + "' needs");
    if (!seen.insert(id).second)
      throw InputError("datasched_storage lists device " + std::to_string(id) + " twice");
  }
  return requested.devices;
}

/// What the platform must have for `allocation` (messages name the missing role).
void check_platform_supports(StorageAllocation allocation, const StorageDescriptor& s,
                             const StorageEndpoints& endpoints)
{
  const bool san     = allocation == StorageAllocation::San;
  const bool staging = !san && (s.stage_in_bytes > 0 || s.stage_out_bytes > 0);
  if ((san || staging) && endpoints.io_servers().empty())
    throw InputError(std::string("needs central storage (") + (san ? "allocation 'san'" : "stage-in/out") +
                     ") but the platform has no I/O server (datasched_role=io_server)");
  if (!san && !endpoints.has_node_nvm())
    throw InputError("allocation '" + storage_allocation_to_string(allocation) +
                     "' needs node NVM but the platform has none (datasched_role=nvm; a SAN-mode platform?)");
  const bool san_in_plan = san && !(endpoints.san_path_carries(true) && endpoints.san_path_carries(false));
  if ((s.mem_hit_pct > 0 || san_in_plan) && !endpoints.has_node_dram())
    throw InputError("needs node DRAM endpoints (datasched_role=dram) that the platform does not have");
}

} // namespace

StorageAssignment resolve_storage(const PhaseProfile& profile, const std::vector<int>& executors,
                                  const std::optional<RequestedStorage>& requested, const StorageEndpoints& endpoints,
                                  int nb_compute)
{
  const StorageDescriptor& s = profile.storage;
  StorageAssignment out;
  out.allocation = requested && requested->allocation ? *requested->allocation : s.allocation;
  out.access     = requested && requested->access ? *requested->access : s.access;
  check_platform_supports(out.allocation, s, endpoints);
  if (requested && !requested->devices.empty()) {
    out.devices = checked_requested_devices(out.allocation, *requested, endpoints);
    return out;
  }
  const int n = static_cast<int>(executors.size());
  switch (out.allocation) {
    case StorageAllocation::Cache:
      for (int node : executors)
        out.devices.push_back(nvm_or_throw(endpoints, node, "allocation 'cache' keeps each task's data on it"));
      break;
    case StorageAllocation::Internal:
      if (s.stg_k > n)
        throw InputError("stg_k = " + std::to_string(s.stg_k) + " internal devices, but the job has only " +
                         std::to_string(n) + " nodes");
      for (int i = 0; i < s.stg_k; ++i)
        out.devices.push_back(nvm_or_throw(endpoints, executors[i], "allocation 'internal'"));
      break;
    case StorageAllocation::External: {
      // Seed 000 4.1: "some (or all) storage devices outside of the partition". The
      // nodes after the allocation's last one (in id order, cyclically) first, then,
      // when k exceeds the nodes outside, the allocation's own, in allocation order.
      if (s.stg_k > nb_compute)
        throw InputError("stg_k = " + std::to_string(s.stg_k) + " external devices, but the platform has only " +
                         std::to_string(nb_compute) + " compute nodes");
      const std::set<int> allocated(executors.begin(), executors.end());
      const int last = *std::max_element(executors.begin(), executors.end());
      for (int step = 1; step < nb_compute && static_cast<int>(out.devices.size()) < s.stg_k; ++step) {
        const int node = (last + step) % nb_compute;
        if (!allocated.count(node))
          out.devices.push_back(nvm_or_throw(endpoints, node, "allocation 'external'"));
      }
      for (size_t i = 0; i < executors.size() && static_cast<int>(out.devices.size()) < s.stg_k; ++i)
        out.devices.push_back(nvm_or_throw(endpoints, executors[i], "allocation 'external'"));
      break;
    }
    case StorageAllocation::San: {
      const auto& servers = endpoints.io_servers();
      if (s.san_k > static_cast<int>(servers.size()))
        throw InputError("san_k = " + std::to_string(s.san_k) + " I/O servers, but the platform has " +
                         std::to_string(servers.size()) + " (datasched_role=io_server)");
      out.devices.assign(servers.begin(), servers.begin() + s.san_k);
      break;
    }
  }
  return out;
}

// ---- phases ----------------------------------------------------------------------

namespace {

std::vector<int> active_nodes(const Phase& phase, const std::vector<int>& executors)
{
  if (phase.nodes <= 0 || phase.nodes >= static_cast<int>(executors.size()))
    return executors;
  return std::vector<int>(executors.begin(), executors.begin() + phase.nodes);
}

/// Adds a read (device -> node) or a write (node -> device) of `bytes`.
void add_io(ActivityBuilder& builder, bool read, int node, int device, double bytes)
{
  if (read)
    builder.add_bytes(device, node, bytes);
  else
    builder.add_bytes(node, device, bytes);
}

int dram_or_throw(const StorageEndpoints& endpoints, int node, const char* why)
{
  const int dram = endpoints.dram_of(node);
  if (dram < 0)
    throw InputError("compute node " + std::to_string(node) + " has no DRAM endpoint (" + why + ")");
  return dram;
}

/// What every I/O task of one phase shares: the phase, the storage and where it lives.
struct IoPlan {
  const StorageDescriptor& s;
  const StorageAssignment& storage;
  const StorageEndpoints& endpoints;
  double amount; ///< bytes per I/O task
  bool read;
  size_t nb_io;
  bool san;
  bool local_only;
  size_t k;
};

/// The storage tiers of a phase's I/O, or of one I/O task's part of it.
struct TierBuilders {
  ActivityBuilder dram{Tier::Dram, TrafficClass::Storage};
  ActivityBuilder local{Tier::LocalNvm, TrafficClass::Storage};
  ActivityBuilder remote{Tier::RemoteNvm, TrafficClass::Storage};
  ActivityBuilder central{Tier::San, TrafficClass::Storage};

  /// Appends the non-empty tiers to `out`, each after `after`; returns their indices.
  std::vector<size_t> append_to(std::vector<ActivitySpec>& out, const std::vector<size_t>& after = {}) const
  {
    std::vector<size_t> indices;
    for (const ActivityBuilder* b : {&dram, &local, &remote, &central})
      if (!b->empty()) {
        indices.push_back(out.size());
        out.push_back(b->build());
        out.back().after = after;
      }
    return indices;
  }
};

/// I/O task i (on `node`): its memory hits, its own NVM, its remote devices or the SAN.
void add_task_io(const IoPlan& c, size_t i, int node, TierBuilders& b)
{
  const double mem    = c.amount * c.s.mem_hit_pct / 100.0;
  const double device = c.amount - mem;
  if (mem > 0)
    add_io(b.dram, c.read, node, dram_or_throw(c.endpoints, node, "the descriptor's mem_hit_pct needs it"), mem);
  if (device <= 0)
    return;
  if (c.san && c.endpoints.san_path_carries(c.read)) // a SAN path runs it (execution/san_path.hpp)
    return;
  if (c.san) {
    const int node_dram = dram_or_throw(c.endpoints, node, "SAN I/O reaches a node through its DRAM endpoint");
    for (int server : c.storage.devices)
      add_io(b.central, c.read, node_dram, server, device / static_cast<double>(c.k));
    return;
  }
  const int own = nvm_or_throw(c.endpoints, node, "its I/O goes to node NVM");
  if (c.local_only) {
    add_io(b.local, c.read, node, own, device);
    return;
  }
  const double remote_bytes = device * c.s.remote_pct / 100.0;
  add_io(b.local, c.read, node, own, device - remote_bytes);
  if (remote_bytes <= 0)
    return;
  std::vector<int> targets;
  if (c.storage.access == AccessType::Affinity) {
    targets.push_back(c.storage.devices[i * c.k / c.nb_io]); // task groups of (almost) equal size, in order
  } else {
    for (int d : c.storage.devices)
      if (c.endpoints.owner_of(d) != node)
        targets.push_back(d);
    if (targets.empty()) // the node's own NVM is the only device: its "remote" share stays local
      targets = c.storage.devices;
  }
  const double share = remote_bytes / static_cast<double>(targets.size());
  for (int d : targets)
    add_io(c.endpoints.owner_of(d) == node ? b.local : b.remote, c.read, node, d, share);
}

std::vector<ActivitySpec> plan_io(const PhaseProfile& profile, const Phase& phase, const std::vector<int>& executors,
                                  const StorageAssignment& storage, const StorageEndpoints& endpoints, int io_groups)
{
  const std::vector<int> active = active_nodes(phase, executors);
  const bool san                = storage.allocation == StorageAllocation::San;
  const IoPlan plan{profile.storage,
                    storage,
                    endpoints,
                    phase.amount,
                    phase.kind == PhaseKind::Read,
                    std::min(active.size(), static_cast<size_t>(profile.io_tasks)),
                    san,
                    storage.allocation == StorageAllocation::Cache || storage.access == AccessType::Local,
                    storage.devices.size()};
  std::vector<ActivitySpec> out;
  if (profile.io_distribution == IoDistribution::None) {
    TierBuilders tiers;
    for (size_t i = 0; i < plan.nb_io; ++i)
      add_task_io(plan, i, active[i], tiers);
    tiers.append_to(out);
    return out;
  }
  // Per task (or task group): each non-I/O task's share of one I/O task's bytes is amount / n
  // (every task ends up with an equal part of the phase's data; the I/O task keeps the rest).
  const double share  = phase.amount / static_cast<double>(active.size());
  const size_t groups = io_groups > 0 ? std::min(plan.nb_io, static_cast<size_t>(io_groups)) : plan.nb_io;
  for (size_t g = 0, first = 0; g < groups; ++g) {
    TierBuilders tiers;
    ActivityBuilder exchange(Tier::Network, TrafficClass::Ipc);
    for (; first < plan.nb_io && first * groups / plan.nb_io == g; ++first) {
      add_task_io(plan, first, active[first], tiers);
      for (size_t j = plan.nb_io; j < active.size(); ++j) {
        if (plan.read)
          exchange.add_bytes(active[first], active[j], share);
        else
          exchange.add_bytes(active[j], active[first], share);
      }
    }
    if (plan.read) { // read, then distribute
      const std::vector<size_t> read = tiers.append_to(out);
      if (!exchange.empty()) {
        out.push_back(exchange.build());
        out.back().after = read;
      }
    } else { // gather, then write
      std::vector<size_t> gathered;
      if (!exchange.empty()) {
        gathered.push_back(out.size());
        out.push_back(exchange.build());
      }
      tiers.append_to(out, gathered);
    }
  }
  return out;
}

} // namespace

std::vector<ActivitySpec> plan_phase(const PhaseProfile& profile, const Phase& phase, const std::vector<int>& executors,
                                     const StorageAssignment& storage, const StorageEndpoints& endpoints,
                                     int ipc_fanout, int io_groups)
{
  const std::vector<int> active = active_nodes(phase, executors);
  switch (phase.kind) {
    case PhaseKind::Compute: {
      ActivityBuilder b(Tier::Compute, TrafficClass::None);
      for (int node : active)
        b.add_flops(node, phase.amount);
      if (b.empty())
        return {};
      return {b.build()};
    }
    case PhaseKind::Communicate: {
      const size_t n = active.size();
      if (n < 2 || phase.amount <= 0)
        return {};
      ActivityBuilder b(Tier::Network, TrafficClass::Ipc);
      const size_t fanout = static_cast<size_t>(std::max(ipc_fanout, 0));
      if (fanout > 0 && fanout + 1 < n) { // the approximate all-to-all (phase_plan.hpp)
        const double per_flow = phase.amount / static_cast<double>(fanout);
        for (size_t i = 0; i < n; ++i)
          for (size_t k = 0; k < fanout; ++k)
            b.add_bytes(active[i], active[(i + 1 + (2 * k + 1) * (n - 1) / (2 * fanout)) % n], per_flow);
        ActivitySpec spec     = b.build();
        spec.exact_pair_bytes = phase.amount / static_cast<double>(n - 1);
        return {spec};
      }
      const double per_pair = phase.amount / static_cast<double>(n - 1);
      for (int src : active)
        for (int dst : active)
          if (src != dst)
            b.add_bytes(src, dst, per_pair);
      return {b.build()};
    }
    case PhaseKind::Read:
    case PhaseKind::Write:
      return plan_io(profile, phase, executors, storage, endpoints, io_groups);
  }
  return {};
}

std::vector<ActivitySpec> plan_stage(bool stage_in, const PhaseProfile& profile, const std::vector<int>& executors,
                                     const StorageAssignment& storage, const StorageEndpoints& endpoints)
{
  const StorageDescriptor& s = profile.storage;
  const double total         = stage_in ? s.stage_in_bytes : s.stage_out_bytes;
  if (total <= 0 || storage.allocation == StorageAllocation::San)
    return {};
  const auto& servers = endpoints.io_servers();
  if (s.san_k > static_cast<int>(servers.size()))
    throw InputError(std::string(stage_in ? "stage-in" : "stage-out") + " stripes over san_k = " +
                     std::to_string(s.san_k) + " I/O servers, but the platform has " + std::to_string(servers.size()));
  std::vector<int> targets;
  if (storage.allocation == StorageAllocation::Cache || storage.access == AccessType::Local) {
    const size_t nb_io = std::min(executors.size(), static_cast<size_t>(profile.io_tasks));
    for (size_t i = 0; i < nb_io; ++i)
      targets.push_back(nvm_or_throw(endpoints, executors[i], "staging writes to node NVM"));
  } else {
    targets = storage.devices;
  }
  ActivityBuilder b(stage_in ? Tier::StageIn : Tier::StageOut, TrafficClass::Storage);
  const double per_flow = total / static_cast<double>(targets.size()) / static_cast<double>(s.san_k);
  for (int device : targets)
    for (int j = 0; j < s.san_k; ++j) {
      if (stage_in)
        b.add_bytes(servers[j], device, per_flow);
      else
        b.add_bytes(device, servers[j], per_flow);
    }
  return {b.build()};
}

} // namespace datasched
