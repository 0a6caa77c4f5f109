// The pure parts of the QoS data-staging mode (seed 003): SL -> priority mapping of the
// arbitration table, experiment validation, and the stencil's neighbour pairs.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/fatal.hpp"
#include "qos/benchmarks.hpp"
#include "qos/experiment.hpp"
#include "qos/flows.hpp"
#include "qos/service_levels.hpp"

using namespace datasched::qos;
using datasched::InputError;

namespace {

std::string error_of(const nlohmann::json& doc)
{
  try {
    parse_experiment(doc, "exp.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

nlohmann::json minimal()
{
  return nlohmann::json::parse(R"({
    "transfers": [{"src": "a", "dst": "b", "bytes": 1000, "sl": 1}]
  })");
}

} // namespace

// Figure 4 of the paper: SL0 is high (weight 40), SL1-7 low with weights 2^sl.
TEST(QosServiceLevels, PaperTable)
{
  const auto t = ArbitrationTable::paper_default();
  EXPECT_TRUE(t.is_high(0, "x"));
  EXPECT_DOUBLE_EQ(t.weight(0, "x"), 40);
  for (int sl = 1; sl <= 7; ++sl) {
    EXPECT_FALSE(t.is_high(sl, "x")) << sl;
    EXPECT_DOUBLE_EQ(t.weight(sl, "x"), static_cast<double>(1 << sl)) << sl;
  }
}

TEST(QosServiceLevels, UnusableLevelsAreNamed)
{
  const auto t = ArbitrationTable::paper_default();
  EXPECT_THROW(t.is_high(16, "f"), InputError);
  EXPECT_THROW(t.is_high(-1, "f"), InputError);
  try {
    t.is_high(9, "exp.json: noise.sl");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("noise.sl: SL9 (VL15) is the management lane"), std::string::npos);
  }
}

TEST(QosExperiment, ParsesOpenSmStrings)
{
  auto doc           = minimal();
  doc["arbitration"] = {
      {"vlarb_high", "0:40,1:10"}, {"vlarb_low", "2:4"}, {"sl2vl", "0,1,2,3,4,5,6,7,15,15,15,15,15,15,15,15"}};
  const auto e = parse_experiment(doc, "exp.json");
  EXPECT_TRUE(e.arbitration.is_high(1, "x"));
  EXPECT_DOUBLE_EQ(e.arbitration.weight(1, "x"), 10.0);
  EXPECT_FALSE(e.arbitration.is_high(2, "x"));
  EXPECT_THROW(e.arbitration.is_high(3, "x"), InputError); // VL3 has no weight
  EXPECT_EQ(e.used_service_levels, std::set<int>{1});
}

TEST(QosExperiment, ErrorsNameTheField)
{
  auto doc                  = minimal();
  doc["transfers"][0]["sl"] = 16;
  EXPECT_EQ(error_of(doc), "exp.json: transfers[0].sl: the service level must be an integer 0-15, got 16");
  doc          = minimal();
  doc["bogus"] = 1;
  EXPECT_EQ(error_of(doc), "exp.json: bogus: unknown key");
  doc                       = minimal();
  doc["transfers"][0]["sl"] = 3;
  doc["arbitration"]        = {{"vlarb_low", "1:2"}};
  EXPECT_NE(error_of(doc).find("transfers[0].sl: SL3 (VL3) has weight 0 in both arbitration tables"),
            std::string::npos);
  doc          = minimal();
  doc["noise"] = {{"writers", {"a"}}};
  EXPECT_NE(error_of(doc).find("staging: missing"), std::string::npos);
  doc                = minimal();
  doc["arbitration"] = {{"vlarb_high", "15:3"}};
  EXPECT_NE(error_of(doc).find("arbitration.vlarb_high: expected vl:weight"), std::string::npos);
}

// Weights matter (BMF) only when one table holds SLs of different weights in use.
TEST(QosServiceLevels, WeightsInPlay)
{
  const auto t = ArbitrationTable::paper_default();
  EXPECT_FALSE(weights_in_play(t, {0, 1}));
  EXPECT_FALSE(weights_in_play(t, {0, 7}));
  EXPECT_TRUE(weights_in_play(t, {1, 2}));
}

TEST(QosBenchmarks, StencilPairsAreFaceNeighboursBothWays)
{
  // 2 x 2 x 2 nodes: 12 edges of the cube, each in both directions.
  const auto pairs = stencil_pairs({2, 2, 2});
  EXPECT_EQ(pairs.size(), 24u);
  // 4 x 1 x 1: a line of 3 edges.
  EXPECT_EQ(stencil_pairs({4, 1, 1}).size(), 6u);
}
