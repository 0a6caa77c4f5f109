#include "execution/run_services.hpp"

#include <vector>

#include "common/engine_config.hpp"
#include "common/fatal.hpp"
#include "common/simulation_config.hpp"
#include "model/machines.hpp"
#include "model/storage_endpoints.hpp"

namespace datasched {

namespace {

enum class ServiceRole { San, Nodes };

/// What a row's service is set up from.
struct ServiceSetup {
  const std::string& file;
  const Machines& machines;
  const StorageEndpoints& endpoints;
  TransferObserver* observer;
  const std::string& platform_file;
  bool allow_long_run;
};

/// One row per service: its option, the option's file in the run's configuration, its role,
/// and how it is set up into its slot.
struct ServiceKind {
  const char* option;
  const std::string EngineConfig::*file;
  ServiceRole role;
  void (*install)(const ServiceSetup& setup, RunServices& services);
};

const char* role_words(ServiceRole role)
{
  return role == ServiceRole::San ? "SAN I/O takes one path" : "the compute nodes run one kind of service";
}

const ServiceKind kServices[] = {
    {"--staging-layer", &EngineConfig::staging_layer, ServiceRole::San,
     [](const ServiceSetup& s, RunServices& services) {
       services.san = make_staging_path(s.file, s.machines, s.endpoints, s.observer, s.platform_file);
     }},
    {"--forwarding-layer", &EngineConfig::forwarding_layer, ServiceRole::San,
     [](const ServiceSetup& s, RunServices& services) {
       services.san = make_forwarding_path(s.file, s.machines, s.endpoints, s.observer, s.platform_file);
     }},
    {"--storage-daemons", &EngineConfig::storage_daemons, ServiceRole::Nodes,
     [](const ServiceSetup& s, RunServices& services) {
       services.nodes = make_node_daemons(s.file, s.machines, s.endpoints, s.platform_file, s.allow_long_run);
     }},
};

/// The run's services in the table's order (the order they start and write in).
template <class Visit>
void each_service(const RunServices& services, Visit&& visit)
{
  if (services.san)
    visit(static_cast<RunService&>(*services.san));
  if (services.nodes)
    visit(static_cast<RunService&>(*services.nodes));
}

} // namespace

RunServices make_run_services(const EngineConfig& config, const Machines& machines, StorageEndpoints& endpoints,
                              TransferObserver* observer)
{
  std::vector<const ServiceKind*> chosen;
  for (const ServiceKind& kind : kServices) {
    if ((config.*kind.file).empty())
      continue;
    for (const ServiceKind* other : chosen) // checked before any is set up on the platform
      if (other->role == kind.role)
        throw InputError(std::string(other->option) + " and " + kind.option + " cannot be combined (" +
                         role_words(kind.role) + ")");
    chosen.push_back(&kind);
  }
  RunServices services;
  for (const ServiceKind* kind : chosen)
    kind->install(
        ServiceSetup{config.*kind->file, machines, endpoints, observer, config.platform_file, config.allow_long_run},
        services);
  if (services.san)
    endpoints.set_san_path(services.san->carries(true), services.san->carries(false));
  return services;
}

void RunServices::start_actors() const
{
  each_service(*this, [](RunService& service) { service.start_actors(); });
}

void RunServices::announce(SimulationConfig& config) const
{
  each_service(*this, [&](RunService& service) { service.announce(config); });
}

void RunServices::write_outputs(const std::string& prefix) const
{
  each_service(*this, [&](RunService& service) { service.write_outputs(prefix); });
}

} // namespace datasched
