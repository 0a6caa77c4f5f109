#include <gtest/gtest.h>

#include "fatal.hpp"
#include "protocol/reader.hpp"
#include "protocol/writer.hpp"

using namespace datasched;

TEST(ProtocolReader, ParsesDecisions)
{
  auto m = parse_decision_message(R"({"now": 5.0, "events": [
    {"timestamp": 1.0, "type": "EXECUTE_JOB", "data": {"job_id": "w0!1", "alloc": "0-1 4",
      "mapping": {"0": "0", "1": 2}, "storage_mapping": {"pfs": 5}}},
    {"timestamp": 2.0, "type": "CALL_ME_LATER", "data": {"timestamp": 10}},
    {"timestamp": 5.0, "type": "KILL_JOB", "data": {"job_ids": ["w0!2"]}}]})");
  EXPECT_EQ(m.now, 5.0);
  ASSERT_EQ(m.decisions.size(), 3u);
  const auto& ex = std::get<ExecuteJob>(m.decisions[0].payload);
  EXPECT_EQ(ex.allocation.size(), 3);
  EXPECT_EQ(ex.mapping, (std::vector<int>{0, 2}));
  EXPECT_EQ(ex.storage_mapping.at("pfs"), 5);
  EXPECT_EQ(std::get<CallMeLater>(m.decisions[1].payload).when, 10);
}

TEST(ProtocolReader, RejectsBadMessages)
{
  EXPECT_THROW(parse_decision_message("{"), InputError);
  EXPECT_THROW(parse_decision_message(R"({"events": []})"), InputError);
  EXPECT_THROW(parse_decision_message(R"({"now": 1, "events": [{"timestamp": 2, "type": "REJECT_JOB",
                                       "data": {"job_id": "a"}}]})"),
               InputError); // after now
  EXPECT_THROW(parse_decision_message(R"({"now": 3, "events": [{"timestamp": 2, "type": "REJECT_JOB",
                 "data": {"job_id": "a"}}, {"timestamp": 1, "type": "REJECT_JOB", "data": {"job_id": "b"}}]})"),
               InputError); // decreasing
  EXPECT_THROW(parse_decision_message(R"({"now": 1, "events": [{"timestamp": 0, "type": "FLY"}]})"), InputError);
  EXPECT_THROW(parse_decision_message(R"({"now": 1, "events": [{"timestamp": 0, "type": "EXECUTE_JOB",
                                       "data": {"job_id": "a", "alloc": "x"}}]})"),
               InputError);
}

TEST(ProtocolWriter, RoundsDatesToMicroseconds)
{
  EXPECT_DOUBLE_EQ(protocol_time(23.464083605), 23.464084);
  ProtocolWriter w;
  EXPECT_TRUE(w.empty());
  w.append_requested_call(1.0000004);
  w.append_notify("no_more_static_job_to_submit", 2);
  auto msg = nlohmann::json::parse(w.generate(2.5));
  EXPECT_EQ(msg["events"].size(), 2u);
  EXPECT_EQ(msg["events"][0]["timestamp"], 1.0);
  EXPECT_EQ(msg["events"][1]["data"]["type"], "no_more_static_job_to_submit");
  EXPECT_EQ(msg["now"], 2.5);
}
