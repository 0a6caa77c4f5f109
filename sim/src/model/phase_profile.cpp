#include "model/phase_profile.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "common/fatal.hpp"
#include "model/batsim_numbers.hpp"
#include "model/enum_names.hpp"

namespace datasched {

namespace {
constexpr std::array<const char*, 4> kPhaseKindNames{"compute", "communicate", "read", "write"};
constexpr std::array<const char*, 4> kAllocationNames{"internal", "external", "cache", "san"};
constexpr std::array<const char*, 3> kAccessNames{"disperse", "affinity", "local"};
constexpr std::array<const char*, 2> kItemHomeNames{"nvm", "central"};
constexpr std::array<const char*, 2> kIoDistributionNames{"none", "per_task"};
} // namespace

std::string item_home_to_string(ItemHome home)
{
  return enum_name(kItemHomeNames, home);
}

ItemHome item_home_from_string(const std::string& text, const std::string& where)
{
  return enum_from_name<ItemHome>(kItemHomeNames, text, where + ": unknown item destination");
}

std::string phase_kind_to_string(PhaseKind kind)
{
  return enum_name(kPhaseKindNames, kind);
}

std::string storage_allocation_to_string(StorageAllocation allocation)
{
  return enum_name(kAllocationNames, allocation);
}

std::string access_type_to_string(AccessType access)
{
  return enum_name(kAccessNames, access);
}

StorageAllocation storage_allocation_from_string(const std::string& text, const std::string& where)
{
  return enum_from_name<StorageAllocation>(kAllocationNames, text, where + ": unknown storage allocation");
}

AccessType access_type_from_string(const std::string& text, const std::string& where)
{
  return enum_from_name<AccessType>(kAccessNames, text, where + ": unknown access type");
}

std::string io_distribution_to_string(IoDistribution distribution)
{
  return enum_name(kIoDistributionNames, distribution);
}

IoDistribution io_distribution_from_string(const std::string& text, const std::string& where)
{
  return enum_from_name<IoDistribution>(kIoDistributionNames, text, where + ": unknown io_distribution");
}

namespace {

/// Reads the fields of one JSON object, refusing unknown keys (the schema is closed:
/// a misspelt optional field must not be silently ignored).
class StrictObject {
public:
  StrictObject(const nlohmann::json& object, std::string where, std::set<std::string> allowed)
      : object_(object), where_(std::move(where))
  {
    if (!object_.is_object())
      throw InputError(where_ + ": must be a JSON object");
    for (const auto& [key, value] : object_.items()) {
      (void)value;
      if (!allowed.count(key))
        throw InputError(where_ + ": unknown field '" + key + "'");
    }
  }

  const nlohmann::json& required(const std::string& field) const
  {
    if (!object_.contains(field))
      throw InputError(where_ + ": missing field '" + field + "'");
    return object_.at(field);
  }

  bool has(const std::string& field) const { return object_.contains(field); }

  double number(const std::string& field, double low, double high) const
  {
    const auto& v = required(field);
    if (!v.is_number())
      throw InputError(where_ + ": field '" + field + "' must be a number");
    const double d = v.get<double>();
    if (!std::isfinite(d) || d < low || d > high)
      throw InputError(where_ + ": field '" + field + "' = " + v.dump() + " is out of range [" + format(low) + ", " +
                       format(high) + "]");
    return d;
  }

  /// A flops, bytes or seconds amount: checked_workload_number's range (0 to 1e23).
  double amount(const std::string& field, const char* unit) const
  {
    return checked_workload_number(required(field), where_, field, unit);
  }

  double optional_amount(const std::string& field, const char* unit, double fallback) const
  {
    return has(field) ? amount(field, unit) : fallback;
  }

  int integer(const std::string& field, int low) const
  {
    const auto& v = required(field);
    if (!v.is_number_integer() || v.get<long long>() < low || v.get<long long>() > 1000000000LL)
      throw InputError(where_ + ": field '" + field + "' must be an integer >= " + std::to_string(low) + ", got " +
                       v.dump());
    return v.get<int>(); // checked: low to 10^9 above
  }

  std::string string(const std::string& field) const
  {
    const auto& v = required(field);
    if (!v.is_string())
      throw InputError(where_ + ": field '" + field + "' must be a string");
    return v.get<std::string>();
  }

  const std::string& where() const { return where_; }

