#include "protocol/reader.hpp"

#include <climits>
#include <cmath>

#include "common/batsim_number.hpp"
#include "common/fatal.hpp"
#include "common/json_text.hpp"
#include "protocol/decision_fast_reader.hpp"

namespace datasched {

namespace {

class EventFields {
public:
  EventFields(const nlohmann::json& data, std::string where) : data_(data), where_(std::move(where)) {}

  const nlohmann::json& get(const char* field) const
  {
    if (!data_.is_object() || !data_.contains(field))
      throw InputError(where_ + ": missing field 'data." + std::string(field) + "'");
    return data_.at(field);
  }
  std::string string(const char* field) const
  {
    const auto& v = get(field);
    if (!v.is_string())
      throw InputError(where_ + ": field 'data." + std::string(field) + "' must be a string");
    return v.get<std::string>();
  }
  double number(const char* field) const
  {
    const auto& v = get(field);
    if (!v.is_number() || !std::isfinite(v.get<double>()))
      throw InputError(where_ + ": field 'data." + std::string(field) + "' must be a number");
    return v.get<double>();
  }
  bool has(const char* field) const { return data_.is_object() && data_.contains(field); }
  const std::string& where() const { return where_; }

private:
  const nlohmann::json& data_;
  std::string where_;
};

int to_int(const nlohmann::json& v, const std::string& what)
{
  // Read as 64 bits and range-checked: get<int>() would wrap 2^32 + 3 to 3.
  if (v.is_number_integer() && !v.is_number_unsigned() && v.get<long long>() >= INT_MIN &&
      v.get<long long>() <= INT_MAX)
    return static_cast<int>(v.get<long long>()); // checked: in int's range
  if (v.is_number_unsigned() && v.get<unsigned long long>() <= static_cast<unsigned long long>(INT_MAX))
    return static_cast<int>(v.get<unsigned long long>()); // checked: in int's range
  if (v.is_number_integer())
    throw InputError(what + " must be an integer >= " + std::to_string(INT_MIN) + " and <= " + std::to_string(INT_MAX) +
                     ", got " + v.dump());
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    try {
      size_t used = 0;
      int value   = std::stoi(s, &used);
      if (used == s.size())
        return value;
    } catch (const std::exception&) {
    }
  }
  throw InputError(what + " must be an integer, got " + v.dump());
}

RequestedStorage parse_requested_storage(const nlohmann::json& v, const std::string& where)
{
  const std::string ctx = where + ": 'datasched_storage'";
  if (!v.is_object())
    throw InputError(ctx + " must be an object {\"allocation\": \"...\", \"devices\": [resource ids], " +
                     "\"access\": \"...\"}");
  RequestedStorage r;
  for (const auto& [key, value] : v.items()) {
    if (key == "allocation") {
      if (!value.is_string())
        throw InputError(ctx + ": 'allocation' must be a string");
      r.allocation = storage_allocation_from_string(value.get<std::string>(), ctx);
    } else if (key == "devices") {
      if (!value.is_array())
        throw InputError(ctx + ": 'devices' must be an array of resource ids");
      for (const auto& id : value)
        r.devices.push_back(to_int(id, ctx + ": device"));
    } else if (key == "access") {
      if (!value.is_string())
        throw InputError(ctx + ": 'access' must be a string");
      r.access = access_type_from_string(value.get<std::string>(), ctx);
    } else if (key == "items_to") {
      if (!value.is_string())
        throw InputError(ctx + ": 'items_to' must be a string");
      r.items_to = item_home_from_string(value.get<std::string>(), ctx);
    } else {
      throw InputError(ctx + ": unknown field '" + key + "' (expected allocation, devices, access, items_to)");
    }
  }
  return r;
}

ExecuteJob parse_execute(const EventFields& f)
{
  ExecuteJob d;
  d.job_id = f.string("job_id");
  try {
    d.allocation = IntervalSet::from_string(f.string("alloc"));
  } catch (const InputError& e) {
    throw InputError(f.where() + ": job '" + d.job_id + "': " + e.what());
  }
  if (d.allocation.empty())
    throw InputError(f.where() + ": job '" + d.job_id + "': empty allocation");
  if (f.has("mapping")) {
    const auto& m = f.get("mapping");
    if (!m.is_object())
      throw InputError(f.where() + ": 'mapping' must be an object {executor: allocation index}");
    std::map<int, int> by_executor;
    for (const auto& [k, v] : m.items())
      by_executor[to_int(nlohmann::json(k), f.where() + ": mapping key")] = to_int(v, f.where() + ": mapping value");
    int expected = 0;
    for (const auto& [executor, index] : by_executor) {
      if (executor != expected++)
        throw InputError(f.where() + ": job '" + d.job_id + "': mapping executors must be 0..n-1");
      d.mapping.push_back(index);
    }
  }
  if (f.has("storage_mapping")) {
    const auto& m = f.get("storage_mapping");
    if (!m.is_object())
      throw InputError(f.where() + ": 'storage_mapping' must be an object {label: resource id}");
    for (const auto& [k, v] : m.items())
      d.storage_mapping[k] = to_int(v, f.where() + ": storage_mapping['" + k + "']");
  }
  if (f.has("additional_io_job"))
    d.additional_io_job = f.get("additional_io_job");
  if (f.has("datasched_storage"))
    d.storage = parse_requested_storage(f.get("datasched_storage"), f.where() + ": job '" + d.job_id + "'");
  return d;
}

DecisionPayload parse_payload(const std::string& type, const EventFields& f)
{
  if (type == "EXECUTE_JOB")
    return parse_execute(f);
  if (type == "REJECT_JOB")
    return RejectJob{f.string("job_id")};
  if (type == "KILL_JOB") {
    KillJobs d;
    const auto& ids = f.get("job_ids");
    if (!ids.is_array())
      throw InputError(f.where() + ": 'job_ids' must be an array of job ids");
    for (const auto& id : ids) {
      if (!id.is_string())
        throw InputError(f.where() + ": 'job_ids' must contain strings");
      d.job_ids.push_back(id.get<std::string>());
    }
    return d;
  }
  if (type == "CALL_ME_LATER")
    return CallMeLater{f.number("timestamp")};
  if (type == "NOTIFY")
    return NotifyDecision{f.string("type")};
  if (type == "REGISTER_JOB") {
    RegisterJob d;
    d.job_id = f.string("job_id");
    d.job    = f.get("job");
    if (!d.job.is_object())
      throw InputError(f.where() + ": 'job' must be an object");
    return d;
  }
  if (type == "REGISTER_PROFILE") {
    RegisterProfile d;
    d.workload_name = f.string("workload_name");
    d.profile_name  = f.string("profile_name");
    d.profile       = f.get("profile");
    return d;
  }
  if (type == "SET_JOB_METADATA")
    return SetJobMetadata{f.string("job_id"), f.string("metadata")};
  if (type == "CHANGE_JOB_STATE")
    return ChangeJobState{f.string("job_id"), f.string("job_state")};
  if (type == "QUERY") {
    const auto& r = f.get("requests");
    if (!r.is_object())
      throw InputError(f.where() + ": 'requests' must be an object");
    return Query{r};
  }
  if (type == "SET_RESOURCE_STATE") {
    SetResourceState d;
    try {
      d.resources = IntervalSet::from_string(f.string("resources"));
    } catch (const InputError& e) {
      throw InputError(f.where() + ": 'resources': " + e.what());
    }
    if (d.resources.empty())
      throw InputError(f.where() + ": 'resources' is empty");
    d.pstate = to_int(f.get("state"), f.where() + ": 'state' (a pstate number, as a string)");
    return d;
  }
  if (type == "DATASCHED_STAGE") {
    DataStage d;
    d.stage_id     = f.string("stage_id");
    d.item         = f.string("item");
    const auto& to = f.get("to");
    if (to.is_string() && to.get<std::string>() == "central") {
      d.to_central = true;
    } else if (to.is_array() && !to.empty()) {
      for (const auto& id : to)
        d.to_nodes.push_back(to_int(id, f.where() + ": 'to' node"));
    } else {
      throw InputError(f.where() + ": 'to' must be \"central\" or a non-empty array of compute node ids");
    }
    return d;
  }
  if (type == "TO_JOB_MSG" || type == "ANSWER")
    throw InputError(f.where() + ": event type '" + type + "' is not supported by datasched-sim");
  throw InputError(f.where() + ": unknown event type '" + type + "'");
}

} // namespace

