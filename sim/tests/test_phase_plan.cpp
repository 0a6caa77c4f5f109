// The phase planner on a hand-built storage map: which flows a phase creates, that
// every byte of the profile is in exactly one flow, and how devices are chosen.
#include <gtest/gtest.h>

#include <map>
#include <numeric>

#include "common/fatal.hpp"
#include "execution/phase_plan.hpp"
#include "execution/streamed_io.hpp"
#include "model/profile.hpp"

using namespace datasched;
using nlohmann::json;

namespace {

// Resources: compute nodes 0..7, their DRAM endpoints 8..15, NVM endpoints 16..23,
// I/O servers 24..25 (the layout Machines gives: compute first, then storage hosts).
constexpr int kNodes = 8;
StorageEndpoints endpoints_map()
{
  StorageEndpoints e(kNodes * 3 + 2);
  for (int n = 0; n < kNodes; ++n) {
    e.add(kNodes + n, StorageEndpoints::Kind::Dram, n);
    e.add(2 * kNodes + n, StorageEndpoints::Kind::Nvm, n);
  }
  e.add(3 * kNodes, StorageEndpoints::Kind::IoServer, -1);
  e.add(3 * kNodes + 1, StorageEndpoints::Kind::IoServer, -1);
  return e;
}
int nvm(int node)
{
  return 2 * kNodes + node;
}
int dram(int node)
{
  return kNodes + node;
}

json descriptor(const std::string& allocation, int k, double mem, double remote, const std::string& access)
{
  return json{{"allocation", allocation}, {"stg_k", k},       {"mem_hit_pct", mem},
              {"remote_pct", remote},     {"access", access}, {"san_k", 2}};
}

PhaseProfile profile(int res, int io_tasks, const json& storage, const json& phases)
{
  return PhaseProfile::from_json(json{{"type", "datasched_phases"},
                                      {"version", 1},
                                      {"res", res},
                                      {"io_tasks", io_tasks},
                                      {"storage", storage},
                                      {"phases", phases}},
                                 "test: profile 'p'");
}

/// bytes[(src, dst)] summed over every activity of the phase, and per tier.
struct Flows {
  std::map<std::pair<int, int>, double> by_pair;
  std::map<Tier, double> by_tier;
  double total = 0;
};
Flows flows_of(const std::vector<ActivitySpec>& specs)
{
  Flows f;
  for (const auto& s : specs) {
    for (const PairBytes::Pair& flow : s.bytes) {
      f.by_pair[{s.hosts[flow.src], s.hosts[flow.dst]}] += flow.bytes;
      f.by_tier[s.tier] += flow.bytes;
      f.total += flow.bytes;
    }
  }
  return f;
}

const std::vector<int> kExecutors{0, 1, 2, 3};

} // namespace

TEST(PhasePlan, ReadSplitsEachTaskOverDramLocalAndRemoteDisperse)
{
  // 4 tasks read 100 B: 25 % DRAM; of the 75 device bytes, 40 % (30 B) remote, spread
  // over the k = 2 internal devices (NVMs of nodes 0 and 1) other than the task's own.
  auto p =
      profile(4, 4, descriptor("internal", 2, 25, 40, "disperse"), json::array({{{"kind", "read"}, {"bytes", 100}}}));
  auto storage = resolve_storage(p, kExecutors, std::nullopt, endpoints_map(), kNodes);
  EXPECT_EQ(storage.devices, (std::vector<int>{nvm(0), nvm(1)}));
  auto f = flows_of(plan_phase(p, p.phases[0], kExecutors, storage, endpoints_map()));
  EXPECT_DOUBLE_EQ(f.total, 400); // conservation: tasks x bytes
  EXPECT_DOUBLE_EQ(f.by_tier[Tier::Dram], 100);
  EXPECT_DOUBLE_EQ((f.by_pair[{dram(2), 2}]), 25);
  // node 2: 45 B own NVM, 15 B from each device
  EXPECT_DOUBLE_EQ((f.by_pair[{nvm(2), 2}]), 45);
  EXPECT_DOUBLE_EQ((f.by_pair[{nvm(0), 2}]), 15);
  EXPECT_DOUBLE_EQ((f.by_pair[{nvm(1), 2}]), 15);
  // node 0 holds device 0: its whole remote share goes to the other device
  EXPECT_DOUBLE_EQ((f.by_pair[{nvm(0), 0}]), 45);
  EXPECT_DOUBLE_EQ((f.by_pair[{nvm(1), 0}]), 30);
  EXPECT_DOUBLE_EQ(f.by_tier[Tier::RemoteNvm], 4 * 30);
  EXPECT_DOUBLE_EQ(f.by_tier[Tier::LocalNvm], 4 * 45);
}

