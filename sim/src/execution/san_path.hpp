#pragma once
// The path of central-storage (SAN) I/O when a service stands between the compute nodes and the
// I/O servers: the I/O forwarding layer (--forwarding-layer: reads and writes through
// forwarders, seed 002) or the staging layer (--staging-layer: writes absorbed by staging
// servers and drained lazily, seed 003). The job runner and the simulation reach either through
// this one interface; make_san_path() picks the one the run's options name, from the table in
// san_path.cpp (a new SAN service is one row there and one class here). Without one, SAN I/O
// stays in the phase's plan (phase_plan.hpp) as ptasks straight to the I/O servers.
#include <memory>
#include <string>
#include <vector>

#include <simgrid/forward.h>

#include "execution/streamed_io.hpp"

namespace datasched {

struct Context;
struct EngineConfig;
class Machines;
class StorageEndpoints;
class TransferObserver;

class SanPath {
public:
  virtual ~SanPath() = default;

  /// Whether phases that read (`read`) or write central storage go through the path; the
  /// others stay in the phase's plan.
  virtual bool carries(bool read) const = 0;
  /// Starts one phase's SAN I/O: one stream per I/O task (`streams`), against the job's I/O
  /// servers (`servers`, resource ids); `job_files` are what the path keeps for the job
  /// between its phases (the forwarding layer's open files). Releases `wakeup` once when
  /// every stream is done, unless stopped before or the job was killed.
  virtual std::shared_ptr<StreamedIo> start(Context& context, Job& job, simgrid::s4u::Semaphore& wakeup, bool read,
                                            const std::vector<SanStream>& streams, const std::vector<int>& servers,
                                            std::vector<int>& job_files) = 0;
  /// Starts the service's own actors (daemons: an idle service neither prolongs the run nor
  /// deadlocks it), once the platform and the jobs' actors are set up.
  virtual void start_actors() = 0;
  /// The service's output files, at the end of the run.
  virtual void write_outputs(const std::string& prefix) = 0;
};

/// The path the run's options name (at most one: SAN I/O takes one path), set up on the
/// loaded platform with its transfers seen by `observer` (null: none); null when no option
/// names one. Tells `endpoints` which phases the path takes out of the plan. Throws
/// InputError naming the option's file and the platform.
std::unique_ptr<SanPath> make_san_path(const EngineConfig& config, const Machines& machines,
                                       StorageEndpoints& endpoints, TransferObserver* observer);

} // namespace datasched
