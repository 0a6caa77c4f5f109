#include <cmath>
#include <cstdlib>

#include <gtest/gtest.h>

#include "common/batsim_number.hpp"
#include "common/fatal.hpp"
#include "common/json_text.hpp"
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
  // Batsim prints "%6f" and the decision process reads the text back: beyond ~9e9 s,
  // round(date * 1e6) / 1e6 rounds the product first. Expected values: strtod of the text.
  for (double date : {10000002911.1760311, 100000000473.35500336, 7.0000005, 1e15 + 0.25})
    EXPECT_EQ(protocol_time(date), std::strtod(std::to_string(date).c_str(), nullptr)) << date;
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

// ---- serialisation without a DOM (common/json_text, ProtocolWriter) --------------

TEST(JsonText, NumbersAndStringsMatchNlohmannDump)
{
  for (double x : {0.0, -0.0, 1.0, 0.1, 1e-7, 123456789.123456, 6831182.5752, 1e300, -2.5, 3.0e21, 5e-324}) {
    std::string out;
    append_json_number(out, x);
    EXPECT_EQ(out, nlohmann::json(x).dump()) << x;
  }
  for (long long x : {0LL, -1LL, 42LL, -9223372036854775807LL}) {
    std::string out;
    append_json_number(out, x);
    EXPECT_EQ(out, nlohmann::json(x).dump());
  }
  for (std::string s : std::vector<std::string>{"", "w0!12", "a\"b", "back\\slash", "tab\there", "caf\xc3\xa9",
                                                std::string("nul\0x", 5), "\x7f"}) {
    std::string out;
    append_json_string(out, s);
    EXPECT_EQ(out, nlohmann::json(s).dump());
  }
  std::string out;
  EXPECT_THROW(append_json_string(out, "bad \xff utf-8"), nlohmann::json::type_error);
}

TEST(ProtocolWriter, EventsAreWhatTheDomSerialisationWrites)
{
  ProtocolWriter w;
  const std::string job     = nlohmann::json{{"id", "w0!1"}, {"res", 2}, {"subtime", 1.5}, {"profile", "p"}}.dump();
  const std::string profile = R"({"delay":10.0,"type":"delay"})";
  w.append_job_submitted("w0!1", job, &profile, 1.5);
  w.append_job_completed("w0!1", "COMPLETED_SUCCESSFULLY", "0-1", 0, 11.5000001);
  w.append_notify("event_machine_unavailable", 12, "3 5-7");
  w.append_job_killed({"w0!2"}, nlohmann::json{{"w0!2", {{"progress", 0.5}}}}, 13);
  w.append_simulation_ends(14);

  nlohmann::json expected;
  expected["now"]    = 14.25;
  expected["events"] = {
      {{"timestamp", 1.5},
       {"type", "JOB_SUBMITTED"},
       {"data",
        {{"job_id", "w0!1"}, {"job", nlohmann::json::parse(job)}, {"profile", nlohmann::json::parse(profile)}}}},
      {{"timestamp", 11.5},
       {"type", "JOB_COMPLETED"},
       {"data", {{"job_id", "w0!1"}, {"job_state", "COMPLETED_SUCCESSFULLY"}, {"return_code", 0}, {"alloc", "0-1"}}}},
      {{"timestamp", 12.0},
       {"type", "NOTIFY"},
       {"data", {{"type", "event_machine_unavailable"}, {"resources", "3 5-7"}}}},
      {{"timestamp", 13.0},
       {"type", "JOB_KILLED"},
       {"data", {{"job_ids", {"w0!2"}}, {"job_progress", {{"w0!2", {{"progress", 0.5}}}}}}}},
      {{"timestamp", 14.0}, {"type", "SIMULATION_ENDS"}, {"data", nlohmann::json::object()}},
  };
  EXPECT_EQ(w.generate(14.25), expected.dump());
  w.clear();
  EXPECT_EQ(w.generate(15), R"({"events":[],"now":15.0})");
}

// ---- numbers as Batsim's rapidjson (default flags) reads them ----------------------

TEST(BatsimNumber, SeventeenDigitsRoundTwice)
{
  // "100000000473.35503": rapidjson gathers the integer 10000000047335503, which becomes
  // the double 10000000047335504 (above 2^53 only even integers exist; ties to even), then
  // divides by 1e5: one floating-point step (2^-16 s) above strtod's nearest double.
  const double batsim = batsim_json_number("100000000473.35503");
  EXPECT_EQ(batsim, 10000000047335504.0 / 1e5);
  EXPECT_EQ(batsim - std::strtod("100000000473.35503", nullptr), std::ldexp(1.0, -16));
}

TEST(BatsimNumber, ShortNumbersAreExact)
{
  // Up to 15 significant digits the integer is exact and one division by an exact power of
  // ten is correctly rounded: the same double as strtod.
  for (const char* text : {"0", "5", "-3", "0.5", "23.464084", "2.5e3", "1E-7", "-0.000045", "123456789.123456"})
    EXPECT_EQ(batsim_json_number(text), std::strtod(text, nullptr)) << text;
  EXPECT_EQ(batsim_json_number("18446744073709551616"), 18446744073709551616.0); // beyond 2^64: a double
}