TEST(PhasePlan, AffinityMapsTaskGroupsToOneDeviceEach)
{
  auto p =
      profile(4, 4, descriptor("external", 2, 0, 100, "affinity"), json::array({{{"kind", "write"}, {"bytes", 8}}}));
  auto storage = resolve_storage(p, kExecutors, std::nullopt, endpoints_map(), kNodes);
  // external: the 2 nodes after the allocation's last one (3): nodes 4 and 5
  EXPECT_EQ(storage.devices, (std::vector<int>{nvm(4), nvm(5)}));
  auto f = flows_of(plan_phase(p, p.phases[0], kExecutors, storage, endpoints_map()));
  EXPECT_DOUBLE_EQ(f.total, 32);
  EXPECT_DOUBLE_EQ((f.by_pair[{0, nvm(4)}]), 8); // writes: node -> device
  EXPECT_DOUBLE_EQ((f.by_pair[{1, nvm(4)}]), 8);
  EXPECT_DOUBLE_EQ((f.by_pair[{2, nvm(5)}]), 8);
  EXPECT_DOUBLE_EQ((f.by_pair[{3, nvm(5)}]), 8);
  EXPECT_DOUBLE_EQ(f.by_tier[Tier::RemoteNvm], 32);
}

TEST(PhasePlan, ExternalFillsWithThePartitionWhenTheNodesOutsideAreTooFew)
{
  // 8 nodes, the job on 5..7: outside are 0..4 (from 0, after the last node 7), then 5, 6.
  auto p       = profile(3, 3, descriptor("external", 7, 0, 100, "disperse"), json::array());
  auto storage = resolve_storage(p, {5, 6, 7}, std::nullopt, endpoints_map(), kNodes);
  EXPECT_EQ(storage.devices, (std::vector<int>{nvm(0), nvm(1), nvm(2), nvm(3), nvm(4), nvm(5), nvm(6)}));
}

TEST(PhasePlan, CacheAndLocalAccessNeverLeaveTheNode)
{
  for (const char* alloc : {"cache", "internal"}) {
    auto p       = profile(4, 2, descriptor(alloc, 1, 0, 100, std::string(alloc) == "cache" ? "disperse" : "local"),
                           json::array({{{"kind", "read"}, {"bytes", 10}}}));
    auto storage = resolve_storage(p, kExecutors, std::nullopt, endpoints_map(), kNodes);
    auto f       = flows_of(plan_phase(p, p.phases[0], kExecutors, storage, endpoints_map()));
    EXPECT_DOUBLE_EQ(f.total, 20) << alloc; // io_tasks = 2
    EXPECT_DOUBLE_EQ(f.by_tier[Tier::LocalNvm], 20) << alloc;
    EXPECT_DOUBLE_EQ((f.by_pair[{nvm(0), 0}]), 10) << alloc;
    EXPECT_DOUBLE_EQ((f.by_pair[{nvm(1), 1}]), 10) << alloc;
  }
}

TEST(PhasePlan, SanStripesOverTheServersThroughTheNodeDram)
{
  auto p = profile(2, 2, descriptor("san", 1, 50, 0, "disperse"), json::array({{{"kind", "read"}, {"bytes", 40}}}));
  auto storage = resolve_storage(p, {0, 1}, std::nullopt, endpoints_map(), kNodes);
  EXPECT_EQ(storage.devices, (std::vector<int>{24, 25}));
  auto f = flows_of(plan_phase(p, p.phases[0], {0, 1}, storage, endpoints_map()));
  EXPECT_DOUBLE_EQ(f.by_tier[Tier::San], 40);
  EXPECT_DOUBLE_EQ((f.by_pair[{24, dram(1)}]), 10);
  EXPECT_DOUBLE_EQ((f.by_pair[{25, dram(1)}]), 10);
  EXPECT_DOUBLE_EQ(f.by_tier[Tier::Dram], 40);
}

