#include "protocol/writer.hpp"

#include <array>
#include <charconv>
#include <cmath>

#include "common/fatal.hpp"
#include "common/json_text.hpp"
#include "model/machines.hpp"
#include "model/workload.hpp"

namespace datasched {

double protocol_time(double date)
{
  // Batsim prints every double of the protocol with printf("%6f") (protocol.hpp, class
  // Writer): the exact binary value correctly rounded to 6 decimals; the decision process
  // reads back the double nearest to that text. round(date * 1e6) / 1e6 is not the same:
  // beyond 2^53 / 1e6 (~9e9 s) the product is already rounded, and below it the product's
  // rounding can cross a half-microsecond.
  if (!std::isfinite(date))
    return date;
  // Batsim aborts writing a number whose "%6f" text needs 31 characters (above 1e23):
  // a date the engine reached past that point is an error here too (kMaxTime).
  if (std::fabs(date) > kMaxTime)
    throw EngineError("the simulation reached t = " + format_date(date) +
                      " s, beyond the largest date Batsim can write (" + kMaxTimeText + " s)");
  std::array<char, 512> text; // %f of the largest double has 309 integer digits
  const auto printed = std::to_chars(text.data(), text.data() + text.size(), date, std::chars_format::fixed, 6);
  double read        = date;
  std::from_chars(text.data(), printed.ptr, read);
  return read;
}

void ProtocolWriter::append(const char* type, const std::string& data_json, double date)
{
  // Dates are non-decreasing by construction (the server appends in simulated order).
  if (date < last_date_)
    date = last_date_;
  last_date_ = date;
  if (!events_.empty())
    events_ += ',';
  events_ += "{\"data\":";
  events_ += data_json;
  events_ += ",\"timestamp\":";
  append_json_number(events_, protocol_time(date));
  events_ += ",\"type\":\"";
  events_ += type; // protocol constants: plain ASCII
  events_ += "\"}";
}

namespace {
nlohmann::json describe_resource(const Machine& m)
{
  nlohmann::json r;
  r["id"]              = m.id;
  r["name"]            = m.name;
  r["state"]           = "idle";
  r["properties"]      = m.properties;
  r["zone_properties"] = m.zone_properties;
  return r;
}
} // namespace

void ProtocolWriter::append_simulation_begins(const Machines& machines, const Workloads& workloads,
                                              const SimulationConfig& config, double date)
{
  nlohmann::json data;
  nlohmann::json compute = nlohmann::json::array(), storage = nlohmann::json::array();
  for (const auto& m : machines.all())
    (m.role == Role::Storage ? storage : compute).push_back(describe_resource(m));
  data["nb_resources"]          = machines.size();
  data["nb_compute_resources"]  = machines.nb_compute();
  data["nb_storage_resources"]  = machines.nb_storage();
  data["allow_compute_sharing"] = config.allow_compute_sharing;
  data["allow_storage_sharing"] = config.allow_storage_sharing;
  data["compute_resources"]     = std::move(compute);
  data["storage_resources"]     = std::move(storage);
  data["config"]                = {
                     {"redis-enabled", false},
                     {"redis-hostname", "127.0.0.1"},
                     {"redis-port", 6379},
                     {"redis-prefix", "default"},
                     {"profiles-forwarded-on-submission", config.profiles_forwarded_on_submission},
                     {"dynamic-jobs-enabled", config.dynamic_jobs_enabled},
                     {"dynamic-jobs-acknowledged", config.dynamic_jobs_acknowledged},
                     {"profile-reuse-enabled", config.profile_reuse_enabled},
                     {"forward-unknown-events", config.forward_unknown_events},
  };
  if (config.item_evictions_notified) // only when asked: Batsim's config otherwise, byte for byte
    data["config"]["datasched-item-evictions"] = true;
  for (const auto& [key, described] : config.services)
    data["config"][key] = nlohmann::json::parse(described);
  nlohmann::json files = nlohmann::json::object(), profiles = nlohmann::json::object();
  for (const auto& [name, w] : workloads.workloads()) {
    if (!w->is_static)
      continue;
    files[name]          = w->file;
    nlohmann::json profs = nlohmann::json::object();
    for (const auto& [pname, p] : w->profiles)
      profs[pname] = nlohmann::json::parse(p.json_description);
    profiles[name] = std::move(profs);
  }
  data["workloads"] = std::move(files);
  data["profiles"]  = std::move(profiles);
  append("SIMULATION_BEGINS", data.dump(), date);
}

void ProtocolWriter::append_simulation_ends(double date)
{
  append("SIMULATION_ENDS", "{}", date);
}

// Keys below are written in the order nlohmann::json (a std::map) sorts them.

void ProtocolWriter::append_job_submitted(const std::string& job_id, const std::string& job_json,
                                          const std::string* profile_json, double date)
{
  std::string data = "{\"job\":";
  data += job_json;
  data += ",\"job_id\":";
  append_json_string(data, job_id);
  if (profile_json) {
    data += ",\"profile\":";
    data += *profile_json;
  }
  data += '}';
  append("JOB_SUBMITTED", data, date);
}

void ProtocolWriter::append_job_completed(const std::string& job_id, const std::string& job_state,
                                          const std::string& alloc, int return_code, double date)
{
  std::string data = "{\"alloc\":";
  append_json_string(data, alloc);
  data += ",\"job_id\":";
  append_json_string(data, job_id);
  data += ",\"job_state\":";
  append_json_string(data, job_state);
  data += ",\"return_code\":";
  append_json_number(data, static_cast<long long>(return_code));
  data += '}';
  append("JOB_COMPLETED", data, date);
}

void ProtocolWriter::append_job_killed(const std::vector<std::string>& job_ids, const nlohmann::json& progress,
                                       double date)
{
  append("JOB_KILLED", nlohmann::json{{"job_ids", job_ids}, {"job_progress", progress}}.dump(), date);
}

void ProtocolWriter::append_requested_call(double date)
{
  append("REQUESTED_CALL", "{}", date);
}

void ProtocolWriter::append_notify(const std::string& type, double date, const std::string& resources)
{
  std::string data = "{";
  if (!resources.empty()) {
    data += "\"resources\":";
    append_json_string(data, resources);
    data += ',';
  }
  data += "\"type\":";
  append_json_string(data, type);
  data += '}';
  append("NOTIFY", data, date);
}

void ProtocolWriter::append_notify_object(const nlohmann::json& data, double date)
{
  append("NOTIFY", data.dump(), date);
}

void ProtocolWriter::append_answer(const nlohmann::json& data, double date)
{
  append("ANSWER", data.dump(), date);
}

void ProtocolWriter::append_stage_done(const nlohmann::json& data, double date)
{
  append("DATASCHED_STAGE_DONE", data.dump(), date);
}

void ProtocolWriter::append_item_evicted(const nlohmann::json& data, double date)
{
  append("DATASCHED_ITEM_EVICTED", data.dump(), date);
}

void ProtocolWriter::append_resource_state_changed(const std::string& resources, const std::string& state, double date)
{
  std::string data = "{\"resources\":";
  append_json_string(data, resources);
  data += ",\"state\":";
  append_json_string(data, state);
  data += '}';
  append("RESOURCE_STATE_CHANGED", data, date);
}

std::string ProtocolWriter::generate(double now) const
{
  std::string message;
  message.reserve(events_.size() + 48);
  message += "{\"events\":[";
  message += events_;
  message += "],\"now\":";
  append_json_number(message, protocol_time(now));
  message += '}';
  return message;
}

} // namespace datasched