DecisionMessage parse_decision_message(const std::string& text)
{
  if (auto common = parse_common_decisions(text))
    return std::move(*common);
  return parse_decision_message_generic(text);
}

DecisionMessage parse_decision_message_generic(const std::string& text)
{
  nlohmann::json doc;
  if (find_excessive_nesting(text) != std::string::npos)
    throw InputError("the decision process sent JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  try {
    doc = parse_json_as_batsim(text);
  } catch (const nlohmann::json::exception& e) { // parse_error, or out_of_range for 1e400
    throw InputError(std::string("the decision process sent malformed JSON: ") + e.what());
  }
  if (!doc.is_object() || !doc.contains("now") || !doc.at("now").is_number())
    throw InputError("the decision process's message has no numeric 'now' field");
  if (!doc.contains("events") || !doc.at("events").is_array())
    throw InputError("the decision process's message has no 'events' array");
  DecisionMessage msg;
  msg.now     = doc.at("now").get<double>();
  double last = -INFINITY;
  int index   = 0;
  for (const auto& event : doc.at("events")) {
    std::string where = "decision event #" + std::to_string(index++);
    if (!event.is_object() || !event.contains("type") || !event.at("type").is_string())
      throw InputError(where + ": missing string field 'type'");
    Decision d;
    d.type = event.at("type").get<std::string>();
    where += " (" + d.type + ")";
    if (!event.contains("timestamp") || !event.at("timestamp").is_number())
      throw InputError(where + ": missing numeric field 'timestamp'");
    d.timestamp = event.at("timestamp").get<double>();
    if (d.timestamp < last)
      throw InputError(where + ": timestamps must be non-decreasing");
    if (d.timestamp > msg.now)
      throw InputError(where + ": timestamp " + std::to_string(d.timestamp) + " is after the message's now " +
                       std::to_string(msg.now));
    last                                     = d.timestamp;
    static const nlohmann::json empty_object = nlohmann::json::object();
    const nlohmann::json& data               = event.contains("data") ? event.at("data") : empty_object;
    d.payload                                = parse_payload(d.type, EventFields(data, where));
    msg.decisions.push_back(std::move(d));
  }
  return msg;
}

} // namespace datasched