TEST(PhasePlan, AStagingPathTakesTheWritesAndLeavesTheReads)
{
  // --staging-layer carries SAN writes only: a write phase's SAN share (40 B per I/O task, no
  // DRAM hits) leaves the plan, a read phase's stays ptask flows: 2 I/O tasks x 40 B = 80 B.
  auto p  = profile(3, 2, descriptor("san", 1, 0, 0, "disperse"),
                    json::array({{{"kind", "write"}, {"bytes", 40}}, {{"kind", "read"}, {"bytes", 40}}}));
  auto ep = endpoints_map();
  ep.set_san_path(false, true);
  auto storage = resolve_storage(p, {0, 1, 2}, std::nullopt, ep, kNodes);
  EXPECT_DOUBLE_EQ(flows_of(plan_phase(p, p.phases[0], {0, 1, 2}, storage, ep)).by_tier[Tier::San], 0);
  EXPECT_DOUBLE_EQ(flows_of(plan_phase(p, p.phases[1], {0, 1, 2}, storage, ep)).by_tier[Tier::San], 80);
}

TEST(PhasePlan, ForwardedSanLeavesTheDeviceBytesToTheForwardingLayer)
{
  // --forwarding-layer: the SAN share of each I/O task (40 B, 50 % DRAM hits: 20 B) is no
  // ptask flow any more but one client stream per I/O task (execution/forwarded_io.hpp);
  // the DRAM share stays a flow. No node DRAM needed for the SAN part.
  auto p  = profile(3, 2, descriptor("san", 1, 50, 0, "disperse"), json::array({{{"kind", "read"}, {"bytes", 40}}}));
  auto ep = endpoints_map();
  ep.set_san_path(true, true); // forwarders carry reads and writes (execution/san_path.hpp)
  auto storage = resolve_storage(p, {0, 1, 2}, std::nullopt, ep, kNodes);
  auto f       = flows_of(plan_phase(p, p.phases[0], {0, 1, 2}, storage, ep));
  EXPECT_DOUBLE_EQ(f.by_tier[Tier::San], 0);
  EXPECT_DOUBLE_EQ(f.by_tier[Tier::Dram], 40);
  auto streams = plan_san_streams(p, p.phases[0], {0, 1, 2}, storage);
  ASSERT_EQ(streams.size(), 2u); // io_tasks = 2 of the 3 nodes
  EXPECT_EQ(streams[0].node, 0);
  EXPECT_EQ(streams[1].node, 1);
  EXPECT_EQ(streams[0].bytes, 20u);
  // Other allocations and phases have no stream.
  auto internal = profile(3, 2, descriptor("internal", 1, 0, 0, "disperse"),
                          json::array({{{"kind", "read"}, {"bytes", 40}}, {{"kind", "compute"}, {"flops", 5}}}));
  auto own      = resolve_storage(internal, {0, 1, 2}, std::nullopt, endpoints_map(), kNodes);
  EXPECT_TRUE(plan_san_streams(internal, internal.phases[0], {0, 1, 2}, own).empty());
  EXPECT_TRUE(plan_san_streams(p, internal.phases[1], {0, 1, 2}, storage).empty());
}

TEST(PhasePlan, CommunicateIsAllToAllAmongActiveNodesAndComputeIsPerNode)
{
  auto p       = profile(4, 4, descriptor("internal", 1, 0, 0, "disperse"),
                         json::array({{{"kind", "communicate"}, {"bytes", 30}, {"pattern", "all_to_all"}, {"nodes", 3}},
                                      {{"kind", "compute"}, {"flops", 5}}}));
  auto storage = resolve_storage(p, kExecutors, std::nullopt, endpoints_map(), kNodes);
  auto comm    = plan_phase(p, p.phases[0], kExecutors, storage, endpoints_map());
  ASSERT_EQ(comm.size(), 1u);
  EXPECT_EQ(comm[0].traffic, TrafficClass::Ipc);
  auto f = flows_of(comm);
  EXPECT_DOUBLE_EQ(f.total, 90); // 3 active nodes x 30 B sent
  EXPECT_DOUBLE_EQ((f.by_pair[{0, 2}]), 15);
  EXPECT_EQ(f.by_pair.count({0, 3}), 0u);
  auto compute = plan_phase(p, p.phases[1], kExecutors, storage, endpoints_map());
  ASSERT_EQ(compute.size(), 1u);
  EXPECT_EQ(compute[0].flops, (std::vector<double>{5, 5, 5, 5}));
}

