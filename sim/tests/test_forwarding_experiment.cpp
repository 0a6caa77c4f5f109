// Validation of I/O forwarding experiment descriptions: each error names the file and field.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/fatal.hpp"
#include "forwarding/experiment.hpp"
#include "services/hdd.hpp"
#include "support/forwarding_documents.hpp"

using datasched::testing::minimal_forwarding_experiment;
using namespace datasched::forwarding;
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
} // namespace

TEST(ForwardingExperiment, ParsesAMinimalDescription)
{
  auto e = parse_experiment(minimal_forwarding_experiment(), "exp.json");
  EXPECT_TRUE(e.forwarded);
  EXPECT_EQ(e.forwarding.scheduler, SchedulerKind::Twins);
  EXPECT_DOUBLE_EQ(e.forwarding.window, 0.008);
  EXPECT_EQ(e.applications.at(0).pattern, AccessPattern::SharedStrided);
}

TEST(ForwardingExperiment, RejectsUnknownKeys)
{
  auto doc                     = minimal_forwarding_experiment();
  doc["servers"]["strip_size"] = 1;
  EXPECT_EQ(error_of(doc), "exp.json: servers.strip_size: unknown key");
}

TEST(ForwardingExperiment, RejectsNonPositiveStripeAndWindow)
{
  auto doc                      = minimal_forwarding_experiment();
  doc["servers"]["stripe_size"] = 0;
  EXPECT_EQ(error_of(doc),
            "exp.json: servers.stripe_size: must be an integer >= 1 and <= 9223372036854775807 (bytes), got 0");
  doc                         = minimal_forwarding_experiment();
  doc["forwarding"]["window"] = -1;
  EXPECT_EQ(error_of(doc), "exp.json: forwarding.window: must be a number >= 1e-09 and <= 1e+12 (seconds), got -1");
}

TEST(ForwardingExperiment, RejectsAClientMappedToAMissingForwarder)
{
  auto doc                     = minimal_forwarding_experiment();
  doc["forwarding"]["mapping"] = {0, 5};
  EXPECT_EQ(error_of(doc), "exp.json: forwarding.mapping: client node 1 is mapped to forwarder 5, which does not "
                           "exist (forwarders: 0..1)");
}

TEST(ForwardingExperiment, RejectsMoreProcessesThanClientSlots)
{
  auto doc                            = minimal_forwarding_experiment();
  doc["applications"][0]["processes"] = 5;
  EXPECT_NE(error_of(doc).find("exp.json: applications: 5 processes"), std::string::npos);
}

TEST(HddCurve, DegradesWithConcurrentStreams)
{
  // B_eff(n) = B / (1 + alpha (n - 1)): B = 100, alpha = 0.5 -> 100, 66.67, 40
  EXPECT_DOUBLE_EQ(degraded_capacity(100, 1, 0.5), 100);
  EXPECT_DOUBLE_EQ(degraded_capacity(100, 2, 0.5), 100 / 1.5);
  EXPECT_DOUBLE_EQ(degraded_capacity(100, 4, 0.5), 40);
  EXPECT_DOUBLE_EQ(degraded_capacity(100, 4, 0.0), 100);
}

TEST(ForwardingExperiment, DrainOnlyForTwins)
{
  auto doc = nlohmann::json::parse(R"({"mode": "forwarded", "clients": {"nodes": 1},
    "forwarding": {"forwarders": 1, "scheduler": "fifo", "drain": true}, "servers": {"count": 1},
    "applications": [{"name": "A", "processes": 1, "pattern": "file_per_process", "operation": "read",
                      "request_size": 1, "bytes_per_process": 1}]})");
  try {
    parse_experiment(doc, "exp.json");
    FAIL() << "accepted drain with fifo";
  } catch (const datasched::InputError& e) {
    EXPECT_EQ(std::string(e.what()), "exp.json: forwarding.drain: only applies to scheduler \"twins\"");
  }
  doc["forwarding"]["scheduler"] = "twins";
  EXPECT_TRUE(parse_experiment(doc, "exp.json").forwarding.twins_drain);
}

TEST(HddCurve, SeekSpreadWeighsTheContentionTerm)
{
  // sigma = min(1, mean gap / scale); gaps between sorted (file, offset) positions, a file
  // change counting as a whole scale.
  SeekSpread spread(100);
  EXPECT_DOUBLE_EQ(spread.sigma(), 0); // one request or none: no seeks
  spread.add(0, 0);
  EXPECT_DOUBLE_EQ(spread.sigma(), 0);
  spread.add(0, 50);
  EXPECT_DOUBLE_EQ(spread.sigma(), 0.5);
  spread.add(0, 10); // gaps 10 and 40: mean 25
  EXPECT_DOUBLE_EQ(spread.sigma(), 0.25);
  spread.add(1, 0); // + a file change (100): (10 + 40 + 100) / 3 = 50
  EXPECT_DOUBLE_EQ(spread.sigma(), 0.5);
  spread.remove(0, 10);
  spread.remove(0, 50);
  EXPECT_DOUBLE_EQ(spread.sigma(), 1.0); // two files: one far seek
  // B / (1 + alpha (n - 1) sigma): alpha 0.5, n = 3, sigma 0.5 -> 100 / 1.5.
  EXPECT_DOUBLE_EQ(degraded_capacity(100, 3, 0.5, 0.5), 100 / 1.5);
}
