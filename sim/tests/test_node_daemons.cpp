// services/node_daemons: the work the nodes' storage daemons add to a ptask (pure: no
// SimGrid), the file's fields, and what the decision process is told.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/fatal.hpp"
#include "model/machines.hpp"
#include "model/workload.hpp"
#include "protocol/writer.hpp"
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
  // the idle load runs without bursts: their period and phase are refused, not read and ignored
  EXPECT_EQ(message(R"({"idle_flops_per_second": 5, "idle_period": 2})")
                .rfind("d.json: idle_period: idle load runs "
                       "without bursts",
                       0),
            0u);
  EXPECT_EQ(message(R"({"idle_phase": "aligned"})").rfind("d.json: idle_phase: ", 0), 0u);
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
                                      "idle_flops_per_second": 0})"));
}