TEST(PhasePlan, StageInLoadsTheDevicesFromTheFirstSanKServers)
{
  auto storage_json              = descriptor("internal", 2, 0, 0, "disperse");
  storage_json["stage_in_bytes"] = 100;
  auto p                         = profile(4, 4, storage_json, json::array());
  auto storage                   = resolve_storage(p, kExecutors, std::nullopt, endpoints_map(), kNodes);
  auto f                         = flows_of(plan_stage(true, p, kExecutors, storage, endpoints_map()));
  EXPECT_DOUBLE_EQ(f.by_tier[Tier::StageIn], 100);
  EXPECT_DOUBLE_EQ((f.by_pair[{24, nvm(0)}]), 25);
  EXPECT_DOUBLE_EQ((f.by_pair[{25, nvm(1)}]), 25);
  EXPECT_TRUE(plan_stage(false, p, kExecutors, storage, endpoints_map()).empty());
}

TEST(PhasePlan, RequestedDevicesAreCheckedAndUsed)
{
  auto p =
      profile(2, 2, descriptor("external", 1, 0, 100, "disperse"), json::array({{{"kind", "read"}, {"bytes", 4}}}));
  RequestedStorage ok{std::nullopt, {nvm(6), nvm(7)}, AccessType::Affinity};
  auto storage = resolve_storage(p, {0, 1}, ok, endpoints_map(), kNodes);
  EXPECT_EQ(storage.devices, ok.devices);
  EXPECT_EQ(storage.access, AccessType::Affinity);
  EXPECT_EQ(storage.allocation, StorageAllocation::External);
  RequestedStorage compute_node{std::nullopt, {3}, std::nullopt};
  EXPECT_THROW(resolve_storage(p, {0, 1}, compute_node, endpoints_map(), kNodes), InputError);
  RequestedStorage twice{std::nullopt, {nvm(6), nvm(6)}, std::nullopt};
  EXPECT_THROW(resolve_storage(p, {0, 1}, twice, endpoints_map(), kNodes), InputError);
  RequestedStorage missing{std::nullopt, {999}, std::nullopt};
  EXPECT_THROW(resolve_storage(p, {0, 1}, missing, endpoints_map(), kNodes), InputError);
  // An NVM endpoint is not a device of a san override, nor an I/O server of an internal one.
  RequestedStorage nvm_as_san{StorageAllocation::San, {nvm(6)}, std::nullopt};
  EXPECT_THROW(resolve_storage(p, {0, 1}, nvm_as_san, endpoints_map(), kNodes), InputError);
  RequestedStorage server_as_internal{StorageAllocation::Internal, {24}, std::nullopt};
  EXPECT_THROW(resolve_storage(p, {0, 1}, server_as_internal, endpoints_map(), kNodes), InputError);
}

