// The interference mode's two SimGrid models (interference/simgrid_model.hpp) against
// closed forms: SimGrid's Cas01 CPU sharing as the cas01_cm02 model configures it, an HPL
// iteration bound by its slowest node, the ring exchange, and one small experiment with
// I/O, services and idle noise run under both models. Each case runs in a forked child
// (one SimGrid engine per process); engine runs write their CSV files, read back here.
//
// Notation: a node has C cores of speed s (flop/s); the HPL job computes F flops per node
// and iteration; a NIC direction has bandwidth B and latency lambda (a host-to-host route
// crosses two NICs: L = 2 lambda).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include <nlohmann/json.hpp>

#include "common/engine_config.hpp"
#include "interference/simgrid_model.hpp"
#include "scenarios/registry.hpp"
#include "support/scripted_engine.hpp"

namespace datasched::testing {
namespace {

namespace sg4 = simgrid::s4u;
namespace fs  = std::filesystem;
using interference::SimgridModel;

constexpr double kSpeed   = 1e9;    // s, flop/s per core
constexpr int kCores      = 4;      // C
constexpr double kLink    = 12.5e9; // B, per NIC direction
constexpr double kLatency = 1e-6;   // lambda, per NIC

// ---------------------------------------------------------------------------------------
// SimGrid's Cas01 under the cas01_cm02 options, on a platform built in code.

/// Starts SimGrid with exactly the options the interference mode gives for `model`.
void start_engine(SimgridModel model)
{
  static std::vector<std::string> args;
  args = {"test", "--log=root.thres:critical"};
  for (const auto& option : interference::simgrid_options(model))
    args.push_back("--cfg=" + option);
  static std::vector<char*> argv;
  for (auto& a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc                  = static_cast<int>(args.size());
  static const auto* engine = new sg4::Engine(&argc, argv.data());
  (void)engine;
}

/// Completion dates of single-core execs of `flops` each, all started at 0 on one host of
/// `cores` cores at kSpeed.
std::vector<double> single_core_execs(int cores, const std::vector<double>& flops)
{
  start_engine(SimgridModel::Cas01Cm02);
  auto* zone = sg4::create_full_zone("world");
  auto* host = zone->create_host("node", kSpeed)->set_core_count(cores);
  host->seal();
  zone->seal();
  std::vector<double> dates(flops.size(), -1);
  sg4::Actor::create("starter", host, [&]() {
    std::vector<sg4::ExecPtr> running;
    for (double f : flops)
      running.push_back(sg4::this_actor::exec_init(f)->set_host(host)->start());
    for (std::size_t i = 0; i < running.size(); ++i) {
      running[i]->wait();
      dates[i] = running[i]->get_finish_time();
    }
  });
  sg4::Engine::get_instance()->run();
  return dates;
}

int check_dates(const std::vector<double>& got, const std::vector<double>& expected)
{
  bool ok = got.size() == expected.size();
  for (std::size_t i = 0; ok && i < got.size(); ++i)
    ok = std::abs(got[i] - expected[i]) <= 1e-9 * std::max(1.0, expected[i]);
  if (!ok)
    for (std::size_t i = 0; i < got.size(); ++i)
      std::fprintf(stderr, "exec %zu: got %.12f, expected %.12f\n", i, got[i], i < expected.size() ? expected[i] : -1);
  return ok ? 0 : 1;
}

// C ranks of F flops and k service threads of W < F flops on a C-core host. Cas01 gives
// each of the C + k single-core activities C·s/(C + k) while all run (each capped at s):
// the services end at t_w = W (C + k)/(C s); then the C ranks run alone at s each and end
// when the host has done all the work at C·s: t_F = (C F + k W)/(C s).
TEST(InterferenceModels, Cas01SharesACCoreHostBetweenCPlusKThreads)
{
  const double F = 4e9;
  const double W = 1e9;
  const int k    = 2;
  std::vector<double> flops(kCores, F);
  flops.insert(flops.end(), k, W);
  const double t_w = W * (kCores + k) / (kCores * kSpeed);     // 1.5 s
  const double t_f = (kCores * F + k * W) / (kCores * kSpeed); // 4.5 s
  std::vector<double> expected(kCores, t_f);
  expected.insert(expected.end(), k, t_w);
  EXPECT_EQ(run_in_child([&] { return check_dates(single_core_execs(kCores, flops), expected); }), 0);
}

// Fewer threads than cores: each is capped at one core, t = F/s (not F/(C s / 2)).
TEST(InterferenceModels, Cas01CapsAThreadAtOneCore)
{
  const double F = 2e9;
  EXPECT_EQ(run_in_child([&] { return check_dates(single_core_execs(kCores, {F, F}), {F / kSpeed, F / kSpeed}); }), 0);
}

// ---------------------------------------------------------------------------------------
// The interference scenario (run_configured_scenario) on a small on-demand platform: nodes node-0... of C
// cores at s with an SSD, one switch, a SPLITDUPLEX NIC of B and lambda per host.

std::string platform_xml(int nodes)
{
  std::ostringstream xml;
  xml << "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      << "<platform version=\"4.1\"><zone id=\"root\" routing=\"Cluster\">\n";
  for (int i = 0; i < nodes; ++i)
    xml << "<host id=\"node-" << i << "\" speed=\"" << kSpeed << "f\" core=\"" << kCores << "\">"
        << "<prop id=\"role\" value=\"compute_node\"/>"
        << "<disk id=\"ssd\" read_bw=\"550000000Bps\" write_bw=\"500000000Bps\"><prop id=\"size\" "
           "value=\"894000000000\"/></disk></host>\n";
  for (int i = 0; i < nodes; ++i)
    xml << "<link id=\"node-" << i << "-nic\" bandwidth=\"" << kLink << "Bps\" latency=\"" << kLatency
        << "s\" sharing_policy=\"SPLITDUPLEX\"/>\n";
  for (int i = 0; i < nodes; ++i)
    xml << "<host_link id=\"node-" << i << "\" up=\"node-" << i << "-nic_UP\" down=\"node-" << i << "-nic_DOWN\"/>\n";
  xml << "</zone></platform>\n";
  return xml.str();
}

using Rows = std::vector<std::map<std::string, std::string>>;

Rows read_csv(const fs::path& path)
{
  std::ifstream in(path);
  std::string line;
  std::vector<std::string> header;
  Rows rows;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ','))
      cells.push_back(cell);
    if (header.empty()) {
      header = cells;
      continue;
    }
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < header.size() && i < cells.size(); ++i)
      row[header[i]] = cells[i];
    rows.push_back(row);
  }
  return rows;
}

