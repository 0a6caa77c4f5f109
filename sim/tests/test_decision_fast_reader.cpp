// The decision reader's fast path must never change a result or a diagnostic: for any
// message, parse_decision_message (fast path + fallback) and the general DOM reader
// give the same decisions or the same error. Checked on hand-picked edge cases and on
// seeded random messages, valid and mutated.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "common/fatal.hpp"
#include "protocol/decision_fast_reader.hpp"
#include "protocol/decision_text.hpp"
#include "protocol/reader.hpp"

using namespace datasched;

namespace {

void expect_same(const std::string& text)
{
  EXPECT_EQ(decision_outcome(parse_decision_message, text), decision_outcome(parse_decision_message_generic, text))
      << text;
}

/// Random decision messages: mostly well-formed common events, with random mutations
/// (missing or mistyped fields, unknown keys, duplicate keys, other event types,
/// reordered keys, decreasing timestamps, truncation).
class MessageGenerator {
public:
  explicit MessageGenerator(unsigned seed) : rng_(seed) {}

  std::string message()
  {
    const int n = pick(0, 4);
    double t    = pick(0, 3) * 0.5;
    std::vector<std::string> events;
    for (int i = 0; i < n; ++i) {
      if (chance(0.9))
        t += pick(0, 4) * 0.25;
      else
        t -= 1; // decreasing
      events.push_back(event(t));
    }
    std::string list = "[";
    for (size_t i = 0; i < events.size(); ++i)
      list += (i ? ", " : "") + events[i];
    list += "]";
    std::vector<std::string> members = {"\"now\": " + number(t + pick(-1, 2) * 0.5), "\"events\": " + list};
    if (chance(0.1))
      members.push_back("\"extra\": {\"a\": [1, {\"b\": null}]}");
    if (chance(0.05))
      members.push_back("\"now\": 1e3");
    if (chance(0.05))
      members.erase(members.begin() + pick(0, 1));
    shuffle(members);
    std::string text = "{" + join(members) + "}";
    if (chance(0.03))
      text = text.substr(0, pick(0, static_cast<int>(text.size())));
    if (chance(0.02))
      text += " x";
    return text;
  }

private:
  std::string event(double t)
  {
    static const std::vector<std::string> types = {
        "EXECUTE_JOB",      "REJECT_JOB",       "KILL_JOB",     "CALL_ME_LATER", "NOTIFY",
        "SET_JOB_METADATA", "CHANGE_JOB_STATE", "REGISTER_JOB", "QUERY",         "FLY"};
    const std::string type        = types[pick(0, static_cast<int>(types.size()) - 1)];
    std::vector<std::string> data = fields(type);
    if (chance(0.1))
      data.push_back("\"unknown\": " + any_value());
    if (chance(0.05) && !data.empty())
      data.erase(data.begin() + pick(0, static_cast<int>(data.size()) - 1));
    if (chance(0.03) && !data.empty())
      data.push_back(data.front()); // duplicate key
    shuffle(data);
    std::vector<std::string> members = {"\"timestamp\": " + number(t),
                                        "\"type\": " + (chance(0.02) ? std::string("7") : quote(type))};
    if (!chance(0.05))
      members.push_back("\"data\": " + (chance(0.02) ? std::string("[]") : "{" + join(data) + "}"));
    if (chance(0.05))
      members.push_back("\"comment\": " + any_value());
    shuffle(members);
    return "{" + join(members) + "}";
  }

  std::vector<std::string> fields(const std::string& type)
  {
    auto id = [this]() { return "\"job_id\": " + (chance(0.03) ? std::string("12") : quote(job_id())); };
    if (type == "EXECUTE_JOB") {
      std::vector<std::string> f = {id(), "\"alloc\": " + quote(alloc())};
      if (chance(0.1))
        f.push_back("\"mapping\": {\"0\": 0}");
      if (chance(0.05))
        f.push_back("\"storage_mapping\": {\"pfs\": 2}");
      return f;
    }
    if (type == "REJECT_JOB")
      return {id()};
    if (type == "KILL_JOB") {
      std::string ids = "[";
      for (int i = pick(0, 3); i > 0; --i)
        ids += quote(job_id()) + (i > 1 ? ", " : "");
      if (chance(0.05))
        ids += ids.size() > 1 ? ", 3" : "3";
      return {"\"job_ids\": " + ids + "]"};
    }
    if (type == "CALL_ME_LATER")
      return {"\"timestamp\": " + (chance(0.05) ? std::string("\"soon\"") : number(pick(0, 100) * 0.125))};
    if (type == "NOTIFY")
      return {"\"type\": " + quote(chance(0.5) ? "registration_finished" : "continue_registration")};
    if (type == "SET_JOB_METADATA")
      return {id(), "\"metadata\": " + quote("m" + std::to_string(pick(0, 9)))};
    if (type == "CHANGE_JOB_STATE")
      return {id(), "\"job_state\": \"COMPLETED_KILLED\""};
    if (type == "REGISTER_JOB")
      return {id(), "\"job\": {\"res\": 1, \"profile\": \"p\"}"};
    if (type == "QUERY")
      return {"\"requests\": {}"};
    return {};
  }

