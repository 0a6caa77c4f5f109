#pragma once
// The QoS-aware data-staging experiment (seed 003): one typed, validated description of
// the arbitration table, the staging group, the I/O noise, explicit writes and transfers,
// and the benchmark, read from a JSON file. Schema: sim/src/qos/README.md. Unknown keys
// are errors; every error names the file and the field (InputError). Host names are
// checked against the platform later (scenarios/qos_staging.cpp), naming the field too.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/run_cost.hpp"
#include "qos/service_levels.hpp"
#include "services/staging_server.hpp"

namespace datasched::qos {

/// A staging group: one staging server with its SSD, its port on the storage network and
/// the back-end PFS server its data mover drains to.
struct Staging {
  std::string server;   ///< IB host with a disk (the SSD)
  std::string disk;     ///< that disk's name; empty: the server's only disk
  std::string port;     ///< the server's host on the storage network
  std::string pfs;      ///< back-end PFS server on the storage network
  StagingParams params; ///< buffer, idle time, drain chunk, watermark (services/staging_server.hpp)
  double capacity = 0;  ///< SSD bytes; 0: the disk's "size" property
  std::string where;    ///< "<file>: staging" for messages
};

/// Continuous I/O noise: one I/O thread per entry of `writers` streams blocks of
/// `block_size` to the staging server on `sl`, from `start` until the benchmark ends (dd).
struct Noise {
  std::vector<std::string> writers;
  int sl            = 0;
  double block_size = 1024.0 * 1024;
  double start      = 0;
  double jitter     = 0; ///< each block waits U[0, jitter) s first (dd's per-call overhead; breaks phase locks)
};

/// One explicit write of `bytes` to the staging server, in blocks; the run waits until
/// the data mover has drained it to the PFS.
struct Write {
  std::string host;
  double bytes      = 0;
  double block_size = 1024.0 * 1024;
  int sl            = 0;
  double start      = 0;
};

/// One explicit host-to-host flow (a single-flow SimGrid ptask).
struct Transfer {
  std::string name;
  std::string src, dst;
  double bytes = 0;
  int sl       = 0;
  double start = 0;
};

enum class BenchmarkKind { Latency, Bandwidth, Bibw, Alltoall, Allreduce, Stencil, Cg };
std::string to_string(BenchmarkKind kind);
/// Per-message-size benchmarks (OSU-like: `sizes`, `warmup`); the others are applications.
bool per_size(BenchmarkKind kind);
/// Benchmarks that report a bandwidth (B/s); the other per-size ones report a latency (s).
bool reports_bandwidth(BenchmarkKind kind);

/// How an allreduce moves its data between 2^k ranks (the reduction's arithmetic is not
/// modelled: the ranks' cores are not the bottleneck in seed 003's set-up).
///   RecursiveDoubling  k rounds; in round r rank i exchanges the whole vector with i XOR 2^r.
///   Rabenseifner       reduce-scatter by recursive halving (k rounds of s/2, s/4, ... s/2^k),
///                      then allgather by recursive doubling (the same amounts in reverse).
///   Auto               MPICH's rule (MVAPICH2 derives from it): recursive doubling for
///                      messages up to 2048 bytes, Rabenseifner above.
enum class AllreduceAlgorithm { Auto, RecursiveDoubling, Rabenseifner };
std::string to_string(AllreduceAlgorithm algorithm);
/// The algorithm `Auto` resolves to for a message of `size` bytes.
AllreduceAlgorithm resolve(AllreduceAlgorithm algorithm, double size);

struct Benchmark {
  BenchmarkKind kind = BenchmarkKind::Latency;
  std::vector<std::string> hosts; ///< latency/bandwidth/bibw: the two ranks' nodes; others: the nodes in order
  int sl       = 0;
  double start = 0;
  // latency, bandwidth, bibw, alltoall, allreduce (OSU micro-benchmarks)
  std::vector<double> sizes; ///< alltoall: bytes per ordered rank pair; allreduce: the vector's bytes
  int iterations               = 100;
  int warmup                   = 10;
  int window                   = 64; ///< bandwidth, bibw: messages per window (per direction) before the ack
  double ack_bytes             = 4;
  AllreduceAlgorithm allreduce = AllreduceAlgorithm::Auto;
  // stencil (AWP-ODC-like) and cg (NAS CG-like)
  std::vector<int> grid;      ///< stencil: nodes along x, y, z (product = hosts)
  double compute_seconds = 0; ///< per iteration, on every node
  double halo_bytes      = 0; ///< stencil: per node face and direction, per iteration
  double exchange_bytes  = 0; ///< cg: per ordered node pair, per iteration (transpose exchange)
};

struct Experiment {
  std::string file;
  std::uint64_t seed           = 0; ///< seeds the noise jitter (one generator per writer)
  ArbitrationTable arbitration = ArbitrationTable::paper_default();
  std::optional<Staging> staging;
  std::optional<Noise> noise;
  std::vector<Write> writes;
  std::vector<Transfer> transfers;
  std::optional<Benchmark> benchmark;
  std::set<int> used_service_levels; ///< every SL some flow of the experiment uses
};

/// Validates a parsed document; `file` only names the source in messages.
Experiment parse_experiment(const nlohmann::json& document, const std::string& file);
/// Reads and validates an experiment file (InputError on any problem).
Experiment load_experiment(const std::string& path);

/// The benchmark's messages (a lower bound: warm-up and measured iterations x sizes x the
/// messages of one, or iterations x node pairs), estimated before the run (model/run_cost.hpp).
RunCost benchmark_cost(const Experiment& experiment);

} // namespace datasched::qos
