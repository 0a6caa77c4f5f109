#pragma once
// The CSV files of the QoS mode (sim/src/qos/README.md, "Outputs"), written atomically at
// the end; all of them on every run (header only when the experiment has no such part).
#include <string>
#include <vector>

#include "qos/benchmarks.hpp"
#include "qos/experiment.hpp"
#include "services/staging_server.hpp"

namespace datasched::qos {

struct TransferResult {
  double priority = 0;
  double start    = 0;
  double end      = 0;
};

struct WriteResult {
  double start    = 0;
  double absorbed = 0; ///< the client's last block is in server memory
  double drained  = 0; ///< the mover has sent its last byte to the PFS
};

struct Results {
  std::vector<BenchmarkRow> benchmark;
  std::vector<TransferResult> transfers;
  std::vector<WriteResult> writes;
  const StagingServer* staging = nullptr;
  double noise_bytes           = 0;
  std::uint64_t activities     = 0;
  int max_concurrent           = 0;
  double simulated_time        = 0;
  bool weighted                = false; ///< flows carry SL weights as priorities
};

std::vector<std::string> output_files(const std::string& prefix);
void write_outputs(const std::string& prefix, const Experiment& experiment, const Results& results);

} // namespace datasched::qos
