#pragma once
// Which platform hosts play which part of an I/O forwarding experiment. Hosts are taken
// by their `datasched_role` property (platforms/setups.py: build_forwarding writes
// compute_node, forwarder and io_server) in host-name order: the first `nodes` compute
// nodes are the clients, the first `forwarders` forwarders, the first `count` io_servers
// (each must carry a disk). Client node c goes to forwarder
//   block:       c * F / C        (contiguous groups, as the paper's 8 clients per node)
//   round_robin: c mod F
//   explicit:    the list's entry c
#include <string>
#include <vector>

#include "forwarding/experiment.hpp"

namespace simgrid::s4u {
class Host;
class Disk;
} // namespace simgrid::s4u

namespace datasched::forwarding {

struct Layout {
  std::vector<simgrid::s4u::Host*> clients;
  std::vector<simgrid::s4u::Host*> forwarders;
  std::vector<simgrid::s4u::Host*> servers;
  std::vector<simgrid::s4u::Disk*> disks; ///< one per server (its first disk)
  std::vector<int> forwarder_of_client;   ///< per client node; empty in direct mode
};

/// Forwarder index of client node `node` (pure; unit-tested).
int forwarder_of(const ForwardingLayer& layer, int node, int client_nodes);

/// Resolves the experiment on the loaded platform. Throws InputError naming the
/// platform file when it lacks hosts of a role or a server lacks a disk.
Layout resolve_layout(const Experiment& experiment, const std::vector<simgrid::s4u::Host*>& hosts,
                      const std::string& platform_file);

} // namespace datasched::forwarding
