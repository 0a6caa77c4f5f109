// Issue 32: every integer of an experiment file is read as 64 bits and checked against its
// field's range before it is narrowed. Each value below used to be cast to int and run
// with other parameters than asked (2^32 + 8 processes ran 8); now each is one error
// naming the file, the field, the allowed range and the value.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/fatal.hpp"
#include "forwarding/experiment.hpp"
#include "forwarding/job_layer.hpp"
#include "interference/experiment.hpp"
#include "model/json_fields.hpp"
#include "model/run_cost.hpp"
#include "qos/experiment.hpp"
#include "services/forwarding_schedulers.hpp"
#include "services/staging_layer.hpp"
#include "support/forwarding_documents.hpp"

using datasched::Fields;
using datasched::InputError;
using datasched::IntegerRange;
using datasched::NumberRange;
using datasched::testing::minimal_forwarding_experiment;

namespace {

constexpr long long k2to31 = 1LL << 31;
constexpr long long k2to32 = 1LL << 32;

template <typename Parse>
std::string error_of(Parse parse, const nlohmann::json& doc)
{
  try {
    parse(doc, "exp.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

nlohmann::json interference_doc()
{
  return nlohmann::json::parse(R"({
    "hpl": {"hosts": ["n0", "n1"], "iterations": 2, "flops_per_iteration": 1e9},
    "ior": {"hosts": ["n2"], "processes_per_node": 2, "transfer_size": 512},
    "services": {"storage": ["n0", "n1", "n2"], "metadata": ["n0"]}
  })");
}

nlohmann::json qos_doc()
{
  return nlohmann::json::parse(R"({
    "benchmark": {"kind": "latency", "hosts": ["a", "b"], "sizes": [8], "iterations": 10}
  })");
}

const auto forwarding    = datasched::forwarding::parse_experiment;
const auto job_layer     = datasched::forwarding::parse_job_layer;
const auto staging_layer = datasched::parse_staging_layer;
const auto interfering   = datasched::interference::parse_experiment;
const auto qos           = datasched::qos::parse_experiment;

} // namespace

TEST(InputLimits, InterferenceIterationsAbove2To31AreRefusedNotWrapped)
{
  auto doc                   = interference_doc();
  doc["hpl"]["iterations"]   = k2to31; // was -2147483648 iterations, makespan 0
  const std::string expected = "exp.json: hpl.iterations: must be an integer >= 1 and <= 1000000000 (iterations), got ";
  EXPECT_EQ(error_of(interfering, doc), expected + "2147483648");
  doc["hpl"]["iterations"] = k2to32 + 3; // was 3 iterations
  EXPECT_EQ(error_of(interfering, doc), expected + "4294967299");
  doc["hpl"]["iterations"] = 1000000000; // the largest stated is still accepted
  EXPECT_EQ(error_of(interfering, doc), "");
}

TEST(InputLimits, InterferenceStorageWorkers2To32IsRefused)
{
  auto doc                           = interference_doc();
  doc["services"]["storage_workers"] = k2to32; // was 0 workers: IOR wrote nothing
  EXPECT_EQ(error_of(interfering, doc), "exp.json: services.storage_workers: must be an integer >= 1 and <= 1000000 "
                                        "(worker threads), got 4294967296");
}

TEST(InputLimits, InterferenceHugeFlopsAreNamedAsTooLargeNotAsNotPositive)
{
  auto doc                          = interference_doc();
  doc["hpl"]["flops_per_iteration"] = 1e308; // was "must be > 0"
  EXPECT_EQ(error_of(interfering, doc), "exp.json: hpl.flops_per_iteration: must be a number > 0 and <= 1e+18 (flops "
                                        "per node), got 1e+308");
}

TEST(InputLimits, ForwardingProcesses2To32Plus8IsRefused)
{
  auto doc                            = minimal_forwarding_experiment();
  doc["applications"][0]["processes"] = k2to32 + 8; // was 8 processes
  EXPECT_EQ(error_of(forwarding, doc), "exp.json: applications[0].processes: must be an integer >= 1 and <= 1000000 "
                                       "(processes), got 4294967304");
}

TEST(InputLimits, ForwardingMaxInFlight2To32IsRefusedInBothFiles)
{
  auto doc                           = minimal_forwarding_experiment();
  doc["forwarding"]["max_in_flight"] = k2to32; // was 0 workers: both jobs killed at their walltime
  const std::string range =
      "must be an integer >= 1 and <= 1000000 (dispatches, one worker actor each), got 4294967296";
  EXPECT_EQ(error_of(forwarding, doc), "exp.json: forwarding.max_in_flight: " + range);
  auto layer             = nlohmann::json::parse(R"({"scheduler": "fifo"})");
  layer["max_in_flight"] = k2to32;
  EXPECT_EQ(error_of(job_layer, layer), "exp.json: max_in_flight: " + range);
}

TEST(InputLimits, ForwardingSharedFileLargerThan2To63IsRefused)
{
  auto doc                                    = minimal_forwarding_experiment();
  doc["applications"][0]["request_size"]      = 1LL << 40;
  doc["applications"][0]["bytes_per_process"] = 1LL << 62; // 4 processes: 2^64 bytes, offsets would wrap
  EXPECT_EQ(error_of(forwarding, doc),
            "exp.json: applications[0].bytes_per_process: processes x bytes_per_process must "
            "be <= 9223372036854775807 bytes, got 4 x 4611686018427387904");
}

TEST(InputLimits, QosIterations2To32Plus5IsRefused)
{
  auto doc                       = qos_doc();
  doc["benchmark"]["iterations"] = k2to32 + 5; // was 5 iterations
  EXPECT_EQ(error_of(qos, doc), "exp.json: benchmark.iterations: must be an integer >= 1 and <= 1000000000 "
                                "(iterations), got 4294967301");
}

TEST(InputLimits, IntegersAbove2To63AndNonIntegersAreRefused)
{
  // Values nlohmann keeps as unsigned (above 2^63 - 1) and floats: never narrowed.
  auto doc    = minimal_forwarding_experiment();
  doc["seed"] = std::numeric_limits<std::uint64_t>::max();
  EXPECT_EQ(error_of(forwarding, doc),
            "exp.json: seed: must be an integer >= 0 and <= 9223372036854775807, got 18446744073709551615");
  doc                     = minimal_forwarding_experiment();
  doc["clients"]["nodes"] = 2.0;
  EXPECT_EQ(error_of(forwarding, doc),
            "exp.json: clients.nodes: expected an integer >= 1 and <= 1000000 (client nodes), got 2.0");
  doc                     = minimal_forwarding_experiment();
  doc["clients"]["nodes"] = "NaN";
  EXPECT_EQ(error_of(forwarding, doc),
            "exp.json: clients.nodes: expected an integer >= 1 and <= 1000000 (client nodes), got \"NaN\"");
}

TEST(InputLimits, TheReaderChecksBeforeNarrowing)
{
  const std::string file = "f.json";
  auto doc               = nlohmann::json::parse(R"({"a": 2147483647, "b": 2147483648, "c": -1, "d": true})");
  Fields f(doc, "x", file);
  const IntegerRange<int> all_ints{std::numeric_limits<int>::min(), std::numeric_limits<int>::max()};
  EXPECT_EQ(f.integer("a", 0, all_ints), 2147483647);
  EXPECT_THROW(f.integer("b", 0, all_ints), InputError);
  EXPECT_THROW(f.integer<std::uint64_t>("c", 0, {0, 10}), InputError);
  EXPECT_THROW(f.number("d", 0, NumberRange{0, false, 1}), InputError); // a boolean is not a number
}

// The TWINS window a clock reading falls in, for tiny windows (now / window far above 10^7,
// where the old tolerance of 1e-9 windows is below a double's resolution): a clock at a
// window end is in that window, and the next window end is always later than the clock,
// also one ulp before a window end. (The hang itself also needed SimGrid's clock, which
// wakes a worker a rounding error before the date it waited for: the worker loop in
// service.cpp asks the scheduler at that date; tests/integration/hostile/
// test_experiment_limits.py runs 1 ns windows to their end.)
TEST(InputLimits, TwinsWindowBoundariesAreExactForTinyWindows)
{
  for (double window : {1e-9, 1.5e-9, 3e-9, 1e-3}) {
    datasched::forwarding::TwinsScheduler s(0, 3, window);
    for (int server = 0; server < 3; ++server) { // shares queued for every server
      datasched::forwarding::QueuedRequest r;
      r.server = server;
      s.push(r);
    }
    for (long long k : {1LL, 12345LL, 41234567LL, 123456789012LL}) {
      const double boundary = static_cast<double>(k) * window;
      EXPECT_GE(s.window_index(boundary), k) << window << " " << k;
      for (double now : {boundary, std::nextafter(boundary, 0.0)})
        EXPECT_GT(s.next_change(now), now) << window << " " << k;
    }
  }
}

TEST(InputLimits, RunCostsAboveTheBudgetAreRefusedOrWarnedWithTheEstimate)
{
  const datasched::RunCost cheap{1e6, "idle bursts"};
  const datasched::RunCost dear{5.36e10, "idle bursts (3 services x ...)"};
  EXPECT_NO_THROW(datasched::check_run_cost("exp.json", "daemon_costs.idle_period", cheap, false));
  try {
    datasched::check_run_cost("exp.json", "daemon_costs.idle_period", dear, false);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "exp.json: daemon_costs.idle_period: this run simulates at least 5.36e+10 idle bursts (3 services x "
              "...), about 21 days of CPU (more than 1e+07 events); change daemon_costs.idle_period, or pass "
              "--allow-long-run to run it anyway");
  }
  testing::internal::CaptureStderr();
  EXPECT_NO_THROW(datasched::check_run_cost("exp.json", "daemon_costs.idle_period", dear, true));
  const std::string warning = testing::internal::GetCapturedStderr();
  EXPECT_EQ(warning.rfind("datasched-sim: warning: exp.json: daemon_costs.idle_period: this run simulates at least "
                          "5.36e+10 idle bursts",
                          0),
            0u)
      << warning;
}