struct EngineRun {
  int code = -1;
  Rows hpl;
  Rows iterations;
  Rows services;
  Rows ior;
  double value(const Rows& rows, std::size_t row, const std::string& column) const
  {
    return std::stod(rows.at(row).at(column));
  }
};

/// Runs `experiment` (its "simgrid_model" set to `model`) on `nodes` nodes in a child.
EngineRun run_engine(nlohmann::json experiment, SimgridModel model, int nodes, const std::string& name)
{
  const fs::path dir = fs::temp_directory_path() / ("datasched-interference-models-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path platform = dir / (name + ".xml");
  const fs::path document = dir / (name + ".json");
  const fs::path prefix   = dir / name;
  std::ofstream(platform) << platform_xml(nodes);
  experiment["simgrid_model"] = interference::to_string(model);
  std::ofstream(document) << experiment.dump();
  EngineRun run;
  run.code = run_in_child([&] {
    EngineConfig config;
    config.platform_file = platform.string();
    config.scenario      = "interference";
    config.scenario_file = document.string();
    config.export_prefix = prefix.string();
    return run_configured_scenario(config, "test");
  });
  if (run.code == 0) {
    run.hpl        = read_csv(prefix.string() + "_hpl.csv");
    run.iterations = read_csv(prefix.string() + "_iterations.csv");
    run.services   = read_csv(prefix.string() + "_services.csv");
    run.ior        = read_csv(prefix.string() + "_ior.csv");
  }
  fs::remove_all(dir);
  return run;
}

class BothModels : public ::testing::TestWithParam<SimgridModel> {};

INSTANTIATE_TEST_SUITE_P(InterferenceModels, BothModels,
                         ::testing::Values(SimgridModel::PtaskL07, SimgridModel::Cas01Cm02),
                         [](const auto& info) { return interference::to_string(info.param); });

// Two HPL nodes, one iteration of F = 8e9 flops each; node-0's storage service makes one
// idle burst of W = r·P = 1e9 flops at 0 (aligned phase, period P = 100 s longer than the
// run). node-1 ends at F/(C s) = 2 s; node-0 at (F + W)/(C s) = 2.25 s — W/(C s) later —
// and the iteration (its barrier) with it: the slowest node is node-0.
TEST_P(BothModels, AnIterationIsBoundByItsSlowestNode)
{
  const double F     = 8e9;
  const double W     = 1e9;
  nlohmann::json doc = {
      {"hpl", {{"hosts", {"node-0", "node-1"}}, {"iterations", 1}, {"flops_per_iteration", F}}},
      {"services", {{"storage", {"node-0"}}}},
      {"daemon_costs", {{"idle_flops_per_second", W / 100}, {"idle_period", 100}, {"idle_phase", "aligned"}}}};
  const auto run = run_engine(doc, GetParam(), 2, "slowest");
  ASSERT_EQ(run.code, 0);
  EXPECT_NEAR(run.value(run.iterations, 0, "compute_end"), (F + W) / (kCores * kSpeed), 1e-9);
  EXPECT_EQ(run.iterations.at(0).at("slowest_host"), "node-0");
  EXPECT_NEAR(run.value(run.hpl, 0, "compute_alone"), F / (kCores * kSpeed), 1e-9);
}

// Four HPL nodes in a ring, each sending S bytes to the next at once: every flow has its
// own NIC directions (node i's up, node i+1's down), so each hop takes L + S/B with
// L = 2 lambda: end - compute_end = 2 lambda + S/B (= 0.100002 s for S = 1.25e9).
TEST_P(BothModels, TheRingExchangeTakesOneHopOnDisjointLinks)
{
  const double F     = 4e8;
  const double S     = 1.25e9;
  nlohmann::json doc = {{"hpl",
                         {{"hosts", {"node-0", "node-1", "node-2", "node-3"}},
                          {"iterations", 2},
                          {"flops_per_iteration", F},
                          {"bytes_per_iteration", S}}}};
  const auto run     = run_engine(doc, GetParam(), 4, "ring");
  ASSERT_EQ(run.code, 0);
  const double hop = 2 * kLatency + S / kLink;
  for (std::size_t i = 0; i < 2; ++i)
    EXPECT_NEAR(run.value(run.iterations, i, "end") - run.value(run.iterations, i, "compute_end"), hop, 1e-9);
  EXPECT_NEAR(run.value(run.hpl, 0, "makespan"), 2 * (F / (kCores * kSpeed) + hop), 1e-9);
}

/// k IOR writers on node-(k+1), one request of s bytes outstanding each (batch 1, stripe 1: file
/// f stays on target f mod (number of targets)), no service CPU, HPL alone on node-0 for H s.
nlohmann::json writers_experiment(int k, const std::vector<std::string>& targets, double H)
{
  return {{"hpl", {{"hosts", {"node-0"}}, {"iterations", 1}, {"flops_per_iteration", H * kCores * kSpeed}}},
          {"ior",
           {{"hosts", {"node-" + std::to_string(k + 1)}},
            {"processes_per_node", k},
            {"transfer_size", 4096},
            {"sync_bytes", 8192}}},
          {"services", {{"storage", targets}, {"metadata", {"node-1"}}, {"stripe_count", 1}}}};
}

constexpr double kDiskWrite = 500e6; // D, the SSD's write bandwidth (platform_xml)

/// Writes completed by H when k writers start in lockstep: the file's creation takes
/// t0 = 2 (2 lambda + k c/B) (k control messages of c = 1 byte share the IOR node's NIC each
/// way); then every writer repeats, all at once, a cycle T = 4 lambda + k (s + c)/B + k_d d/D
/// (requests and replies share that NIC k ways; k_d writes of d = s + sync bytes share a disk).
/// Each writer completes floor((H - t0)/T) cycles before the HPL job ends.
double lockstep_writes(int k, int writers_per_disk, double H)
{
  const double s = 4096, c = 1, d = 4096 + 8192;
  const double t0     = 2 * (2 * kLatency + k * c / kLink);
  const double T      = 4 * kLatency + k * (s + c) / kLink + writers_per_disk * d / kDiskWrite;
  const double cycles = (H - t0) / T;
  EXPECT_GT(cycles - std::floor(cycles), 0.05); // not at a cycle boundary (H is chosen so)
  EXPECT_LT(cycles - std::floor(cycles), 0.95);
  return k * std::floor(cycles);
}

// Several writers, each on a disk of its own (k = 3 targets): T = 4 lambda + 3 (s + c)/B + d/D
// (29.56 µs), 344 cycles each in H = 10.2 ms. Both models give the formula exactly: the sharing
// of the NIC between writers and the disk model are the same in both.
TEST_P(BothModels, WritersOnTheirOwnDisksMatchTheLockstepClosedForm)
{
  const double H = 0.0102;
  const auto run = run_engine(writers_experiment(3, {"node-1", "node-2", "node-3"}, H), GetParam(), 5, "own-disks");
  ASSERT_EQ(run.code, 0);
  EXPECT_EQ(run.value(run.ior, 0, "requests"), lockstep_writes(3, 1, H));
}

// Three writers sharing one disk: each write takes 3 d/D (D shared three ways), T = 78.71 µs,
// 129 cycles each in H = 10.2 ms; the same under both models.
TEST_P(BothModels, WritersSharingADiskMatchTheLockstepClosedForm)
{
  const double H = 0.0102;
  const auto run = run_engine(writers_experiment(3, {"node-1"}, H), GetParam(), 5, "shared-disk");
  ASSERT_EQ(run.code, 0);
  EXPECT_EQ(run.value(run.ior, 0, "requests"), lockstep_writes(3, 3, H));
}

/// A small experiment with everything at once: 3 HPL nodes in a ring, an IOR node with
/// `writers` processes writing 4 KiB requests (batches of 16) to storage targets on the HPL
/// nodes, metadata on node-0, request costs, seeded random idle bursts.
nlohmann::json small_experiment(int writers)
{
  return {{"seed", 7},
          {"hpl",
           {{"hosts", {"node-0", "node-1", "node-2"}},
            {"iterations", 5},
            {"flops_per_iteration", 2e9},
            {"bytes_per_iteration", 5e7}}},
          {"ior",
           {{"hosts", {"node-3"}},
            {"processes_per_node", writers},
            {"transfer_size", 4096},
            {"requests_per_batch", 16},
            {"sync_bytes", 8192}}},
          {"services", {{"storage", {"node-0", "node-1", "node-2"}}, {"metadata", {"node-0"}}}},
          {"daemon_costs",
           {{"flops_per_request", 2e5},
            {"flops_per_metadata_op", 2e5},
            {"idle_flops_per_second", 1e7},
            {"idle_period", 0.5}}}};
}

/// |cas01_cm02 - ptask_L07| / ptask_L07 of the HPL makespan and of the IOR writes; checks
/// that the services cost something (the comparison is not of two idle runs).
std::pair<double, double> relative_differences(const nlohmann::json& doc, const std::string& name)
{
  const auto l07 = run_engine(doc, SimgridModel::PtaskL07, 4, name + "-l07");
  const auto cas = run_engine(doc, SimgridModel::Cas01Cm02, 4, name + "-cas01");
  EXPECT_EQ(l07.code, 0);
  EXPECT_EQ(cas.code, 0);
  if (l07.code != 0 || cas.code != 0)
    return {1, 1};
  const double makespan = l07.value(l07.hpl, 0, "makespan");
  EXPECT_GT(makespan, l07.value(l07.hpl, 0, "compute_alone") * 1.01);
  const double writes = l07.value(l07.ior, 0, "requests");
  EXPECT_GT(writes, 0);
  return {std::abs(cas.value(cas.hpl, 0, "makespan") / makespan - 1),
          std::abs(cas.value(cas.ior, 0, "requests") / writes - 1)};
}

// One writer: every mechanism is the same fluid share under both models (CPU: C·s/(C + k)
// per thread; links: equal shares of B between flows of equal route latency, no
// cross-traffic; latencies paid before the bandwidth), so the two runs agree to rounding:
// 1e-9 relative on the HPL makespan and the IOR writes.
TEST(InterferenceModels, BothModelsAgreeWithOneWriter)
{
  const auto [makespan, writes] = relative_differences(small_experiment(1), "agree");
  EXPECT_LE(makespan, 1e-9);
  EXPECT_LE(writes, 1e-9);
}

// Eight concurrent writers over three targets: the two models' outputs then differ (0.3 % on
// the makespan and 1.1 % on the writes here) although every rate formula is the same (the
// lockstep closed forms above hold exactly under both). The writers run in lockstep and reach
// their targets at the same instants; which of several simultaneous completions SimGrid handles
// first decides how the writers bunch on the disks, and the two models break such ties
// differently once their floating-point dates drift apart (README.md, "SimGrid models";
// ManyWritersOnFewDisksHangOnTies below). Stated bound: 2 % on the makespan, 5 % on the writes,
// so that a change in either model shows.
TEST(InterferenceModels, BothModelsStayCloseWithEightWriters)
{
  const auto [makespan, writes] = relative_differences(small_experiment(8), "close");
  EXPECT_LE(makespan, 0.02);
  EXPECT_LE(writes, 0.05);
}

/// Eight writers of 16 x 4 KiB batches striped (4 chunks of 512 KiB) over targets on the three
/// HPL nodes, no service CPU, one HPL iteration of 2.5 s, `sync_bytes` device bytes per write.
double eight_writers_on_three_disks(SimgridModel model, int sync_bytes)
{
  const nlohmann::json doc = {
      {"hpl", {{"hosts", {"node-0", "node-1", "node-2"}}, {"iterations", 1}, {"flops_per_iteration", 1e10}}},
      {"ior",
       {{"hosts", {"node-3"}},
        {"processes_per_node", 8},
        {"transfer_size", 4096},
        {"requests_per_batch", 16},
        {"sync_bytes", sync_bytes}}},
      {"services", {{"storage", {"node-0", "node-1", "node-2"}}, {"metadata", {"node-0"}}}}};
  const auto run = run_engine(doc, model, 4, "ties-" + std::to_string(sync_bytes));
  EXPECT_EQ(run.code, 0);
  return run.code == 0 ? run.value(run.ior, 0, "requests") : 0;
}

// Why the models differ with several writers per node, shown within one model: a write's device
// bytes grow by 1 in 12,288 (sync_bytes 8192 -> 8193), so a smooth model would write at most
// 0.01 % less; instead the writes move by tens of percent (measured 2026-11-27: ptask_L07
// 152,880 -> 193,216, cas01_cm02 166,832 -> 193,040; more device bytes, *more* writes). The
// throughput is set by how many of the three disks the lockstep writers keep busy at once, a
// discrete regime chosen by ties between simultaneous events, not by any rate. Both models are
// equally right; the 9 % they differ by at 8192 is of the size of this one-byte jump. Bound: more
// than 5 % either way under each model.
TEST_P(BothModels, ManyWritersOnFewDisksHangOnTies)
{
  const double base = eight_writers_on_three_disks(GetParam(), 8192);
  const double more = eight_writers_on_three_disks(GetParam(), 8193);
  ASSERT_GT(base, 0);
  EXPECT_GT(std::abs(more / base - 1), 0.05) << base << " -> " << more;
}

// ---------------------------------------------------------------------------------------
// The "memory" node model (interference/memory.hpp): a resource of BW_m bytes/s per node
// that the HPL ranks' memory traffic (M = hpl_bytes_per_flop x F per node and iteration,
// M/C per rank, concurrent with the rank's F/C flops) and a storage service's copies
// (D = io_copies x the bytes it writes to its disk, concurrent with the disk write) share.

constexpr double kMemory = 1e10; // BW_m, bytes/s

/// One HPL iteration of F flops on `hosts` with a memory section of BW_m, beta, copies.
nlohmann::json memory_experiment(const std::vector<std::string>& hosts, double F, double beta, double copies)
{
  return {{"hpl", {{"hosts", hosts}, {"iterations", 1}, {"flops_per_iteration", F}}},
          {"memory", {{"bandwidth", kMemory}, {"hpl_bytes_per_flop", beta}, {"io_copies", copies}}}};
}

// Alone, a node's share lasts max(F/(C s), M/BW_m). Compute-bound: F = 4e9, beta = 1 gives
// F/(C s) = 1 s > M/BW_m = 0.4 s: the iteration takes 1 s. Memory-bound: beta = 5 gives
// M/BW_m = 2e10/1e10 = 2 s > 1 s: it takes 2 s. compute_alone is the same maximum.
TEST_P(BothModels, AnIterationAloneIsBoundByComputeOrByMemory)
{
  const double F = 4e9;
  for (const auto& [beta, expected] :
       std::vector<std::pair<double, double>>{{1, F / (kCores * kSpeed)}, {5, 5 * F / kMemory}}) {
    const auto run = run_engine(memory_experiment({"node-0"}, F, beta, 0), GetParam(), 1, "memory-alone");
    ASSERT_EQ(run.code, 0);
    EXPECT_NEAR(run.value(run.iterations, 0, "compute_end"), expected, 1e-9) << "beta " << beta;
    EXPECT_NEAR(run.value(run.hpl, 0, "compute_alone"), expected, 1e-9) << "beta " << beta;
  }
}

/// HPL on node-0 and node-1 (memory-bound: F = 4e9, beta = 5, so F/(C s) = 1 s < M/BW_m = 2 s);
/// one IOR writer on node-2 writes one request of S bytes (chunk = S, no control messages, no
/// service CPU) to the storage target on node-0, with io_copies = `copies`.
nlohmann::json daemon_stream_experiment(std::uint64_t S, double copies)
{
  auto doc        = memory_experiment({"node-0", "node-1"}, 4e9, 5, copies);
  doc["ior"]      = {{"hosts", {"node-2"}}, {"transfer_size", S}, {"requests_per_process", 1}, {"control_bytes", 0}};
  doc["services"] = {{"storage", {"node-0"}}, {"metadata", {"node-2"}}, {"stripe_count", 1}, {"chunk_size", S}};
  return doc;
}

// HPL plus one daemon stream on node-0. The request reaches the target at t1 = 2 lambda + S/B
// (one hop, two NICs); its D = copies x S bytes of memory traffic start then, beside the C rank
// streams (each M/C bytes, t1 BW_m/C of it moved alone before t1). While all C + 1 run, each gets
// BW_m/(C + 1) (SimGrid's fair share of the memory resource, as of the cores). Piecewise:
//   D <= (M - t1 BW_m)/C: the daemon stream ends first (at t1 + D (C + 1)/BW_m), the ranks then
//     have BW_m to themselves, and no byte is lost: node-0's memory part ends at (M + D)/BW_m;
//   D >  (M - t1 BW_m)/C: the ranks end first, each moving its remaining (M - t1 BW_m)/C at
//     BW_m/(C + 1): it ends at t1 + (M - t1 BW_m)(C + 1)/(C BW_m).
// node-1 has no service: it ends at M/BW_m = 2 s. The iteration (the barrier) is node-0's end,
// the slowest node. With S = 1.25e9, t1 = 0.100002 s; (M - t1 BW_m)/C = 4.75e9:
// copies = 2 (D = 2.5e9) takes the first branch, 2.25 s; copies = 4 (D = 5e9) the second,
// 2.4749995 s.
TEST_P(BothModels, HplAndADaemonStreamShareTheMemoryBandwidth)
{
  const std::uint64_t S = 1'250'000'000;
  const double M        = 5 * 4e9;
  const double t1       = 2 * kLatency + S / kLink;
  const double C        = kCores;
  for (const double copies : {2.0, 4.0}) {
    const double D = copies * S;
    EXPECT_EQ(D <= (M - t1 * kMemory) / C, copies == 2.0); // each branch is taken once
    const double expected =
        D <= (M - t1 * kMemory) / C ? (M + D) / kMemory : t1 + (M - t1 * kMemory) * (C + 1) / (C * kMemory);
    const auto run = run_engine(daemon_stream_experiment(S, copies), GetParam(), 3, "memory-daemon");
    ASSERT_EQ(run.code, 0);
    EXPECT_NEAR(run.value(run.iterations, 0, "compute_end"), expected, 1e-8) << "copies " << copies;
    EXPECT_EQ(run.iterations.at(0).at("slowest_host"), "node-0") << "copies " << copies;
    EXPECT_NEAR(run.value(run.hpl, 0, "compute_alone"), M / kMemory, 1e-9); // node-1's time
  }
}

// Without io_copies the service moves nothing through memory: the same run ends at M/BW_m = 2 s
// on both nodes (the first, node-0, named slowest on the tie).
TEST_P(BothModels, NoCopiesLeaveTheMemoryToHpl)
{
  const auto run = run_engine(daemon_stream_experiment(1'250'000'000, 0), GetParam(), 3, "memory-no-copies");
  ASSERT_EQ(run.code, 0);
  EXPECT_NEAR(run.value(run.iterations, 0, "compute_end"), 5 * 4e9 / kMemory, 1e-9);
}

} // namespace
} // namespace datasched::testing
