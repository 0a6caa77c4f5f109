#include "interference/layout.hpp"

#include <simgrid/s4u/Disk.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>

#include "common/fatal.hpp"

namespace datasched::interference {

namespace {
std::vector<simgrid::s4u::Host*> resolve(const std::vector<std::string>& names, const std::string& field,
                                         const Experiment& e, const std::string& platform)
{
  std::vector<simgrid::s4u::Host*> hosts;
  for (const auto& name : names) {
    auto* host = simgrid::s4u::Host::by_name_or_null(name);
    if (host == nullptr)
      throw InputError(e.file + ": " + field + ": host '" + name + "' is not in platform '" + platform + "'");
    hosts.push_back(host);
  }
  return hosts;
}
} // namespace

Layout resolve_layout(const Experiment& e, const std::string& platform)
{
  Layout layout;
  layout.hpl      = resolve(e.hpl.hosts, "hpl.hosts", e, platform);
  layout.ior      = resolve(e.ior.hosts, "ior.hosts", e, platform);
  layout.storage  = resolve(e.services.storage, "services.storage", e, platform);
  layout.metadata = resolve(e.services.metadata, "services.metadata", e, platform);
  for (auto* host : layout.storage) {
    auto disks = host->get_disks();
    if (disks.empty())
      throw InputError(e.file + ": services.storage: host '" + host->get_name() + "' has no <disk> in platform '" +
                       platform + "' (a storage target needs one)");
    layout.storage_disks.push_back(disks.front());
  }
  return layout;
}

} // namespace datasched::interference