// Property over every experiment reader (issue 32): any numeric field given a value of the
// wrong type, a non-finite or absurd one, or an integer beyond 64 signed bits is refused
// with one line naming the file and the field's JSON path; no value is ever accepted by
// wrapping it. Random fields and values from a fixed seed, plus every field with every
// value of the fixed list.
namespace {

/// "/applications/0/processes" -> "applications[0].processes"; trailing indices (an entry of
/// a list of numbers) are dropped: the message names the list.
std::string dotted(const nlohmann::json::json_pointer& pointer)
{
  std::vector<std::string> tokens;
  for (auto p = pointer; !p.empty(); p = p.parent_pointer())
    tokens.insert(tokens.begin(), p.back());
  while (!tokens.empty() && std::all_of(tokens.back().begin(), tokens.back().end(), ::isdigit))
    tokens.pop_back();
  std::string out;
  for (const auto& t : tokens)
    out += std::all_of(t.begin(), t.end(), ::isdigit) ? "[" + t + "]" : (out.empty() ? "" : ".") + t;
  return out;
}

void numeric_leaves(const nlohmann::json& doc, const nlohmann::json::json_pointer& at,
                    std::vector<nlohmann::json::json_pointer>& out)
{
  if (doc.is_number())
    out.push_back(at);
  else if (doc.is_object())
    for (const auto& [key, value] : doc.items())
      numeric_leaves(value, at / key, out);
  else if (doc.is_array())
    for (std::size_t i = 0; i < doc.size(); ++i)
      numeric_leaves(doc[i], at / i, out);
}

/// Values no numeric field accepts.
std::vector<nlohmann::json> hostile_values()
{
  return {"NaN",
          "inf",
          "-inf",
          "1e400",
          "12",
          "",
          true,
          false,
          nullptr,
          nlohmann::json::array(),
          nlohmann::json::object(),
          nlohmann::json::array({1}),
          1e308,
          -1e308,
          -1e19,
          std::numeric_limits<std::uint64_t>::max(),
          static_cast<std::uint64_t>(1) << 63,
          std::numeric_limits<long long>::min()};
}

template <typename Parse>
void check_reader(const char* name, Parse parse, const nlohmann::json& base)
{
  ASSERT_EQ(error_of(parse, base), "") << name << ": the base document must be valid";
  std::vector<nlohmann::json::json_pointer> leaves;
  numeric_leaves(base, nlohmann::json::json_pointer(), leaves);
  ASSERT_GT(leaves.size(), 2u) << name;
  const auto values = hostile_values();
  auto check        = [&](const nlohmann::json::json_pointer& leaf, const nlohmann::json& value) {
    auto doc                = base;
    doc[leaf]               = value;
    const std::string error = error_of(parse, doc);
    EXPECT_FALSE(error.empty()) << name << " accepted " << leaf.to_string() << " = " << value.dump();
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    EXPECT_EQ(error.rfind("exp.json: " + dotted(leaf) + ": ", 0), 0u)
        << name << " " << leaf.to_string() << " = " << value.dump() << ": " << error;
  };
  for (const auto& leaf : leaves)
    for (const auto& value : values)
      check(leaf, value);
  std::mt19937_64 random(32); // random leaves, random doubles and integers of any magnitude
  for (int i = 0; i < 2000; ++i) {
    const auto& leaf        = leaves[random() % leaves.size()];
    const int e             = static_cast<int>(random() % 600) - 300;
    const double x          = std::ldexp(1.0 + static_cast<double>(random() % 1000) / 1000, e);
    auto doc                = base;
    doc[leaf]               = random() % 2 ? nlohmann::json(-x) : nlohmann::json(random() | (1ULL << 63));
    const std::string error = error_of(parse, doc);
    EXPECT_FALSE(error.empty()) << name << " accepted " << leaf.to_string() << " = " << doc[leaf].dump();
    EXPECT_EQ(error.rfind("exp.json: ", 0), 0u) << error;
  }
}

} // namespace

