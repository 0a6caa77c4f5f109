#pragma once
// The I/O forwarding engine mode (seed 002):
//   datasched-sim --io-forwarding EXPERIMENT.json -p PLATFORM.xml -e PREFIX
// runs the experiment on SimGrid without any decision process. Every request's bytes
// travel client -> forwarder -> data server (or back, for reads) as SimGrid host-to-host
// communications over the platform's links, servers read/write their HDD as SimGrid disk
// activities (contention curve: forwarding/hdd.hpp), and SimGrid's solver does all the
// sharing. Outputs: forwarding/outputs.hpp.
namespace datasched {
struct EngineConfig;
}

namespace datasched::forwarding {

/// Returns 0 once the outputs are written; errors are thrown as EngineError (fatal.hpp).
int run_io_forwarding(const EngineConfig& config, const char* program_name);

} // namespace datasched::forwarding
