#pragma once
// The path of central-storage (SAN) I/O when a service stands between the compute nodes and the
// I/O servers: the I/O forwarding layer (--forwarding-layer: reads and writes through
// forwarders, seed 002) or the staging layer (--staging-layer: writes absorbed by staging
// servers and drained lazily, seed 003). One role of a run's services (run_service.hpp): the
// job runner reaches either through this interface, and the table of run_services.cpp picks
// the one the run's options name (a new SAN service is one class in san_path.cpp and one row
// there). Without one, SAN I/O stays in the phase's plan (phase_plan.hpp) as ptasks straight
// to the I/O servers.
#include <memory>
#include <string>
#include <vector>

#include <simgrid/forward.h>

#include "execution/run_service.hpp"
#include "execution/streamed_io.hpp"

namespace datasched {

struct Context;
class Machines;
class StorageEndpoints;
class TransferObserver;

class SanPath : public RunService {
public:
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
};

/// The SAN paths, set up from their option's file on the loaded platform with their transfers
/// seen by `observer` (null: none). Throw InputError naming the file and the platform.
std::unique_ptr<SanPath> make_forwarding_path(const std::string& file, const Machines& machines,
                                              const StorageEndpoints& endpoints, TransferObserver* observer,
                                              const std::string& platform_file);
std::unique_ptr<SanPath> make_staging_path(const std::string& file, const Machines& machines,
                                           const StorageEndpoints& endpoints, TransferObserver* observer,
                                           const std::string& platform_file);

} // namespace datasched
