#pragma once
// The storage-daemon interference engine mode (seed 004):
//   datasched-sim --interference EXPERIMENT.json -p PLATFORM.xml -e PREFIX
// runs an HPL-like job next to an IOR-like job whose file system's services run on
// hosts of the platform (on the HPL job's nodes, for an on-demand file system such as
// BeeOND), without any decision process. Service work is SimGrid CPU activities on the
// services' hosts, I/O is SimGrid network and disk activities; SimGrid's solver shares
// every resource. Outputs: interference/outputs.hpp.
namespace datasched {
struct EngineConfig;
}

namespace datasched::interference {

/// Returns the process exit code; input problems end the process through fatal().
int run_interference(const EngineConfig& config, const char* program_name);

} // namespace datasched::interference
