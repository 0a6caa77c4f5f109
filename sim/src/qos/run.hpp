#pragma once
// The QoS-aware data-staging engine mode (seed 003):
//   datasched-sim --qos-staging EXPERIMENT.json -p PLATFORM.xml -e PREFIX
// runs the experiment without a decision process: every flow is a single-flow ptask
// weighted by its InfiniBand service level (qos/service_levels.hpp,
// qos/flows.hpp), the staging server absorbs writes and drains them lazily
// (qos/staging.hpp), and the benchmark measures what the paper measures
// (qos/benchmarks.hpp). Outputs: qos/outputs.hpp.
namespace datasched {
struct EngineConfig;
}

namespace datasched::qos {

/// Returns the process exit code; input problems end the process through fatal().
int run_qos_staging(const EngineConfig& config, const char* program_name);

} // namespace datasched::qos
