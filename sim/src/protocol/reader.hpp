#pragma once
// Parses decision process -> engine messages of Batsim 4's JSON protocol into typed
// decisions. Structural checks only (types, required fields); whether a decision is
// legal right now (job exists, hosts free) is checked by execution/server.
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/interval_set.hpp"
#include "model/phase_profile.hpp"

namespace datasched {

struct ExecuteJob {
  std::string job_id;
  IntervalSet allocation;
  std::vector<int> mapping; ///< executor -> index in the allocation (empty: identity)
  std::map<std::string, int> storage_mapping;
  std::optional<nlohmann::json> additional_io_job;
  /// datasched extension: {"devices": [resource ids], "access": "disperse|affinity|local"},
  /// both optional. Where a datasched_phases job's data lives (Batsim ignores the field).
  std::optional<RequestedStorage> storage;
};
struct RejectJob {
  std::string job_id;
};
struct KillJobs {
  std::vector<std::string> job_ids;
};
struct CallMeLater {
  double when = 0;
};
struct NotifyDecision {
  std::string type;
};
struct RegisterJob {
  std::string job_id;
  nlohmann::json job;
};
struct RegisterProfile {
  std::string workload_name;
  std::string profile_name;
  nlohmann::json profile;
};
struct SetJobMetadata {
  std::string job_id;
  std::string metadata;
};
struct ChangeJobState {
  std::string job_id;
  std::string job_state;
};
struct Query {
  nlohmann::json requests;
};
/// Batsim's SET_RESOURCE_STATE: {"resources": "1 3-5", "state": "2"} (the pstate as a string).
struct SetResourceState {
  IntervalSet resources;
  int pstate = 0;
};

/// datasched extension DATASCHED_STAGE (data movers, seed 001): copy a named data item
/// asynchronously onto the NVMs of compute nodes `to_nodes` (stage-in from central
/// storage, or a move between nodes), or onto central storage (`to_central`, stage-out).
/// The engine answers DATASCHED_STAGE_DONE when it is done (execution/data_mover.hpp).
struct DataStage {
  std::string stage_id;
  std::string item;
  bool to_central = false;
  std::vector<int> to_nodes;
};

using DecisionPayload =
    std::variant<ExecuteJob, RejectJob, KillJobs, CallMeLater, NotifyDecision, RegisterJob, RegisterProfile,
                 SetJobMetadata, ChangeJobState, Query, SetResourceState, DataStage>;

struct Decision {
  double timestamp = 0;
  std::string type;
  DecisionPayload payload;
};

struct DecisionMessage {
  double now = 0;
  std::vector<Decision> decisions;
};

/// Parses one reply. Throws InputError("... event #i (TYPE): ...") on malformed content,
/// unknown event types, decreasing timestamps or timestamps after "now".
/// Common messages take a streaming fast path (protocol/decision_fast_reader.hpp); the
/// others, and every invalid one, the general reader below.
DecisionMessage parse_decision_message(const std::string& text);

/// The general reader: builds the JSON document, handles every event type and words
/// every error. parse_decision_message must give the same result for any input.
DecisionMessage parse_decision_message_generic(const std::string& text);

} // namespace datasched
