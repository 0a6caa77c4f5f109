#include "model/data_registry.hpp"

#include <algorithm>
#include <limits>

#include <nlohmann/json.hpp>

#include "common/fatal.hpp"
#include "common/number_text.hpp"
#include "model/enum_names.hpp"

namespace datasched {

namespace {
constexpr std::array<const char*, 3> kItemSourceNames{"local_nvm", "remote_nvm", "central"};

std::string bytes_text(double bytes)
{
  nlohmann::json j = bytes;
  return j.dump();
}
} // namespace

std::string item_source_to_string(ItemSource source)
{
  return enum_name(kItemSourceNames, source);
}

DataRegistry::DataRegistry(std::map<int, double> capacity, std::vector<int> io_servers)
    : capacity_(std::move(capacity)), io_servers_(std::move(io_servers))
{}

DataRegistry DataRegistry::from_machines(const Machines& machines, const StorageEndpoints& endpoints)
{
  std::map<int, double> capacity;
  for (const Machine& m : machines.all()) {
    if (!endpoints.is_nvm(m.id))
      continue;
    auto it = m.properties.find("capacity");
    if (it == m.properties.end())
      continue;
    const auto value = finite_number(it->second);
    if (!value || *value < 0)
      throw InputError("platform: NVM endpoint '" + m.name + "' has capacity='" + it->second +
                       "' (expected a number of bytes >= 0)");
    capacity[m.id] = *value;
  }
  return DataRegistry(std::move(capacity), endpoints.io_servers());
}

void DataRegistry::declare_on_central(const std::string& name, double bytes)
{
  if (items_.count(name))
    throw InputError("data item '" + name + "' is declared twice");
  DataItem& it     = item(name);
  it.size          = bytes;
  it.exists        = true;
  it.central_parts = central_stripes(bytes); // empty without I/O servers: a read says so
  if (it.central_parts.empty())
    it.central_parts.push_back(ItemPart{-1, bytes});
}

const DataItem* DataRegistry::find(const std::string& name) const
{
  auto it = items_.find(name);
  return it == items_.end() ? nullptr : &it->second;
}

DataItem& DataRegistry::item(const std::string& name)
{
  DataItem& it = items_[name];
  it.name      = name;
  return it;
}

void DataRegistry::pin(const std::string& name)
{
  item(name).pins++;
}

void DataRegistry::unpin(const std::string& name)
{
  auto it = items_.find(name);
  if (it != items_.end() && it->second.pins > 0)
    it->second.pins--;
}

std::vector<ItemPart> DataRegistry::central_stripes(double bytes) const
{
  std::vector<ItemPart> out;
  for (int server : io_servers_)
    out.push_back(ItemPart{server, bytes / static_cast<double>(io_servers_.size())});
  return out;
}

std::vector<ItemFlow> DataRegistry::plan_read(const std::string& name, double bytes, const std::vector<int>& readers,
                                              const StorageEndpoints& endpoints, double now)
{
  auto found = items_.find(name);
  if (found == items_.end() || !found->second.exists)
    throw InputError("reads data item '" + name +
                     "' before any job wrote it (and the workload's datasched_data does not declare it "
                     "pre-existing with producer null)");
  DataItem& it = found->second;
  if (bytes > it.size * (1 + 1e-9))
    throw InputError("reads " + bytes_text(bytes) + " bytes of data item '" + name + "', which holds " +
                     bytes_text(it.size));
  it.last_use = now;
  std::vector<ItemFlow> flows;
  if (bytes <= 0 || it.size <= 0 || readers.empty())
    return flows;
  const double fraction = bytes / it.size;
  const double n        = static_cast<double>(readers.size());
  if (it.on_nvm()) {
    for (const ItemPart& part : it.nvm_parts) {
      const int owner = endpoints.owner_of(part.location);
      const double b  = part.bytes * fraction;
      if (std::find(readers.begin(), readers.end(), owner) != readers.end()) {
        flows.push_back(ItemFlow{part.location, owner, b, ItemSource::LocalNvm});
        continue;
      }
      for (int reader : readers)
        flows.push_back(ItemFlow{part.location, reader, b / n, ItemSource::RemoteNvm});
    }
    return flows;
  }
  for (const ItemPart& part : it.central_parts) {
    if (part.location < 0)
      throw InputError("reads data item '" + name +
                       "', which lives on central storage, but the platform has no I/O server "
                       "(datasched_role=io_server)");
    for (int reader : readers)
      flows.push_back(ItemFlow{part.location, reader, part.bytes * fraction / n, ItemSource::Central});
  }
  return flows;
}

void DataRegistry::remove_nvm_parts(DataItem& it)
{
  for (const ItemPart& part : it.nvm_parts)
    add_usage(part.location, -part.bytes);
  it.nvm_parts.clear();
}

void DataRegistry::begin_write(const std::string& name)
{
  DataItem& it = item(name);
  remove_nvm_parts(it);
  it.central_parts.clear();
  it.exists = false;
  it.size   = 0;
}

double DataRegistry::capacity_of(int nvm) const
{
  auto it = capacity_.find(nvm);
  return it == capacity_.end() ? std::numeric_limits<double>::infinity() : it->second;
}

double DataRegistry::used_on(int nvm) const
{
  auto it = used_.find(nvm);
  return it == used_.end() ? 0 : it->second;
}

std::vector<Eviction> DataRegistry::reserve(int nvm, double bytes, const std::string& item_name,
                                            const std::string& nvm_name)
{
  const double capacity = capacity_of(nvm);
  const double slack    = 1e-9 * std::max(1.0, capacity);
  std::vector<Eviction> evicted;
  if (used_on(nvm) + bytes > capacity + slack) {
    // Candidates: items with a part here that no running job or mover uses, LRU first.
    std::vector<DataItem*> candidates;
    double freeable = 0;
    for (auto& [name, it] : items_) {
      if (it.pins > 0 || name == item_name)
        continue;
      for (const ItemPart& part : it.nvm_parts)
        if (part.location == nvm) {
          candidates.push_back(&it);
          freeable += part.bytes;
          break;
        }
    }
    if (used_on(nvm) - freeable + bytes > capacity + slack)
      throw InputError("data item '" + item_name + "' needs " + bytes_text(bytes) + " bytes on '" + nvm_name +
                       "' (capacity " + bytes_text(capacity) + "), which has only " +
                       bytes_text(std::max(0.0, capacity - used_on(nvm) + freeable)) +
                       " bytes even after evicting every item no running job uses: it fits nowhere");
    std::stable_sort(candidates.begin(), candidates.end(), [](const DataItem* a, const DataItem* b) {
      return a->last_use < b->last_use; // map order breaks ties: by name
    });
    for (DataItem* victim : candidates) {
      if (used_on(nvm) + bytes <= capacity + slack)
        break;
      Eviction e{victim->name, 0, {}, {}};
      for (const ItemPart& part : victim->nvm_parts) {
        e.bytes += part.bytes;
        e.locations.push_back(part.location);
      }
      if (victim->dirty()) {
        if (io_servers_.empty())
          throw InputError("data item '" + item_name + "' needs room on '" + nvm_name + "', but evicting '" +
                           victim->name +
                           "' (its only copy) needs central storage to write it back and the platform has no I/O "
                           "server");
        e.writeback           = victim->nvm_parts;
        victim->central_parts = central_stripes(victim->size);
      }
      remove_nvm_parts(*victim);
      evicted.push_back(std::move(e));
    }
  }
  add_usage(nvm, bytes);
  return evicted;
}

void DataRegistry::release(int nvm, double bytes)
{
  add_usage(nvm, -bytes);
}

void DataRegistry::add_usage(int nvm, double delta)
{
  used_[nvm] += delta;
  if (usage_listener_)
    usage_listener_(nvm, used_[nvm]);
}

void DataRegistry::commit_nvm(const std::string& name, const std::vector<ItemPart>& parts, double now)
{
  DataItem& it = item(name);
  it.nvm_parts = parts; // reserved by reserve(): already counted in used_
  it.central_parts.clear();
  it.size = 0;
  for (const ItemPart& p : parts)
    it.size += p.bytes;
  it.exists   = true;
  it.last_use = now;
}

void DataRegistry::commit_central(const std::string& name, double bytes, double now)
{
  DataItem& it = item(name);
  remove_nvm_parts(it);
  it.central_parts = central_stripes(bytes);
  if (it.central_parts.empty())
    it.central_parts.push_back(ItemPart{-1, bytes});
  it.size     = bytes;
  it.exists   = true;
  it.last_use = now;
}

void DataRegistry::add_central_copy(const std::string& name, double now)
{
  DataItem& it = item(name);
  if (!it.on_central())
    it.central_parts = central_stripes(it.size);
  it.last_use = now;
}

void DataRegistry::set_nvm_copy(const std::string& name, const std::vector<ItemPart>& parts, double now)
{
  DataItem& it = item(name);
  remove_nvm_parts(it);
  it.nvm_parts = parts; // reserved before
  it.last_use  = now;
}

void DataRegistry::drop_nvm_copy(const std::string& name)
{
  remove_nvm_parts(item(name));
}

} // namespace datasched
