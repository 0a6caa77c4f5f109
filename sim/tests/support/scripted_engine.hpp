#pragma once
// Runs a small simulation of the real engine in process, against a decision process
// scripted in C++ (the library entry point, embed.hpp, with a decision callback), in
// a forked child: SimGrid 3.32 allows one engine per process, so each simulation gets
// a fresh process, and the test process survives whatever the engine does (an error
// must return from datasched_sim_run; a crash is reported as a test failure).
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <simgrid/s4u/NetZone.hpp>

namespace datasched::testing {

/// Answers one decision round: gets the engine's request (Batsim 4's JSON message)
/// and returns the decision events to send back, at the request's date.
using Script = std::function<nlohmann::json(const nlohmann::json& request)>;

struct ScriptedRun {
  int code = -1;                       ///< datasched_sim_run's return value
  std::string error;                   ///< datasched_sim_last_error() after the run
  std::vector<nlohmann::json> rounds;  ///< every request the engine sent, in order
  std::optional<std::string> jobs_csv; ///< the outputs, when written
  std::optional<std::string> machine_states_csv;
  std::string child_failure; ///< non-empty if the child did not report (crash, exit)

  /// The events of type `type` over every round, each with the request's "now" added.
  std::vector<nlohmann::json> events(const std::string& type) const;
};

struct Scenario {
  std::string platform_xml;
  nlohmann::json workload;
  Script script;
  std::vector<std::string> engine_args; ///< more datasched-sim options
  /// Status the decision callback returns in the round with this index (0-based)
  /// instead of answering: a decision process that fails mid-run.
  int fail_at_round = -1;
};

/// Runs `scenario` in a forked child and returns what it reported.
ScriptedRun run_scripted(const Scenario& scenario);

/// Runs `body` in a forked child and returns its exit status (-1 if it did not exit
/// normally): for tests that need a SimGrid engine of their own.
int run_in_child(const std::function<int()>& body);

/// In such a child: the process's SimGrid engine (logs at critical only), configured with
/// `config` if given (e.g. "host/model:ptask_L07": before the platform exists), and an empty
/// Full zone named `zone` to build a platform in (add hosts, links, routes, then seal).
simgrid::s4u::NetZone* engine_with_full_zone(const char* zone, const char* config = nullptr);

/// A decision event at `now`: {"timestamp": now, "type": type, "data": data}.
nlohmann::json decision(double now, const std::string& type, nlohmann::json data);

} // namespace datasched::testing
