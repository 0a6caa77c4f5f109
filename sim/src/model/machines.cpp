#include "model/machines.hpp"

#include <algorithm>

#include <simgrid/s4u/NetZone.hpp>

#include "common/fatal.hpp"

namespace datasched {

std::string role_to_string(Role role)
{
  switch (role) {
    case Role::Master:
      return "master";
    case Role::ComputeNode:
      return "compute_node";
    case Role::Storage:
      return "storage";
  }
  return "?";
}

Role Machines::parse_role(const std::string& text, const std::string& where)
{
  if (text == "master")
    return Role::Master;
  if (text == "compute_node" || text.empty())
    return Role::ComputeNode;
  if (text == "storage")
    return Role::Storage;
  throw InputError(where + ": unknown role '" + text + "' (expected master, compute_node or storage)");
}

Machines Machines::from_platform(const std::vector<simgrid::s4u::Host*>& hosts, const std::string& master_name,
                                 const std::map<std::string, Role>& role_overrides)
{
  for (const auto& [name, role] : role_overrides) {
    (void)role;
    bool found = std::any_of(hosts.begin(), hosts.end(), [&](auto* h) { return h->get_name() == name; });
    if (!found)
      throw InputError("role override names host '" + name + "', which is not in the platform");
  }

  std::vector<Machine> compute, storage, masters;
  for (auto* host : hosts) {
    Machine m;
    m.name = host->get_name();
    m.host = host;
    if (const auto* props = host->get_properties()) {
      for (const auto& [k, v] : *props)
        m.properties[k] = v;
    }
    if (auto* zone = host->get_englobing_zone()) {
      if (const auto* zprops = zone->get_properties())
        for (const auto& [k, v] : *zprops)
          m.zone_properties[k] = v;
    }
    Role role = Role::ComputeNode;
    auto prop = m.properties.find("role");
    if (prop != m.properties.end())
      role = parse_role(prop->second, "host '" + m.name + "'");
    if (auto ov = role_overrides.find(m.name); ov != role_overrides.end())
      role = ov->second;
    if (m.name == master_name)
      role = Role::Master;
    m.role = role;
    switch (role) {
      case Role::Master:
        masters.push_back(std::move(m));
        break;
      case Role::ComputeNode:
        compute.push_back(std::move(m));
        break;
      case Role::Storage:
        storage.push_back(std::move(m));
        break;
    }
  }
  if (masters.empty())
    throw InputError("the platform has no master host (a host named '" + master_name +
                     "' or with property role=\"master\")");
  if (masters.size() > 1) {
    std::string names;
    for (const auto& m : masters)
      names += (names.empty() ? "" : ", ") + m.name;
    throw InputError("the platform has several master hosts (" + names + "); exactly one is required");
  }

  auto by_name = [](const Machine& a, const Machine& b) { return a.name < b.name; };
  std::sort(compute.begin(), compute.end(), by_name);
  std::sort(storage.begin(), storage.end(), by_name);

  Machines result;
  result.master_     = std::move(masters.front());
  result.nb_compute_ = static_cast<int>(compute.size());
  for (auto* group : {&compute, &storage})
    for (auto& m : *group) {
      m.id                          = static_cast<int>(result.resources_.size());
      result.index_by_name_[m.name] = m.id;
      result.resources_.push_back(std::move(m));
    }
  return result;
}

std::string power_state_to_string(PowerState state)
{
  switch (state) {
    case PowerState::On:
      return "on";
    case PowerState::SwitchingOff:
      return "switching_off";
    case PowerState::Sleeping:
      return "sleeping";
    case PowerState::SwitchingOn:
      return "switching_on";
  }
  return "?";
}

void Machines::load_power_states()
{
  // Hosts described alike share one PowerStates (a platform has few distinct ones).
  std::map<std::pair<std::string, int>, std::shared_ptr<const PowerStates>> known;
  for (Machine& m : resources_) {
    auto prop       = m.properties.find("sleep_pstates");
    std::string raw = prop == m.properties.end() ? std::string() : prop->second;
    const int count = static_cast<int>(m.host->get_pstate_count());
    auto& shared    = known[{raw, count}];
    if (!shared) {
      try {
        shared = std::make_shared<const PowerStates>(PowerStates::parse(raw, count));
      } catch (const InputError& e) {
        throw InputError("host '" + m.name + "': " + e.what());
      }
    }
    m.pstates = shared;
    if (!shared->is(static_cast<int>(m.host->get_pstate()), PStateKind::Computation))
      throw InputError("host '" + m.name + "': its initial pstate " + std::to_string(m.host->get_pstate()) +
                       " is not a computation pstate (see its sleep_pstates property)");
  }
}

const Machine* Machines::by_name(const std::string& name) const
{
  auto it = index_by_name_.find(name);
  return it == index_by_name_.end() ? nullptr : &resources_[it->second];
}

} // namespace datasched
