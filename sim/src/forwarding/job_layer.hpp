#pragma once
// The I/O forwarding layer of a scheduling run (engine option --forwarding-layer FILE):
// the SAN I/O of `datasched_phases` jobs goes client -> its forwarder -> the data servers
// through the same forwarders, request schedulers and HDD servers as the standalone
// experiment mode (services/forwarding_service.hpp). This file pair holds the option's typed JSON
// (schema in sim/src/forwarding/README.md, "Phase jobs through the forwarding layer") and
// the layer's set-up on the platform; execution/forwarded_io.hpp runs a job's steps on it.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "forwarding/experiment.hpp"
#include "services/forwarding_service.hpp"

namespace datasched {
class Machines;
class StorageEndpoints;
} // namespace datasched

namespace datasched::forwarding {

struct JobLayerConfig {
  std::string file;           ///< where it was read from (for messages)
  ForwardingLayer forwarding; ///< scheduler, window, max_in_flight, aggregation_limit, mapping
  std::uint64_t request_size  = 1 << 20;
  AccessPattern pattern       = AccessPattern::FilePerProcess;
  std::uint64_t stripe_size   = 65536;
  double hdd_alpha            = 0;
  double hdd_seek_scale       = 0; ///< > 0: the seek-aware HDD curve (hdd.hpp)
  std::uint64_t control_bytes = 1;
};

/// Validates the option's document (unknown keys are errors). Throws InputError
/// "<file>: <field>: <problem>".
JobLayerConfig parse_job_layer(const nlohmann::json& document, const std::string& file);
JobLayerConfig load_job_layer(const std::string& path);

/// The layer on the loaded platform: every host with datasched_role=forwarder (resource-id
/// order), every I/O server (StorageEndpoints order, each with a <disk>, HDD curve applied),
/// compute node c -> forwarder by the mapping over all compute nodes.
class JobLayer {
public:
  /// Throws InputError naming the option file and the platform when the platform has no
  /// forwarder, no I/O server, or a server without a disk.
  JobLayer(JobLayerConfig config, const Machines& machines, const StorageEndpoints& endpoints,
           const std::string& platform_file);

  const JobLayerConfig& config() const { return config_; }
  Service& service() { return *service_; }
  int forwarder_of_node(int compute_id) const { return forwarder_of_node_.at(static_cast<std::size_t>(compute_id)); }
  /// <prefix>_forwarders.csv and <prefix>_servers.csv (README.md, Outputs) at the end of the run.
  void write_outputs(const std::string& prefix);
  /// The service's index of I/O server resource `id`, -1 if it is none.
  int server_index(int resource_id) const;

private:
  JobLayerConfig config_;
  std::unique_ptr<Service> service_;
  std::vector<int> forwarder_of_node_;
  std::vector<int> server_index_; ///< by resource id
  std::vector<simgrid::s4u::Host*> server_hosts_;
};

} // namespace datasched::forwarding