TEST(InputLimits, EveryReaderRefusesEveryHostileNumberWithOneLineNamingTheField)
{
  auto forwarding_full                               = minimal_forwarding_experiment();
  forwarding_full["seed"]                            = 3;
  forwarding_full["control_bytes"]                   = 1;
  forwarding_full["forwarding"]["max_in_flight"]     = 4;
  forwarding_full["forwarding"]["aggregation_limit"] = 4;
  forwarding_full["servers"]["hdd_alpha"]            = 0.5;
  forwarding_full["applications"][0]["start"]        = 1;
  forwarding_full["applications"][0]["jitter"]       = 0.1;
  check_reader("forwarding", forwarding, forwarding_full);

  auto layer = nlohmann::json::parse(R"({"scheduler": "twins", "window": 0.01, "max_in_flight": 4,
    "aggregation_limit": 4, "request_size": 1024, "stripe_size": 4096, "hdd_alpha": 0.1, "hdd_seek_scale": 1e6,
    "control_bytes": 1})");
  check_reader("job layer", job_layer, layer);

  auto staging = nlohmann::json::parse(R"({"block_size": 1048576, "buffer_bytes": 1e8, "capacity": 1e11,
    "idle_seconds": 0.01, "drain_chunk": 4e6, "high_watermark": 0.8, "seed": 5})");
  check_reader("staging layer", staging_layer, staging);

  auto interference_full                            = interference_doc();
  interference_full["seed"]                         = 1;
  interference_full["hpl"]["bytes_per_iteration"]   = 1e6;
  interference_full["ior"]["requests_per_batch"]    = 2;
  interference_full["ior"]["requests_per_process"]  = 10;
  interference_full["ior"]["sync_bytes"]            = 4;
  interference_full["ior"]["control_bytes"]         = 1;
  interference_full["services"]["stripe_count"]     = 2;
  interference_full["services"]["chunk_size"]       = 1024;
  interference_full["services"]["storage_workers"]  = 3;
  interference_full["services"]["metadata_workers"] = 3;
  interference_full["daemon_costs"]                 = {{"flops_per_byte", 1},
                                                       {"flops_per_request", 1},
                                                       {"flops_per_metadata_op", 1},
                                                       {"idle_flops_per_second", 1},
                                                       {"idle_period", 0.5}};
  check_reader("interference", interfering, interference_full);

  auto qos_full = nlohmann::json::parse(R"({"seed": 1,
    "benchmark": {"kind": "bandwidth", "hosts": ["a", "b"], "sizes": [8, 1024], "iterations": 10, "warmup": 2,
                  "window": 8, "ack_bytes": 4, "start": 0.5},
    "staging": {"server": "s", "port": "p", "pfs": "f", "buffer_bytes": 1e6, "capacity": 1e9, "idle_seconds": 0.1,
                "drain_chunk": 1e5, "high_watermark": 0.5},
    "noise": {"writers": ["w"], "block_size": 1e6, "start": 0, "jitter": 0.01},
    "writes": [{"host": "w", "bytes": 1e6, "block_size": 1e5, "start": 1}],
    "transfers": [{"src": "a", "dst": "b", "bytes": 1000, "start": 1}],
    "arbitration": {"granularity": 4096}})");
  check_reader("qos", qos, qos_full);
}

TEST(InputLimits, InterferenceSyncBytesOfABatchMustFit64Bits)
{
  auto doc                      = interference_doc();
  doc["ior"]["transfer_size"]   = 1;
  doc["services"]["chunk_size"] = 1LL << 40;
  doc["ior"]["sync_bytes"]      = 1LL << 30; // 2^70 device bytes for one chunk's batch: would wrap
  EXPECT_EQ(error_of(interfering, doc), "exp.json: ior.sync_bytes: (services.chunk_size / ior.transfer_size) x "
                                        "ior.sync_bytes must be <= 9223372036854775807, got 1099511627776 x "
                                        "1073741824");
  doc["ior"]["sync_bytes"] = 1LL << 22; // 2^62: fits
  EXPECT_EQ(error_of(interfering, doc), "");
}