  static std::string format(double d)
  {
    if (std::isinf(d))
      return "inf";
    nlohmann::json j = d;
    return j.dump();
  }

private:
  const nlohmann::json& object_;
  std::string where_;
};

StorageDescriptor parse_storage(const nlohmann::json& object, const std::string& where)
{
  StrictObject f(
      object, where,
      {"allocation", "stg_k", "mem_hit_pct", "remote_pct", "access", "san_k", "stage_in_bytes", "stage_out_bytes"});
  StorageDescriptor s;
  s.allocation      = storage_allocation_from_string(f.string("allocation"), where);
  s.stg_k           = f.integer("stg_k", 1);
  s.mem_hit_pct     = f.number("mem_hit_pct", 0, 100);
  s.remote_pct      = f.number("remote_pct", 0, 100);
  s.access          = access_type_from_string(f.string("access"), where);
  s.san_k           = f.integer("san_k", 1);
  s.stage_in_bytes  = f.optional_amount("stage_in_bytes", "bytes", 0);
  s.stage_out_bytes = f.optional_amount("stage_out_bytes", "bytes", 0);
  return s;
}

/// A phase's `items`: [{"name", "bytes", "to"?}]. Their bytes are part of the phase's
/// (amount x I/O tasks), so they may not exceed it.
std::vector<ItemUse> parse_items(const nlohmann::json& items, const std::string& where, const Phase& phase, int res,
                                 int io_tasks)
{
  if (!items.is_array())
    throw InputError(where + ": field 'items' must be an array of {\"name\", \"bytes\"} objects");
  const bool write = phase.kind == PhaseKind::Write;
  std::vector<ItemUse> out;
  std::set<std::string> names;
  double total = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string at = where + ": items[" + std::to_string(i) + "]";
    std::set<std::string> allowed{"name", "bytes"};
    if (write)
      allowed.insert("to");
    StrictObject f(items[i], at, allowed);
    ItemUse use;
    use.name = f.string("name");
    if (use.name.empty() || use.name.find_first_of(",\"\n\r") != std::string::npos)
      throw InputError(at + ": item name '" + use.name + "' must be non-empty, without commas, quotes or newlines");
    if (!names.insert(use.name).second)
      throw InputError(at + ": item '" + use.name + "' is listed twice in the phase");
    use.bytes = f.amount("bytes", "bytes");
    if (f.has("to"))
      use.home = item_home_from_string(f.string("to"), at);
    total += use.bytes;
    out.push_back(std::move(use));
  }
  const int active   = phase.nodes > 0 ? phase.nodes : res;
  const double limit = phase.amount * std::min(active, io_tasks);
  if (total > limit * (1 + 1e-9))
    throw InputError(where + ": its items hold " + StrictObject::format(total) +
                     " bytes, more than the phase moves (bytes x I/O tasks = " + StrictObject::format(limit) + ")");
  return out;
}

Phase parse_phase(const nlohmann::json& object, const std::string& where, int res, int io_tasks)
{
  if (!object.is_object() || !object.contains("kind") || !object.at("kind").is_string())
    throw InputError(where + ": must be an object with a string field 'kind'");
  Phase p;
  p.kind =
      enum_from_name<PhaseKind>(kPhaseKindNames, object.at("kind").get<std::string>(), where + ": unknown phase kind");
  std::set<std::string> allowed{"kind", "nominal_seconds", "nodes"};
  std::string amount_field = "bytes";
  if (p.kind == PhaseKind::Compute)
    amount_field = "flops";
  else if (p.kind == PhaseKind::Communicate)
    allowed.insert("pattern");
  else {
    allowed.insert("data");
    allowed.insert("items");
  }
  allowed.insert(amount_field);
  StrictObject f(object, where, allowed);
  p.amount = f.amount(amount_field, p.kind == PhaseKind::Compute ? "flops" : "bytes");
  if (f.has("nominal_seconds"))
    f.amount("nominal_seconds", "s");
  if (p.kind == PhaseKind::Communicate && f.string("pattern") != "all_to_all")
    throw InputError(where + ": unknown communication pattern '" + f.string("pattern") + "' (expected all_to_all)");
  if (f.has("nodes")) {
    p.nodes = f.integer("nodes", 1);
    if (p.nodes > res)
      throw InputError(where + ": field 'nodes' = " + std::to_string(p.nodes) + " exceeds the profile's res (" +
                       std::to_string(res) + ")");
  }
  if (f.has("data")) {
    const auto& data = f.required("data");
    if (!data.is_array())
      throw InputError(where + ": field 'data' must be an array of data-product names");
    for (const auto& item : data)
      if (!item.is_string())
        throw InputError(where + ": field 'data' must contain only strings");
  }
  if (f.has("items"))
    p.items = parse_items(f.required("items"), where, p, res, io_tasks);
  return p;
}

} // namespace

PhaseProfile PhaseProfile::from_json(const nlohmann::json& object, const std::string& ctx)
{
  StrictObject f(object, ctx, {"type", "version", "res", "io_tasks", "io_distribution", "storage", "phases", "ret"});
  const auto& version = f.required("version");
  if (!version.is_number_integer() || version.get<long long>() != 1)
    throw InputError(ctx + ": field 'version' = " + version.dump() +
                     " is not supported (this engine reads datasched_phases version 1)");
  PhaseProfile p;
  p.res      = f.integer("res", 1);
  p.io_tasks = f.integer("io_tasks", 1);
  if (p.io_tasks > p.res)
    throw InputError(ctx + ": io_tasks (" + std::to_string(p.io_tasks) + ") exceeds res (" + std::to_string(p.res) +
                     ")");
  if (f.has("io_distribution"))
    p.io_distribution = io_distribution_from_string(f.string("io_distribution"), ctx);
  p.storage          = parse_storage(f.required("storage"), ctx + ": storage");
  const auto& phases = f.required("phases");
  if (!phases.is_array())
    throw InputError(ctx + ": field 'phases' must be an array");
  for (size_t i = 0; i < phases.size(); ++i)
    p.phases.push_back(parse_phase(phases[i], ctx + ": phase " + std::to_string(i), p.res, p.io_tasks));
  return p;
}

std::vector<std::string> PhaseProfile::item_names() const
{
  std::set<std::string> names;
  for (const Phase& phase : phases)
    for (const ItemUse& use : phase.items)
      names.insert(use.name);
  return {names.begin(), names.end()};
}

} // namespace datasched
