// services/node_daemons: the work the nodes' storage daemons add to a ptask (pure: no
// SimGrid), the file's fields, and what the decision process is told.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/fatal.hpp"
#include "model/machines.hpp"
#include "model/workload.hpp"
#include "protocol/writer.hpp"
#include "services/idle_load.hpp"
#include "services/node_daemons.hpp"

using namespace datasched;

namespace {

/// Nodes 0..2; node n's NVM endpoint is resource 3 + n; resource 6 is an I/O server.
StorageEndpoints three_nodes()
{
  StorageEndpoints e(7);
  for (int n = 0; n < 3; ++n)
    e.add(3 + n, StorageEndpoints::Kind::Nvm, n);
  e.add(6, StorageEndpoints::Kind::IoServer, -1);
  return e;
}

NodeDaemons daemons(double per_request, double per_byte, std::uint64_t request_size)
{
  NodeDaemonsConfig c;
  c.costs.flops_per_request = per_request;
  c.costs.flops_per_byte    = per_byte;
  c.request_size            = request_size;
  return NodeDaemons(c, three_nodes(), 7);
}

} // namespace

TEST(NodeDaemons, AFlowCostsItsRequestsRoundedUpAndItsBytes)
{
  // W = ceil(b / r) * c_r + b * c_b: ceil(25 / 10) = 3 requests -> 3 * 100 + 25 * 2 = 350.
  EXPECT_DOUBLE_EQ(daemons(100, 2, 10).flow_work(25), 350);
  EXPECT_DOUBLE_EQ(daemons(100, 2, 10).flow_work(30), 360); // exactly 3 requests
}

