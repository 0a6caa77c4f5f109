#pragma once
// Builds the engine -> decision process messages of Batsim 4's JSON protocol.
// Only encoding lives here; what the events mean is decided by execution/server.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/simulation_config.hpp"
#include "model/interval_set.hpp"

namespace datasched {

class Machines;
class Workloads;

/// Batsim writes every date with 6 decimals; decision processes echo them back.
double protocol_time(double date);

class ProtocolWriter {
public:
  void append_simulation_begins(const Machines& machines, const Workloads& workloads, const SimulationConfig& config,
                                double date);
  void append_simulation_ends(double date);
  /// `job_json` and `profile_json` are serialised JSON objects (`profile_json` may be null).
  void append_job_submitted(const std::string& job_id, const std::string& job_json, const std::string* profile_json,
                            double date);
  void append_job_completed(const std::string& job_id, const std::string& job_state, const std::string& alloc,
                            int return_code, double date);
  void append_job_killed(const std::vector<std::string>& job_ids, const nlohmann::json& progress, double date);
  void append_requested_call(double date);
  void append_notify(const std::string& type, double date, const std::string& resources = "");
  void append_notify_object(const nlohmann::json& data, double date);
  void append_answer(const nlohmann::json& data, double date);
  /// datasched extension: a DATASCHED_STAGE is done (execution/data_mover.hpp).
  void append_stage_done(const nlohmann::json& data, double date);
  /// datasched extension, only with --datasched-item-evictions: a named data item left node
  /// NVM (execution/item_traffic.hpp, eviction_event).
  void append_item_evicted(const nlohmann::json& data, double date);
  /// {"resources": "0-3 5", "state": "<pstate>"}: Batsim sends the pstate as a string.
  void append_resource_state_changed(const std::string& resources, const std::string& state, double date);

  bool empty() const { return events_.empty(); }
  /// Serialises {"now": now, "events": [...]}.
  std::string generate(double now) const;
  void clear() { events_.clear(); }

private:
  /// Appends {"data": <data_json>, "timestamp": date, "type": type} to the events.
  void append(const char* type, const std::string& data_json, double date);

  // Events are serialised as they are appended, exactly as nlohmann::json::dump() would
  // write them (keys in std::map order, same number and string formats): the messages
  // carry one JSON object per job and round, and building then dumping a DOM for each
  // was a large share of the engine's time. The unit tests compare both ways.
  std::string events_; ///< serialised events, comma-separated
  double last_date_ = 0;
};

} // namespace datasched
