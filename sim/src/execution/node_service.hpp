#pragma once
// A service running on the compute nodes whose cost joins the activities that use it: every
// activity touching a served resource carries the service's work on the serving node, inside
// its SimGrid ptask, so the node's CPU is shared with the jobs placed there
// (--storage-daemons: services/node_daemons.hpp). The job runner, the data movers and the page
// cache's flushes reach it through served_by(), the one place an activity gains the work.
#include <memory>
#include <string>
#include <vector>

#include "common/pair_bytes.hpp"
#include "execution/run_service.hpp"

namespace datasched {

struct ActivitySpec;
class Machines;
class StorageEndpoints;

class NodeService : public RunService {
public:
  /// Whether any of `hosts` (resource ids) is a served resource (else add_work adds
  /// nothing): one pass over the hosts, so that activities are not copied to be looked at.
  virtual bool serves_any(const std::vector<int>& hosts) const = 0;
  /// Adds the service's work to one ptask over resource ids (`flops` per host, `bytes`
  /// between indices of `hosts`); a serving node absent from `hosts` joins them. Returns
  /// the flops added.
  virtual double add_work(std::vector<int>& hosts, std::vector<double>& flops, const PairBytes& bytes) const = 0;
};

/// --storage-daemons: every node with an NVM serves it (services/node_daemons.hpp), set up from
/// the option's file on the loaded platform. Throws InputError naming the file and the platform
/// when the platform has no node NVM, and naming the file and idle_period when idle bursts would
/// exceed model/run_cost.hpp's event budget in each simulated second (unless `allow_long_run`).
std::unique_ptr<NodeService> make_node_daemons(const std::string& file, const Machines& machines,
                                               const StorageEndpoints& endpoints, const std::string& platform_file,
                                               bool allow_long_run);

/// `spec` with `service`'s work, built in `copy`; `spec` itself, not copied, when `service` is
/// null or serves none of its hosts.
const ActivitySpec& served_by(const NodeService* service, const ActivitySpec& spec, ActivitySpec& copy);

} // namespace datasched
