// Validation of interference experiment descriptions and the daemon cost formulas.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/fatal.hpp"
#include "interference/experiment.hpp"
#include "services/daemon_costs.hpp"

using namespace datasched::interference;
using datasched::InputError;

namespace {
nlohmann::json minimal()
{
  return nlohmann::json::parse(R"({
    "hpl": {"hosts": ["n0", "n1"], "iterations": 2, "flops_per_iteration": 1e9},
    "ior": {"hosts": ["n2"], "processes_per_node": 2, "transfer_size": 512},
    "services": {"storage": ["n0", "n1", "n2"], "metadata": ["n0"]},
    "daemon_costs": {"flops_per_byte": 10, "flops_per_request": 1000, "flops_per_metadata_op": 5000,
                     "idle_flops_per_second": 1e6, "idle_period": 0.5}
  })");
}

std::string error_of(const nlohmann::json& doc)
{
  try {
    parse_experiment(doc, "exp.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
} // namespace

TEST(InterferenceExperiment, ParsesAMinimalDescription)
{
  auto e = parse_experiment(minimal(), "exp.json");
  EXPECT_EQ(e.hpl.hosts.size(), 2u);
  EXPECT_EQ(e.ior.processes_per_node, 2);
  EXPECT_EQ(e.services.stripe_count, 4);
  EXPECT_DOUBLE_EQ(e.costs.idle_period, 0.5);
}

TEST(InterferenceExperiment, ChoosesItsSimgridModel)
{
  EXPECT_EQ(parse_experiment(minimal(), "exp.json").model, SimgridModel::PtaskL07); // the default
  auto doc             = minimal();
  doc["simgrid_model"] = "cas01_cm02";
  EXPECT_EQ(parse_experiment(doc, "exp.json").model, SimgridModel::Cas01Cm02);
  doc["simgrid_model"] = "default";
  EXPECT_EQ(error_of(doc), "exp.json: simgrid_model: expected \"ptask_L07\" or \"cas01_cm02\", got \"default\"");
  doc["simgrid_model"] = 1;
  EXPECT_EQ(error_of(doc), "exp.json: simgrid_model: expected \"ptask_L07\" or \"cas01_cm02\", got 1");
}

TEST(InterferenceExperiment, RejectsUnknownKeys)
{
  auto doc                        = minimal();
  doc["daemon_costs"]["per_byte"] = 1;
  EXPECT_EQ(error_of(doc), "exp.json: daemon_costs.per_byte: unknown key");
  doc          = minimal();
  doc["extra"] = 1;
  EXPECT_EQ(error_of(doc), "exp.json: extra: unknown key");
}

TEST(InterferenceExperiment, RejectsNegativeCostsAndPeriods)
{
  auto doc                              = minimal();
  doc["daemon_costs"]["flops_per_byte"] = -1;
  EXPECT_EQ(error_of(doc), "exp.json: daemon_costs.flops_per_byte: must be a number >= 0 and <= 1e+18 (flops), got -1");
  doc                                = minimal();
  doc["daemon_costs"]["idle_period"] = 0;
  EXPECT_EQ(error_of(doc), "exp.json: daemon_costs.idle_period: must be a number > 0 and <= 1e+12 (seconds), got 0");
}

TEST(InterferenceExperiment, RejectsInconsistentLayouts)
{
  auto doc            = minimal();
  doc["ior"]["hosts"] = {"n1"};
  EXPECT_EQ(error_of(doc), "exp.json: ior.hosts: host 'n1' also runs the HPL job (the two jobs run on disjoint sets of "
                           "nodes)");
  doc                        = minimal();
  doc["services"]["storage"] = nlohmann::json::array();
  EXPECT_EQ(error_of(doc), "exp.json: services.storage: the IOR job writes, but no host runs a storage service");
  doc                 = minimal();
  doc["hpl"]["hosts"] = {"n0", "n0"};
  EXPECT_EQ(error_of(doc), "exp.json: hpl.hosts: host 'n0' is listed twice");
  doc                           = minimal();
  doc["services"]["chunk_size"] = 1000;
  EXPECT_EQ(error_of(doc), "exp.json: services.chunk_size: must be a multiple of ior.transfer_size (512), got 1000");
}

TEST(InterferenceExperiment, ReadsTheMemorySection)
{
  EXPECT_FALSE(parse_experiment(minimal(), "exp.json").memory.enabled); // absent: no memory resource
  auto doc      = minimal();
  doc["memory"] = {{"bandwidth", 3.41e11}, {"hpl_bytes_per_flop", 0.0417}, {"io_copies", 4}};
  const auto m  = parse_experiment(doc, "exp.json").memory;
  EXPECT_TRUE(m.enabled);
  EXPECT_DOUBLE_EQ(m.bandwidth, 3.41e11);
  EXPECT_DOUBLE_EQ(m.hpl_bytes_per_flop, 0.0417);
  EXPECT_DOUBLE_EQ(m.io_copies, 4);
  doc["memory"] = {{"bandwidth", 1e11}};
  EXPECT_DOUBLE_EQ(parse_experiment(doc, "exp.json").memory.hpl_bytes_per_flop, 0); // defaults
  EXPECT_DOUBLE_EQ(parse_experiment(doc, "exp.json").memory.io_copies, 0);
}

TEST(InterferenceExperiment, RejectsBadMemoryFields)
{
  auto with = [](nlohmann::json memory) {
    auto doc      = minimal();
    doc["memory"] = std::move(memory);
    return error_of(doc);
  };
  EXPECT_EQ(with({{"hpl_bytes_per_flop", 1}}), "exp.json: memory.bandwidth: missing (required)");
  EXPECT_EQ(with({{"bandwidth", 0}}),
            "exp.json: memory.bandwidth: must be a number > 0 and <= 1e+18 (bytes per second), got 0");
  EXPECT_EQ(with({{"bandwidth", "fast"}}),
            "exp.json: memory.bandwidth: expected a number > 0 and <= 1e+18 (bytes per second), got \"fast\"");
  EXPECT_EQ(with({{"bandwidth", 1e11}, {"hpl_bytes_per_flop", -0.1}}),
            "exp.json: memory.hpl_bytes_per_flop: must be a number >= 0 and <= 1e+18 (bytes per flop), got -0.1");
  EXPECT_EQ(with({{"bandwidth", 1e11}, {"io_copies", -1}}),
            "exp.json: memory.io_copies: must be a number >= 0 and <= 1e+18 (copies), got -1");
  EXPECT_EQ(with({{"bandwidth", 1e11}, {"copies", 4}}), "exp.json: memory.copies: unknown key");
  EXPECT_EQ(with(3), "exp.json: memory: expected an object, got number");
  // Products that would not fit a SimGrid I/O size: 1e9 flops x 1e10 bytes per flop, and
  // 1e15 copies of a chunk of 524288 bytes (the minimal IOR's transfer size is 512, sync 0).
  EXPECT_EQ(with({{"bandwidth", 1e11}, {"hpl_bytes_per_flop", 1e10}}),
            "exp.json: memory.hpl_bytes_per_flop: hpl_bytes_per_flop x hpl.flops_per_iteration must be <= 1e+18 "
            "bytes, got 1e+19");
  EXPECT_EQ(with({{"bandwidth", 1e11}, {"io_copies", 1e15}}),
            "exp.json: memory.io_copies: io_copies x a batch's device bytes (524288) must be <= 1e+18 bytes, got "
            "5.24288e+20");
}

// storage work = r * flops_per_request + b * flops_per_byte; metadata = m * per op;
// idle burst = idle_flops_per_second * idle_period.
TEST(InterferenceDaemonCosts, FollowTheirFormulas)
{
  auto e = parse_experiment(minimal(), "exp.json");
  EXPECT_DOUBLE_EQ(storage_work(e.costs, 3, 1536), 3 * 1000.0 + 1536 * 10.0);
  EXPECT_DOUBLE_EQ(metadata_work(e.costs, 2), 10000.0);
  EXPECT_DOUBLE_EQ(idle_burst(e.costs), 0.5e6);
}
