#pragma once
// The I/O forwarding experiment (seed 002, TWINS): one typed, validated description of
// clients, forwarders, data servers and applications, read from a JSON file.
// The schema is documented in sim/src/forwarding/README.md; unknown keys are errors, and
// every error names the file and the field (InputError).
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/run_cost.hpp"
#include "services/forwarding_types.hpp"

namespace datasched::forwarding {

struct Experiment {
  std::string file; ///< where it was read from (for messages)
  std::uint64_t seed     = 0;
  int client_nodes       = 1; ///< the first hosts of role "compute_node" (platform order)
  int processes_per_node = 1;
  bool forwarded         = true; ///< false: "direct", clients talk to the servers
  ForwardingLayer forwarding;
  Servers servers;
  std::uint64_t control_bytes = 1; ///< size of request/acknowledgement messages (0 would be free)
  std::vector<Application> applications;
  bool dispatch_trace = false; ///< write <prefix>_dispatches.csv (one row per server request)
};

/// Validates a parsed document; `file` only names the source in error messages.
/// Throws InputError("<file>: <field>: <problem>").
Experiment parse_experiment(const nlohmann::json& document, const std::string& file);

/// Reads and validates an experiment file (InputError on any problem).
Experiment load_experiment(const std::string& path);

/// The client requests of the run (each at least a message to a forwarder or server and
/// one back), estimated before it starts (model/run_cost.hpp).
RunCost client_request_cost(const Experiment& experiment);

} // namespace datasched::forwarding
