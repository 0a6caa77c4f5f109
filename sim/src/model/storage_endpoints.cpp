#include "model/storage_endpoints.hpp"

#include "common/fatal.hpp"

namespace datasched {

namespace {
std::string property(const Machine& m, const char* key)
{
  auto it = m.properties.find(key);
  return it == m.properties.end() ? std::string() : it->second;
}
} // namespace

StorageEndpoints::StorageEndpoints(int nb_resources)
    : dram_(nb_resources, -1), nvm_(nb_resources, -1), owner_(nb_resources, -1), is_nvm_(nb_resources, false),
      is_io_server_(nb_resources, false)
{}

void StorageEndpoints::add(int id, Kind kind, int owner)
{
  if (kind == Kind::IoServer) {
    is_io_server_.at(id) = true;
    io_servers_.push_back(id);
    return;
  }
  std::vector<int>& slot = kind == Kind::Dram ? dram_ : nvm_;
  if (slot.at(owner) != -1)
    throw InputError(std::string("two ") + (kind == Kind::Dram ? "dram" : "nvm") + " endpoints (resources " +
                     std::to_string(slot[owner]) + " and " + std::to_string(id) + ")");
  slot[owner]   = id;
  owner_.at(id) = owner;
  if (kind == Kind::Nvm) {
    is_nvm_[id] = true;
    nb_nvm_++;
  } else {
    nb_dram_++;
  }
}

StorageEndpoints StorageEndpoints::from_machines(const Machines& machines)
{
  StorageEndpoints s(machines.size());
  for (const Machine& m : machines.all()) { // resource-id order: io_servers() comes out sorted
    const std::string role = property(m, "datasched_role");
    if (role == "io_server") {
      s.add(m.id, Kind::IoServer, -1);
      continue;
    }
    if (role != "dram" && role != "nvm")
      continue;
    const std::string owner_name = property(m, "node");
    const Machine* owner         = machines.by_name(owner_name);
    if (!owner || owner->role != Role::ComputeNode)
      throw InputError("platform: " + role + " endpoint '" + m.name + "' has property node='" + owner_name +
                       "', which is not a compute node");
    try {
      s.add(m.id, role == "dram" ? Kind::Dram : Kind::Nvm, owner->id);
    } catch (const InputError& e) {
      throw InputError("platform: compute node '" + owner->name + "' has " + e.what());
    }
  }
  return s;
}

} // namespace datasched
