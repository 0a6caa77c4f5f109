#pragma once
// CSV outputs of an I/O forwarding run (columns documented in sim/src/forwarding/README.md):
//   <prefix>_applications.csv, <prefix>_forwarders.csv, <prefix>_servers.csv and, when
//   asked for, <prefix>_dispatches.csv. Each is written atomically.
#include <string>
#include <vector>

#include "forwarding/experiment.hpp"
#include "forwarding/layout.hpp"
#include "services/forwarding_statistics.hpp"

namespace datasched::forwarding {

std::vector<std::string> output_files(const std::string& prefix, const Experiment& experiment);

/// <prefix>_forwarders.csv and <prefix>_servers.csv (also written by scheduling runs with
/// --forwarding-layer).
void write_layer_outputs(const std::string& prefix, SchedulerKind scheduler, const std::vector<std::string>& forwarders,
                         const std::vector<std::string>& servers, const std::vector<ForwarderStats>& forwarder_stats,
                         const std::vector<ServerStats>& server_stats);

void write_outputs(const std::string& prefix, const Experiment& experiment, const Layout& layout,
                   const Statistics& stats);

} // namespace datasched::forwarding
