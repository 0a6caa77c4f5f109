#pragma once
// The experiment's host names resolved against the loaded platform, with every check
// that needs the platform (host exists, a storage service's host has a disk).
#include <string>
#include <vector>

#include <simgrid/forward.h>

#include "interference/experiment.hpp"

namespace datasched::interference {

struct Layout {
  std::vector<simgrid::s4u::Host*> hpl;
  std::vector<simgrid::s4u::Host*> ior;
  std::vector<simgrid::s4u::Host*> storage;       ///< one storage target per host
  std::vector<simgrid::s4u::Disk*> storage_disks; ///< each storage host's first <disk>
  std::vector<simgrid::s4u::Host*> metadata;
};

/// Throws InputError naming the experiment file, the field and the host.
Layout resolve_layout(const Experiment& experiment, const std::string& platform_file);

} // namespace datasched::interference
