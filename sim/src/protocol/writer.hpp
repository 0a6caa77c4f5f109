#pragma once
// Builds the engine -> decision process messages of Batsim 4's JSON protocol.
// Only encoding lives here; what the events mean is decided by execution/server.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/interval_set.hpp"
#include "model/simulation_config.hpp"

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
  void append_job_submitted(const std::string& job_id, const nlohmann::json& job, const nlohmann::json* profile,
                            double date);
  void append_job_completed(const std::string& job_id, const std::string& job_state, const std::string& alloc,
                            int return_code, double date);
  void append_job_killed(const std::vector<std::string>& job_ids, const nlohmann::json& progress, double date);
  void append_requested_call(double date);
  void append_notify(const std::string& type, double date, const std::string& resources = "");
  void append_notify_object(const nlohmann::json& data, double date);
  void append_answer(const nlohmann::json& data, double date);

  bool empty() const { return events_.empty(); }
  /// Serialises {"now": now, "events": [...]}.
  std::string generate(double now) const;
  void clear() { events_.clear(); }

private:
  void append(const char* type, nlohmann::json data, double date);
  std::vector<nlohmann::json> events_;
  double last_date_ = 0;
};

} // namespace datasched
