#include "execution/san_path.hpp"

#include "common/engine_config.hpp"
#include "common/fatal.hpp"
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

private:
  StagingLayer layer_;
};

/// One row per SAN service: its option, the option's file in the run's configuration, and the
/// path it sets up.
struct SanPathKind {
  const char* option;
  const std::string EngineConfig::*file;
  std::unique_ptr<SanPath> (*make)(const std::string& file, const Machines&, const StorageEndpoints&, TransferObserver*,
                                   const std::string& platform_file);
};

template <class Path>
std::unique_ptr<SanPath> make_path(const std::string& file, const Machines& machines, const StorageEndpoints& endpoints,
                                   TransferObserver* observer, const std::string& platform_file)
{
  return std::make_unique<Path>(file, machines, endpoints, observer, platform_file);
}

const SanPathKind kSanPaths[] = {
    {"--staging-layer", &EngineConfig::staging_layer, make_path<StagingPath>},
    {"--forwarding-layer", &EngineConfig::forwarding_layer, make_path<ForwardingPath>},
};

} // namespace

std::unique_ptr<SanPath> make_san_path(const EngineConfig& config, const Machines& machines,
                                       StorageEndpoints& endpoints, TransferObserver* observer)
{
  const SanPathKind* chosen = nullptr;
  for (const SanPathKind& kind : kSanPaths) {
    if ((config.*kind.file).empty())
      continue;
    if (chosen != nullptr) // checked before either is set up on the platform
      throw InputError(std::string(chosen->option) + " and " + kind.option +
                       " cannot be combined (SAN writes take one path)");
    chosen = &kind;
  }
  if (chosen == nullptr)
    return nullptr;
  auto path = chosen->make(config.*chosen->file, machines, endpoints, observer, config.platform_file);
  endpoints.set_san_path(path->carries(true), path->carries(false));
  return path;
}

} // namespace datasched