TEST(NodeDaemons, TheNvmsNodeJoinsARemoteReadWithItsWork)
{
  // Node 0 reads 20 bytes from node 1's NVM (resource 4): hosts {4, 0} -> {4, 0, 1}, node 1
  // computes 2 * 100 + 20 * 1 = 220 flops; the flow keeps its host indices.
  std::vector<int> hosts{4, 0};
  std::vector<double> flops{0, 0};
  const PairBytes bytes = PairBytes::from_flows({{0, 1, 20}});
  EXPECT_DOUBLE_EQ(daemons(100, 1, 10).add_work(hosts, flops, bytes), 220);
  EXPECT_EQ(hosts, (std::vector<int>{4, 0, 1}));
  EXPECT_EQ(flops, (std::vector<double>{0, 0, 220}));
  EXPECT_EQ(bytes.dense(3), (std::vector<double>{0, 20, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(NodeDaemons, ALocalWriteChargesTheWritersOwnNodeOnce)
{
  // Node 2 writes 10 bytes to its NVM (resource 5) and 10 to node 0's (resource 3): node 2
  // is in the ptask already (10 flops), node 0 joins it (10 flops); c_r = 0, c_b = 1.
  std::vector<int> hosts{2, 5, 3};
  std::vector<double> flops; // a ptask planned without flops
  const PairBytes bytes = PairBytes::from_dense({0, 10, 10, 0, 0, 0, 0, 0, 0}, 3);
  EXPECT_DOUBLE_EQ(daemons(0, 1, 10).add_work(hosts, flops, bytes), 20);
  EXPECT_EQ(hosts, (std::vector<int>{2, 5, 3, 0}));
  EXPECT_EQ(flops, (std::vector<double>{10, 0, 0, 10}));
}

TEST(NodeDaemons, NoWorkForTrafficThatTouchesNoNodeNvm)
{
  // Node 0 to node 1 (IPC) and node 0 to the I/O server: nothing changes.
  std::vector<int> hosts{0, 1, 6};
  std::vector<double> flops{5, 0, 0};
  const PairBytes bytes = PairBytes::from_dense({0, 10, 10, 0, 0, 0, 0, 0, 0}, 3);
  EXPECT_FALSE(daemons(100, 1, 10).serves_any(hosts));
  EXPECT_TRUE(daemons(100, 1, 10).serves_any({0, 4}));
  EXPECT_DOUBLE_EQ(daemons(100, 1, 10).add_work(hosts, flops, bytes), 0);
  EXPECT_EQ(hosts, (std::vector<int>{0, 1, 6}));
  EXPECT_EQ(flops, (std::vector<double>{5, 0, 0}));
}

TEST(NodeDaemons, TheFileIsTypedAndClosed)
{
  const auto c = parse_node_daemons(
      nlohmann::json::parse(
          R"({"request_size": 4096, "flops_per_request": 3, "flops_per_byte": 0.5, "idle_flops_per_second": 7})"),
      "d.json");
  EXPECT_EQ(c.request_size, 4096u);
  EXPECT_DOUBLE_EQ(c.costs.flops_per_request, 3);
  EXPECT_DOUBLE_EQ(c.costs.flops_per_byte, 0.5);
  EXPECT_DOUBLE_EQ(c.costs.idle_flops_per_second, 7);
  auto message = [](const char* text) {
    try {
      parse_node_daemons(nlohmann::json::parse(text), "d.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message(R"({"request_size": 0})"),
            "d.json: request_size: must be an integer >= 1 and <= 9223372036854775807 (bytes), got 0");
  EXPECT_EQ(message(R"({"flops_per_metadata_op": 1})").rfind("d.json: flops_per_metadata_op: ", 0), 0u);
  EXPECT_EQ(message(R"([])"), "d.json: document: expected an object, got array");
  // steady without idle_period; its phase keys need one, and are refused rather than ignored
  EXPECT_EQ(c.costs.idle_form, IdleForm::Steady);
  EXPECT_EQ(message(R"({"idle_phase": "aligned"})"),
            "d.json: idle_phase: the idle load is steady without idle_period: give idle_period for bursts at phases");
  EXPECT_EQ(message(R"({"idle_seed": 3})"),
            "d.json: idle_seed: the idle load is steady without idle_period: it has no phases to draw");
  EXPECT_EQ(message(R"({"idle_period": 0})").rfind("d.json: idle_period: must be a number > 0", 0), 0u);
  EXPECT_EQ(message(R"({"idle_period": 2, "idle_seed": -1})").rfind("d.json: idle_seed: ", 0), 0u);
  const auto bursts = parse_node_daemons(
      nlohmann::json::parse(
          R"({"idle_flops_per_second": 5, "idle_period": 2, "idle_phase": "aligned", "idle_seed": 9})"),
      "d.json");
  EXPECT_EQ(bursts.costs.idle_form, IdleForm::Bursts);
  EXPECT_DOUBLE_EQ(bursts.costs.idle_period, 2);
  EXPECT_TRUE(bursts.costs.idle_aligned);
  EXPECT_EQ(bursts.idle_seed, 9u);
}

TEST(NodeDaemons, IdleBurstsBeyondTheEventBudgetPerSimulatedSecondAreRefused)
{
  // rate = serving nodes / idle_period: 3 nodes / 1e-7 s = 3e7 bursts per simulated second > 1e7
  NodeDaemonsConfig c;
  c.costs.idle_flops_per_second = 1;
  EXPECT_DOUBLE_EQ(NodeDaemons(c, three_nodes(), 7).idle_burst_rate().events, 0); // steady: no bursts
  c.costs.idle_form   = IdleForm::Bursts;
  c.costs.idle_period = 1e-7;
  const RunCost rate  = NodeDaemons(c, three_nodes(), 7).idle_burst_rate();
  EXPECT_DOUBLE_EQ(rate.events, 3e7);
  EXPECT_EQ(rate.what, "idle bursts in each simulated second (3 serving nodes / idle_period 1e-07 s)");
  EXPECT_THROW(check_run_cost("d.json", "idle_period", rate, false), InputError);
  c.costs.idle_period = 1e-6; // 3e6: within the budget
  EXPECT_NO_THROW(check_run_cost("d.json", "idle_period", NodeDaemons(c, three_nodes(), 7).idle_burst_rate(), false));
}

TEST(NodeDaemons, TheDecisionProcessIsToldOnlyWhenThereAreDaemons)
{
  // SIMULATION_BEGINS' config: "datasched-storage-daemons" with every parameter, or no key
  // at all (Batsim's config, byte for byte).
  Machines machines;
  Workloads workloads;
  SimulationConfig config;
  auto begins_config = [&]() {
    ProtocolWriter w;
    w.append_simulation_begins(machines, workloads, config, 0);
    return nlohmann::json::parse(w.generate(0))["events"][0]["data"]["config"];
  };
  EXPECT_FALSE(begins_config().contains("datasched-storage-daemons"));
  NodeDaemonsConfig daemons;
  daemons.costs.flops_per_byte                 = 2;
  config.services["datasched-storage-daemons"] = describe_node_daemons(daemons).dump();
  EXPECT_EQ(begins_config()["datasched-storage-daemons"],
            nlohmann::json::parse(R"({"request_size": 1048576, "flops_per_request": 0, "flops_per_byte": 2,
                                      "idle_flops_per_second": 0, "idle_period": 0})"));
  daemons.costs.idle_form                      = IdleForm::Bursts; // idle_period given: its value
  daemons.costs.idle_period                    = 0.25;
  config.services["datasched-storage-daemons"] = describe_node_daemons(daemons).dump();
  EXPECT_EQ(begins_config()["datasched-storage-daemons"]["idle_period"], 0.25);
}

TEST(IdleLoad, PhasesAreAlignedOrDrawnFromTheSeed)
{
  // aligned: every burst at 0, P, 2P...; random: uniform in [0, P), the same for the same seed,
  // one draw per daemon in order (a prefix of a longer draw); steady: no phases at all.
  DaemonCosts c;
  c.idle_period     = 2;
  const auto drawn  = idle_phases(5, c, 7);
  const auto prefix = idle_phases(3, c, 7);
  ASSERT_EQ(drawn.size(), 5u);
  for (const double phase : drawn) {
    EXPECT_GE(phase, 0);
    EXPECT_LT(phase, 2);
  }
  EXPECT_EQ(std::vector<double>(drawn.begin(), drawn.begin() + 3), prefix);
  EXPECT_NE(idle_phases(5, c, 8), drawn);
  c.idle_aligned = true;
  EXPECT_EQ(idle_phases(3, c, 7), (std::vector<double>{0, 0, 0}));
  c.idle_form = IdleForm::Steady;
  EXPECT_TRUE(idle_phases(3, c, 7).empty());
}