TEST(PhasePlan, TheDecisionsAllocationOverridesTheProfiles)
{
  // Profile: internal, stg_k 1, 100 % remote, 4 B read per task; san_k = 2 (descriptor()).
  auto storage_json              = descriptor("internal", 1, 0, 100, "disperse");
  storage_json["stage_in_bytes"] = 8;
  auto p                         = profile(2, 2, storage_json, json::array({{{"kind", "read"}, {"bytes", 4}}}));
  // cache: every task reads its own NVM, nothing remote.
  auto cache =
      resolve_storage(p, {0, 1}, RequestedStorage{StorageAllocation::Cache, {}, std::nullopt}, endpoints_map(), kNodes);
  EXPECT_EQ(cache.allocation, StorageAllocation::Cache);
  EXPECT_EQ(cache.devices, (std::vector<int>{nvm(0), nvm(1)}));
  auto f = flows_of(plan_phase(p, p.phases[0], {0, 1}, cache, endpoints_map()));
  EXPECT_DOUBLE_EQ(f.by_tier[Tier::LocalNvm], 8);
  EXPECT_DOUBLE_EQ(f.by_tier[Tier::RemoteNvm], 0);
  // san: the first san_k = 2 servers, each task's 4 B striped 2 + 2, no staging.
  auto san =
      resolve_storage(p, {0, 1}, RequestedStorage{StorageAllocation::San, {}, std::nullopt}, endpoints_map(), kNodes);
  EXPECT_EQ(san.devices, (std::vector<int>{24, 25}));
  auto g = flows_of(plan_phase(p, p.phases[0], {0, 1}, san, endpoints_map()));
  EXPECT_DOUBLE_EQ(g.by_tier[Tier::San], 8);
  EXPECT_DOUBLE_EQ((g.by_pair[{25, dram(1)}]), 2);
  EXPECT_TRUE(plan_stage(true, p, {0, 1}, san, endpoints_map()).empty());
  // The profile's own allocation still stages in.
  auto own = resolve_storage(p, {0, 1}, std::nullopt, endpoints_map(), kNodes);
  EXPECT_EQ(own.allocation, StorageAllocation::Internal);
  EXPECT_FALSE(plan_stage(true, p, {0, 1}, own, endpoints_map()).empty());
}

TEST(PhasePlan, TheAssignmentNeedsWhatThePlatformHas)
{
  auto p = profile(1, 1, descriptor("internal", 1, 0, 0, "disperse"), json::array());
  StorageEndpoints servers_only(kNodes + 1);
  servers_only.add(kNodes, StorageEndpoints::Kind::IoServer, -1);
  try {
    resolve_storage(p, {0}, std::nullopt, servers_only, kNodes);
    ADD_FAILURE() << "internal storage accepted without node NVM";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("needs node NVM"), std::string::npos) << e.what();
  }
  StorageEndpoints no_servers(kNodes * 3);
  for (int n = 0; n < kNodes; ++n) {
    no_servers.add(kNodes + n, StorageEndpoints::Kind::Dram, n);
    no_servers.add(2 * kNodes + n, StorageEndpoints::Kind::Nvm, n);
  }
  EXPECT_NO_THROW(resolve_storage(p, {0}, std::nullopt, no_servers, kNodes));
  try {
    resolve_storage(p, {0}, RequestedStorage{StorageAllocation::San, {}, std::nullopt}, no_servers, kNodes);
    ADD_FAILURE() << "san accepted without I/O servers";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no I/O server"), std::string::npos) << e.what();
  }
}

TEST(PhasePlan, ImpossibleDerivedDevicesAreErrors)
{
  auto big_internal = profile(2, 2, descriptor("internal", 3, 0, 0, "disperse"), json::array());
  EXPECT_THROW(resolve_storage(big_internal, {0, 1}, std::nullopt, endpoints_map(), kNodes), InputError);
  auto big_external = profile(2, 2, descriptor("external", 9, 0, 0, "disperse"), json::array());
  EXPECT_THROW(resolve_storage(big_external, {0, 1}, std::nullopt, endpoints_map(), kNodes), InputError);
  auto san     = descriptor("san", 1, 0, 0, "disperse");
  san["san_k"] = 3;
  EXPECT_THROW(resolve_storage(profile(1, 1, san, json::array()), {0}, std::nullopt, endpoints_map(), kNodes),
               InputError);
}

