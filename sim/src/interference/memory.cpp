#include "interference/memory.hpp"

#include <cmath>

#include <simgrid/s4u/Disk.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Io.hpp>

namespace datasched::interference {

namespace sg4 = simgrid::s4u;

NodeMemories::NodeMemories(const Experiment& e, const Layout& layout)
{
  if (!e.memory.enabled)
    return;
  for (const auto* hosts : {&layout.hpl, &layout.storage})
    for (auto* host : *hosts)
      if (disks_.count(host) == 0) {
        // Reads and writes alike: every transfer is declared a write, so all of them share
        // one bound BW_m (the disk's read-write constraint is max(read, write) = BW_m).
        auto* disk = host->create_disk("datasched-memory", e.memory.bandwidth, e.memory.bandwidth);
        disk->seal();
        disks_[host] = disk;
      }
}

sg4::Disk* NodeMemories::of(const sg4::Host* host) const
{
  auto it = disks_.find(host);
  return it == disks_.end() ? nullptr : it->second;
}

} // namespace datasched::interference