  std::string any_value()
  {
    static const std::vector<std::string> values = {"null",
                                                    "true",
                                                    "1",
                                                    "-2.5e3",
                                                    "\"s\"",
                                                    "[]",
                                                    "[\"a\", [1]]",
                                                    "{\"x\": {\"y\": [null]}}",
                                                    "18446744073709551615"};
    return values[pick(0, static_cast<int>(values.size()) - 1)];
  }
  std::string alloc()
  {
    static const std::vector<std::string> allocs = {"0", "0-3", "1 3-5", "2,4", "", "x", "5-2", "0-511"};
    return allocs[pick(0, static_cast<int>(allocs.size()) - 1)];
  }
  std::string job_id() { return "w" + std::to_string(pick(0, 1)) + "!" + std::to_string(pick(0, 99)); }
  std::string number(double v)
  {
    std::ostringstream out;
    out.precision(17);
    out << v;
    if (chance(0.2))
      out << "0"; // 1.50 and 1.5 must convert identically
    return out.str();
  }
  static std::string quote(const std::string& s) { return "\"" + s + "\""; }
  static std::string join(const std::vector<std::string>& parts)
  {
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i)
      out += (i ? ", " : "") + parts[i];
    return out;
  }
  void shuffle(std::vector<std::string>& v)
  {
    if (chance(0.3))
      std::shuffle(v.begin(), v.end(), rng_);
  }
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }

  std::mt19937 rng_;
};

} // namespace

TEST(DecisionFastReader, TakesTheCommonMessagesOfASchedulerRun)
{
  EXPECT_TRUE(parse_common_decisions(R"({"now": 12.5, "events": [{"timestamp": 12.5, "type": "EXECUTE_JOB",
      "data": {"job_id": "w0!1", "alloc": "0-3"}}]})"));
  EXPECT_TRUE(parse_common_decisions(R"({"now": 3, "events": []})"));
  EXPECT_TRUE(parse_common_decisions(R"({"events": [{"data": {"job_ids": []}, "type": "KILL_JOB",
      "timestamp": 1}], "now": 3})"));
}

TEST(DecisionFastReader, LeavesEverythingElseToTheGeneralReader)
{
  for (const char* text : {
           "{",
           R"({"now": 1, "events": [], "now": 2})",
           R"({"now": 1, "events": [{"timestamp": 0, "type": "EXECUTE_JOB",
               "data": {"job_id": "a", "alloc": "0", "mapping": {"0": 0}}}]})",
           R"({"now": 1, "events": [{"timestamp": 0, "type": "REJECT_JOB", "data": {"job_id": "a", "job_id": "b"}}]})",
           R"({"now": 1, "events": [{"timestamp": 0, "type": "QUERY", "data": {"requests": {}}}]})",
           R"({"now": 1, "events": [{"timestamp": 0, "type": "KILL_JOB", "data": {"job_ids": ["a", 1]}}]})",
           R"({"now": 1, "events": [{"timestamp": 0, "type": "CALL_ME_LATER", "data": {"timestamp": 1e999}}]})",
           R"({"now": 1, "events": [{"timestamp": 0, "type": "REJECT_JOB", "data": [{"job_id": "a"}]}]})",
       })
    EXPECT_FALSE(parse_common_decisions(text)) << text;
}

TEST(DecisionFastReader, AgreesWithTheGeneralReaderOnEdgeCases)
{
  for (const char* text : {
           R"({"now": 1, "events": [], "now": 2})",
           R"({"now": 1, "events": [{"timestamp": 0, "type": "REJECT_JOB", "data": {"job_id": "a", "job_id": "b"}}]})",
           R"({"now": 18446744073709551615, "events": [{"timestamp": 0.1000000000000000055511151231257827,
               "type": "CALL_ME_LATER", "data": {"timestamp": 123456789012345678901234567890}}]})",
           R"({"now": 2, "events": [{"timestamp": 1, "type": "NOTIFY", "data": {"type": "registration_finished",
               "extra": {"type": "x"}}}]})",
           R"([1, 2])",
           R"({"now": 1, "events": {}})",
           R"({"now": "1", "events": []})",
           R"({"now": 1, "events": [3]})",
       })
    expect_same(text);
}

TEST(DecisionFastReader, AgreesWithTheGeneralReaderOnRandomMessages)
{
  MessageGenerator generator(20261122);
  int taken = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::string text = generator.message();
    taken += parse_common_decisions(text).has_value();
    expect_same(text);
    if (HasFailure())
      break;
  }
  // The generator must exercise both paths substantially.
  EXPECT_GT(taken, 2000);
  EXPECT_LT(taken, 18000);
}