TEST(PhaseProfile, RejectsSchemaViolationsNamingTheField)
{
  auto base         = json{{"type", "datasched_phases"},
                   {"version", 1},
                   {"res", 2},
                   {"io_tasks", 2},
                   {"storage", descriptor("internal", 1, 0, 0, "disperse")},
                   {"phases", json::array({{{"kind", "read"}, {"bytes", 1}}})}};
  auto expect_error = [&](json broken, const std::string& fragment) {
    try {
      PhaseProfile::from_json(broken, "w.json: profile 'p'");
      ADD_FAILURE() << "accepted: " << broken.dump();
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("profile 'p'"), std::string::npos) << e.what();
    }
  };
  EXPECT_NO_THROW(PhaseProfile::from_json(base, "x"));
  auto negative                  = base;
  negative["phases"][0]["bytes"] = -1;
  expect_error(negative, "bytes");
  auto pct                      = base;
  pct["storage"]["mem_hit_pct"] = 120;
  expect_error(pct, "mem_hit_pct");
  auto remote                     = base;
  remote["storage"]["remote_pct"] = -5;
  expect_error(remote, "remote_pct");
  auto unknown     = base;
  unknown["extra"] = 1;
  expect_error(unknown, "unknown field 'extra'");
  auto version       = base;
  version["version"] = 2;
  expect_error(version, "version");
  auto io        = base;
  io["io_tasks"] = 3;
  expect_error(io, "io_tasks");
  auto kind                 = base;
  kind["phases"][0]["kind"] = "sleep";
  expect_error(kind, "phase kind 'sleep'");
  auto access                 = base;
  access["storage"]["access"] = "random";
  expect_error(access, "access type 'random'");
  auto staging                         = base;
  staging["storage"]["stage_in_bytes"] = -5;
  expect_error(staging, "stage_in_bytes");
  auto allocation                     = base;
  allocation["storage"]["allocation"] = "tape";
  expect_error(allocation, "storage allocation 'tape'");
}

TEST(PhaseProfile, IsAProfileTypeOfTheWorkload)
{
  auto p = Profile::from_json("p",
                              json{{"type", "datasched_phases"},
                                   {"version", 1},
                                   {"res", 1},
                                   {"io_tasks", 1},
                                   {"storage", descriptor("cache", 1, 0, 0, "local")},
                                   {"phases", json::array()}},
                              "f");
  EXPECT_EQ(p.type, ProfileType::Phases);
  ASSERT_TRUE(p.phases);
  EXPECT_EQ(p.phases->storage.allocation, StorageAllocation::Cache);
}

TEST(PhasePlan, IpcFanoutSamplesTheAllToAllByShifts)
{
  // 8 active nodes, fanout 2: offsets 1 + floor((2k+1) 7 / 4) = 2 and 6 (= -2), S/2 each.
  const std::vector<int> nodes{0, 1, 2, 3, 4, 5, 6, 7};
  auto p       = profile(8, 8, descriptor("internal", 1, 0, 0, "disperse"),
                         json::array({{{"kind", "communicate"}, {"bytes", 70}, {"pattern", "all_to_all"}}}));
  auto storage = resolve_storage(p, nodes, std::nullopt, endpoints_map(), kNodes);
  auto sampled = plan_phase(p, p.phases[0], nodes, storage, endpoints_map(), 2);
  ASSERT_EQ(sampled.size(), 1u);
  EXPECT_DOUBLE_EQ(sampled[0].exact_pair_bytes, 10); // 70 / 7, what the calibration aims at
  auto f = flows_of(sampled);
  EXPECT_DOUBLE_EQ(f.total, 560); // every node still sends 70 B (and receives 70 B)
  EXPECT_EQ(f.by_pair.size(), 16u);
  for (int i = 0; i < 8; ++i) {
    EXPECT_DOUBLE_EQ((f.by_pair[{i, (i + 2) % 8}]), 35);
    EXPECT_DOUBLE_EQ((f.by_pair[{i, (i + 6) % 8}]), 35);
  }
  // fanout >= n - 1, or 0: the exact all-to-all.
  for (int fanout : {0, 7, 50}) {
    auto exact = plan_phase(p, p.phases[0], nodes, storage, endpoints_map(), fanout);
    ASSERT_EQ(exact.size(), 1u);
    EXPECT_EQ(exact[0].exact_pair_bytes, 0);
    EXPECT_EQ(flows_of(exact).by_pair.size(), 56u) << fanout;
  }
}

namespace {
PhaseProfile distributed_profile(int res, int io_tasks, const json& storage, const json& phases)
{
  return PhaseProfile::from_json(json{{"type", "datasched_phases"},
                                      {"version", 1},
                                      {"res", res},
                                      {"io_tasks", io_tasks},
                                      {"io_distribution", "per_task"},
                                      {"storage", storage},
                                      {"phases", phases}},
                                 "test: profile 'p'");
}
} // namespace

