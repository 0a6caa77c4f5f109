#include "forwarding/layout.hpp"

#include <algorithm>

#include <simgrid/s4u/Disk.hpp>
#include <simgrid/s4u/Host.hpp>

#include "common/fatal.hpp"

namespace datasched::forwarding {

int forwarder_of(const ForwardingLayer& layer, int node, int client_nodes)
{
  switch (layer.mapping) {
    case ClientMapping::Block:
      return static_cast<int>(static_cast<long long>(node) * layer.forwarders / client_nodes);
    case ClientMapping::RoundRobin:
      return node % layer.forwarders;
    case ClientMapping::Explicit:
      return layer.explicit_mapping.at(static_cast<std::size_t>(node));
  }
  return 0;
}

namespace {
std::vector<simgrid::s4u::Host*> with_role(std::vector<simgrid::s4u::Host*> hosts, const std::string& role)
{
  std::vector<simgrid::s4u::Host*> out;
  for (auto* h : hosts) {
    const char* r = h->get_property("datasched_role");
    if (r && role == r)
      out.push_back(h);
  }
  std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->get_name() < b->get_name(); });
  return out;
}

std::vector<simgrid::s4u::Host*> take(const std::vector<simgrid::s4u::Host*>& hosts, int count, const std::string& role,
                                      const std::string& field, const Experiment& e, const std::string& platform)
{
  if (static_cast<int>(hosts.size()) < count)
    throw InputError(e.file + ": " + field + ": asks for " + std::to_string(count) + " hosts of role '" + role +
                     "', but platform '" + platform + "' has " + std::to_string(hosts.size()));
  return {hosts.begin(), hosts.begin() + count};
}
} // namespace

Layout resolve_layout(const Experiment& e, const std::vector<simgrid::s4u::Host*>& hosts, const std::string& platform)
{
  Layout layout;
  layout.clients = take(with_role(hosts, "compute_node"), e.client_nodes, "compute_node", "clients.nodes", e, platform);
  layout.servers = take(with_role(hosts, "io_server"), e.servers.count, "io_server", "servers.count", e, platform);
  for (auto* server : layout.servers) {
    auto disks = server->get_disks();
    if (disks.empty())
      throw InputError("platform '" + platform + "': data server '" + server->get_name() + "' has no <disk>");
    layout.disks.push_back(disks.front());
  }
  if (e.forwarded) {
    layout.forwarders =
        take(with_role(hosts, "forwarder"), e.forwarding.forwarders, "forwarder", "forwarding.forwarders", e, platform);
    ForwardingLayer layer = e.forwarding;
    for (std::size_t c = 0; c < layer.explicit_mapping_names.size(); ++c) {
      const auto& name = layer.explicit_mapping_names[c];
      auto it          = std::find_if(layout.forwarders.begin(), layout.forwarders.end(),
                                      [&](auto* h) { return h->get_name() == name; });
      if (it == layout.forwarders.end()) {
        std::string known;
        for (auto* h : layout.forwarders)
          known += (known.empty() ? "" : ", ") + h->get_name();
        throw InputError(e.file + ": forwarding.mapping: client node " + std::to_string(c) +
                         " is mapped to forwarder '" + name + "', which is not one of the experiment's forwarders (" +
                         known + ")");
      }
      layer.explicit_mapping[c] = static_cast<int>(it - layout.forwarders.begin());
    }
    for (int c = 0; c < e.client_nodes; ++c)
      layout.forwarder_of_client.push_back(forwarder_of(layer, c, e.client_nodes));
  }
  return layout;
}

} // namespace datasched::forwarding
