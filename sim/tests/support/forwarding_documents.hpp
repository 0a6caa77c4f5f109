#pragma once
// Experiment documents shared by the forwarding tests: the smallest valid forwarded
// experiment, which each test then changes one field of.
#include <nlohmann/json.hpp>

namespace datasched::testing {

/// Two client nodes of two processes, two TWINS forwarders (8 ms window), two data servers,
/// one application of four processes reading 64 KiB each, shared and strided.
inline nlohmann::json minimal_forwarding_experiment()
{
  return nlohmann::json::parse(R"({
    "mode": "forwarded",
    "clients": {"nodes": 2, "processes_per_node": 2},
    "forwarding": {"forwarders": 2, "scheduler": "twins", "window": 0.008},
    "servers": {"count": 2, "stripe_size": 65536},
    "applications": [{"name": "a", "processes": 4, "pattern": "shared_strided", "operation": "read",
                      "request_size": 32768, "bytes_per_process": 65536}]
  })");
}

} // namespace datasched::testing