TEST(PhasePlan, PerTaskReadDistributesEachTasksShareAfterItsOwnRead)
{
  // 4 tasks, the first 2 read 120 B from their own NVM (cache): each then sends
  // 120 / 4 = 30 B to each of the 2 non-I/O tasks, after its own read only.
  auto p       = distributed_profile(4, 2, descriptor("cache", 4, 0, 0, "disperse"),
                                     json::array({{{"kind", "read"}, {"bytes", 120}}}));
  auto storage = resolve_storage(p, kExecutors, std::nullopt, endpoints_map(), kNodes);
  auto specs   = plan_phase(p, p.phases[0], kExecutors, storage, endpoints_map());
  ASSERT_EQ(specs.size(), 4u); // per I/O task: its read, then its distribution
  for (size_t task = 0; task < 2; ++task) {
    const ActivitySpec& read  = specs[2 * task];
    const ActivitySpec& share = specs[2 * task + 1];
    EXPECT_EQ(read.tier, Tier::LocalNvm);
    EXPECT_TRUE(read.after.empty());
    EXPECT_EQ(share.tier, Tier::Network);
    EXPECT_EQ(share.traffic, TrafficClass::Ipc);
    EXPECT_EQ(share.after, (std::vector<size_t>{2 * task}));
    auto f = flows_of({share});
    EXPECT_DOUBLE_EQ((f.by_pair[{static_cast<int>(task), 2}]), 30);
    EXPECT_DOUBLE_EQ((f.by_pair[{static_cast<int>(task), 3}]), 30);
    EXPECT_DOUBLE_EQ(f.total, 60);
  }
}

TEST(PhasePlan, PerTaskWriteGathersBeforeWriting)
{
  auto p       = distributed_profile(4, 2, descriptor("cache", 4, 50, 0, "disperse"),
                                     json::array({{{"kind", "write"}, {"bytes", 40}}}));
  auto storage = resolve_storage(p, kExecutors, std::nullopt, endpoints_map(), kNodes);
  auto specs   = plan_phase(p, p.phases[0], kExecutors, storage, endpoints_map());
  ASSERT_EQ(specs.size(), 6u); // per I/O task: the gather, then its DRAM and NVM writes
  for (size_t task = 0; task < 2; ++task) {
    const ActivitySpec& gather = specs[3 * task];
    EXPECT_EQ(gather.traffic, TrafficClass::Ipc);
    EXPECT_TRUE(gather.after.empty());
    auto f = flows_of({gather});
    EXPECT_DOUBLE_EQ((f.by_pair[{2, static_cast<int>(task)}]), 10); // 40 / 4 from each non-I/O task
    EXPECT_DOUBLE_EQ((f.by_pair[{3, static_cast<int>(task)}]), 10);
    EXPECT_EQ(specs[3 * task + 1].after, (std::vector<size_t>{3 * task}));
    EXPECT_EQ(specs[3 * task + 2].after, (std::vector<size_t>{3 * task}));
  }
}

TEST(PhasePlan, PerTaskWithEveryTaskDoingIoMovesNoIpc)
{
  auto p = distributed_profile(4, 4, descriptor("internal", 2, 25, 40, "disperse"),
                               json::array({{{"kind", "read"}, {"bytes", 100}}}));
  auto bulk =
      profile(4, 4, descriptor("internal", 2, 25, 40, "disperse"), json::array({{{"kind", "read"}, {"bytes", 100}}}));
  auto where = resolve_storage(p, kExecutors, std::nullopt, endpoints_map(), kNodes);
  auto per   = plan_phase(p, p.phases[0], kExecutors, where, endpoints_map());
  auto one   = plan_phase(bulk, bulk.phases[0], kExecutors, where, endpoints_map());
  EXPECT_EQ(flows_of(per).by_pair, flows_of(one).by_pair); // same flows, one activity set per task
  EXPECT_EQ(flows_of(per).by_tier.count(Tier::Network), 0u);
  EXPECT_GT(per.size(), one.size());
}

TEST(PhasePlan, UnknownIoDistributionIsAnInputError)
{
  EXPECT_THROW(PhaseProfile::from_json(json{{"type", "datasched_phases"},
                                            {"version", 1},
                                            {"res", 2},
                                            {"io_tasks", 1},
                                            {"io_distribution", "broadcast"},
                                            {"storage", descriptor("cache", 2, 0, 0, "disperse")},
                                            {"phases", json::array()}},
                                       "test"),
               InputError);
}
