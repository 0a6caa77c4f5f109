#include "execution/node_service.hpp"

#include <nlohmann/json.hpp>

#include "common/fatal.hpp"
#include "common/simulation_config.hpp"
#include "execution/phase_plan.hpp"
#include "model/machines.hpp"
#include "model/run_cost.hpp"
#include "model/storage_endpoints.hpp"
#include "services/node_daemons.hpp"

namespace datasched {

namespace {

/// --storage-daemons: each NVM's node serves its traffic at a CPU cost, and carries the idle load.
class DaemonsOnNodes final : public NodeService {
public:
  DaemonsOnNodes(const NodeDaemonsConfig& config, const Machines& machines, const StorageEndpoints& endpoints)
      : daemons_(config, endpoints, machines.size()), machines_(machines)
  {}
  bool serves_any(const std::vector<int>& hosts) const override { return daemons_.serves_any(hosts); }
  double add_work(std::vector<int>& hosts, std::vector<double>& flops, const PairBytes& bytes) const override
  {
    return daemons_.add_work(hosts, flops, bytes);
  }
  void start_actors() override { daemons_.start_idle_load(machines_); }
  const NodeDaemons& daemons() const { return daemons_; }
  /// Every parameter, so that a placement policy can price a flow (datasched.policy.platform).
  void announce(SimulationConfig& config) const override
  {
    config.services["datasched-storage-daemons"] = describe_node_daemons(daemons_.config()).dump();
  }

private:
  NodeDaemons daemons_;
  const Machines& machines_; ///< the run's, which outlive its services
};

} // namespace

std::unique_ptr<NodeService> make_node_daemons(const std::string& file, const Machines& machines,
                                               const StorageEndpoints& endpoints, const std::string& platform_file,
                                               bool allow_long_run)
{
  if (!endpoints.has_node_nvm())
    throw InputError("--storage-daemons '" + file + "': platform '" + platform_file +
                     "' has no node NVM (no host with datasched_role=nvm): no daemon would serve anything");
  auto service = std::make_unique<DaemonsOnNodes>(load_node_daemons(file), machines, endpoints);
  check_run_cost(file, "idle_period", service->daemons().idle_burst_rate(), allow_long_run);
  return service;
}

const ActivitySpec& served_by(const NodeService* service, const ActivitySpec& spec, ActivitySpec& copy)
{
  if (service == nullptr || !service->serves_any(spec.hosts))
    return spec;
  copy = spec;
  return service->add_work(copy.hosts, copy.flops, copy.bytes) > 0 ? copy : spec;
}

} // namespace datasched
