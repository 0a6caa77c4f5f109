#include "execution/san_path.hpp"

#include <nlohmann/json.hpp>

#include "common/simulation_config.hpp"
#include "execution/forwarded_io.hpp"
#include "execution/staged_writes.hpp"
#include "forwarding/job_layer.hpp"
#include "model/storage_endpoints.hpp"
#include "services/staging_layer.hpp"

namespace datasched {

namespace {

/// --forwarding-layer: reads and writes through forwarders to the data servers.
class ForwardingPath final : public SanPath {
public:
  ForwardingPath(const std::string& file, const Machines& machines, const StorageEndpoints& endpoints,
                 TransferObserver* observer, const std::string& platform_file)
      : layer_(forwarding::load_job_layer(file), machines, endpoints, platform_file)
  {
    layer_.service().set_transfer_observer(observer);
  }
  bool carries(bool /*read*/) const override { return true; }
  std::shared_ptr<StreamedIo> start(Context& context, Job& job, simgrid::s4u::Semaphore& wakeup, bool read,
                                    const std::vector<SanStream>& streams, const std::vector<int>& servers,
                                    std::vector<int>& job_files) override
  {
    return ForwardedIo::start(layer_, context, job, wakeup, read, streams, servers, job_files);
  }
  void start_actors() override { layer_.service().start_workers(); }
  void write_outputs(const std::string& prefix) override { layer_.write_outputs(prefix); }

private:
  forwarding::JobLayer layer_;
};

/// --staging-layer: writes absorbed by staging servers, drained lazily; reads stay in the plan.
class StagingPath final : public SanPath {
public:
  StagingPath(const std::string& file, const Machines& machines, const StorageEndpoints& endpoints,
              TransferObserver* observer, const std::string& platform_file)
      : layer_(load_staging_layer(file), machines, endpoints, observer, platform_file)
  {}
  bool carries(bool read) const override { return !read; }
  std::shared_ptr<StreamedIo> start(Context& context, Job& job, simgrid::s4u::Semaphore& wakeup, bool /*read*/,
                                    const std::vector<SanStream>& streams, const std::vector<int>& servers,
                                    std::vector<int>& /*job_files*/) override
  {
    return StagedWrites::start(layer_, context, job, wakeup, streams, servers);
  }
  void start_actors() override { layer_.start_actors(); }
  void write_outputs(const std::string& prefix) override { layer_.write_outputs(prefix); }
  /// The servers and the compute nodes writing to each (services/staging_layer.hpp).
  void announce(SimulationConfig& config) const override
  {
    config.services["datasched-staging-servers"] = layer_.describe().dump();
  }

private:
  StagingLayer layer_;
};

} // namespace

std::unique_ptr<SanPath> make_forwarding_path(const std::string& file, const Machines& machines,
                                              const StorageEndpoints& endpoints, TransferObserver* observer,
                                              const std::string& platform_file)
{
  return std::make_unique<ForwardingPath>(file, machines, endpoints, observer, platform_file);
}

std::unique_ptr<SanPath> make_staging_path(const std::string& file, const Machines& machines,
                                           const StorageEndpoints& endpoints, TransferObserver* observer,
                                           const std::string& platform_file)
{
  return std::make_unique<StagingPath>(file, machines, endpoints, observer, platform_file);
}

} // namespace datasched
