#pragma once
// Batsim external event files: one JSON object per line, e.g.
//   {"type": "machine_unavailable", "resources": "0-1 3", "timestamp": 20}
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace datasched {

struct ExternalEvent {
  double timestamp = 0;
  std::string type;
  std::string resources; ///< machine events: interval set of resource ids
  nlohmann::json object; ///< the whole event (forwarded as is for unknown types)
};

/// Loads an events file sorted by date (stable). Throws InputError naming file:line
/// for malformed lines, missing fields, unknown resource ids (>= nb_resources), or
/// unknown types when `forward_unknown` is false.
std::vector<ExternalEvent> load_external_events(const std::string& path, int nb_resources, bool forward_unknown);

} // namespace datasched
