#pragma once
// The "memory" node model (README.md, "Memory bandwidth"): each node that runs HPL or a
// storage service gets a resource of the experiment's memory bandwidth BW_m, a SimGrid
// disk named "datasched-memory" (SimGrid's S19 disk model shares a disk's bandwidth max-min
// fairly between the I/O activities on it, under both simgrid_model values, so no solver of
// ours is involved). The HPL ranks' memory traffic and the services' copies of the bytes
// they write are I/O activities on it: SimGrid divides BW_m between them.
#include <map>

#include <simgrid/forward.h>

#include "interference/experiment.hpp"
#include "interference/layout.hpp"
#include "services/memory_traffic.hpp"

namespace datasched::interference {

class NodeMemories {
public:
  NodeMemories() = default;

  /// Creates the memory resource of every HPL and storage host of `layout` (none when the
  /// experiment has no "memory" section). Call after the platform is loaded, before the run.
  NodeMemories(const Experiment& experiment, const Layout& layout);

  /// The memory resource of `host`; nullptr without one.
  simgrid::s4u::Disk* of(const simgrid::s4u::Host* host) const;

private:
  std::map<const simgrid::s4u::Host*, simgrid::s4u::Disk*> disks_;
};

} // namespace datasched::interference
