#pragma once
// The staging layer of a scheduling run (engine option --staging-layer FILE): the SAN
// writes of `datasched_phases` jobs go to a staging server, which absorbs them in its
// memory, writes them to its SSD and drains them lazily to the job's I/O servers
// (services/staging_server.hpp, seed 003's model). The job's write phase ends once every
// block is absorbed; the drain runs on after it, as storage traffic through the run's
// traffic arbiter. Reads, stage-in/out and the other tiers are unchanged.
//
// The platform: every host with datasched_role=staging (and role=storage, so that it is
// not a compute node) is a staging server and needs one <disk> (its SSD; capacity from the
// file or the disk's "size" property). Compute node c of N writes to server
// floor(c * S / N) of the S servers (resource-id order), from its DRAM endpoint (where SAN
// writes leave a node, execution/phase_plan.hpp) or, without one, from the node itself.
// The server drains through its own network links (it is its own port). Every route these
// transfers need is checked when the layer is set up.
//
// The file (closed: an unknown key is an error, as every value outside its range):
//   {"block_size": 1048576,        bytes per client write (dd's bs), > 0
//    "buffer_bytes": 67108864,     server memory for blocks not yet on the SSD, > 0
//    "capacity": 0,                SSD bytes; 0: each disk's "size" property
//    "idle_seconds": 0.001,        tau: how long a server must be idle before it drains
//    "drain_chunk": 4194304,       bytes the mover reads and sends at a time, > 0
//    "high_watermark": 0.9,        fill fraction above which it drains even when busy, in (0, 1]
//    "seed": 0}                    the servers' choice among waiting clients (seeded)
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>
#include <simgrid/s4u/Host.hpp>

#include "common/transfer.hpp"
#include "services/staging_server.hpp"

namespace datasched {

class Fields;
class Machines;
class StorageEndpoints;

struct StagingLayerConfig {
  std::string file; ///< where it was read from (for messages)
  StagingParams params;
  double capacity    = 0; ///< 0: the disk's "size" property
  double block_size  = 1024.0 * 1024;
  std::uint64_t seed = 0;
};

/// The server sizes and drain rule as both the QoS experiment's `staging` object and the
/// --staging-layer file spell them (same keys, defaults and ranges up to `max_bytes`, each
/// reader's own bound on a byte count); `capacity` too.
StagingParams read_staging_params(Fields& fields, double& capacity, double max_bytes);

/// Validates the option's document. Throws InputError "<file>: <field>: <problem>".
StagingLayerConfig parse_staging_layer(const nlohmann::json& document, const std::string& file);
StagingLayerConfig load_staging_layer(const std::string& path);

/// The staging servers of a scheduling run and their statistics.
class StagingLayer {
public:
  /// `observer` sees every transfer (the run's traffic arbiter, as storage traffic).
  /// Throws InputError naming the option file and the platform when the platform has no
  /// staging host or a staging host has no single SSD or no capacity.
  StagingLayer(StagingLayerConfig config, const Machines& machines, const StorageEndpoints& endpoints,
               TransferObserver* observer, const std::string& platform_file);

  const StagingLayerConfig& config() const { return config_; }
  /// The server compute node `compute_id` writes to.
  StagingServer& server_of_node(int compute_id);
  /// The host compute node `compute_id` writes from.
  simgrid::s4u::Host* client_of_node(int compute_id) const;
  /// Starts every server's SSD writer and data mover (daemons: an idle server neither
  /// prolongs the run nor deadlocks it).
  void start_actors();
  /// <prefix>_staging.csv: one row per server (what it absorbed, staged, drained, and
  /// what was still on it when the run ended).
  void write_outputs(const std::string& prefix) const;
  /// The layer as the decision process sees it: {"servers": [{"id", "name", "nodes"}], and the
  /// file's block and drain parameters}, `nodes` the compute ids writing to the server as a
  /// Batsim interval set, so that an allocation policy can spread jobs' writes over servers.
  nlohmann::json describe() const;

private:
  /// Every transfer through transfer() with the observer.
  class Transfers final : public StagingTransfers {
  public:
    explicit Transfers(TransferObserver* observer) : observer_(observer) {}
    void absorb(simgrid::s4u::Host* client, simgrid::s4u::Host* server, double bytes, int sl) override;
    void drain(simgrid::s4u::Host* port, simgrid::s4u::Host* destination, double bytes) override;

  private:
    TransferObserver* observer_;
  };

  StagingLayerConfig config_;
  Transfers transfers_;
  std::vector<std::unique_ptr<StagingServer>> servers_;
  std::vector<int> server_ids_; ///< each server's resource id
  std::vector<std::size_t> server_of_node_;
  std::vector<simgrid::s4u::Host*> client_of_node_;
};

} // namespace datasched
