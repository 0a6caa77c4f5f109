#include "model/profile.hpp"

#include <climits>
#include <cmath>
#include <limits>

#include "common/fatal.hpp"

namespace datasched {

std::string profile_type_to_string(ProfileType type)
{
  switch (type) {
    case ProfileType::Delay:
      return "delay";
    case ProfileType::Parallel:
      return "parallel";
    case ProfileType::ParallelHomogeneous:
      return "parallel_homogeneous";
    case ProfileType::ParallelHomogeneousTotal:
      return "parallel_homogeneous_total";
    case ProfileType::Composed:
      return "composed";
    case ProfileType::ParallelHomogeneousPfs:
      return "parallel_homogeneous_pfs";
    case ProfileType::DataStaging:
      return "data_staging";
    case ProfileType::Phases:
      return "datasched_phases";
  }
  return "?";
}

namespace {

class FieldReader {
public:
  FieldReader(const nlohmann::json& object, std::string where) : object_(object), where_(std::move(where)) {}

  const nlohmann::json& required(const char* field) const
  {
    if (!object_.contains(field))
      throw InputError(where_ + ": missing field '" + field + "'");
    return object_.at(field);
  }

  /// A flops, bytes or seconds amount: checked_workload_number's range (0 to 1e23).
  double number(const char* field, const char* unit, bool required_field = true, double fallback = 0) const
  {
    if (!object_.contains(field)) {
      if (required_field)
        throw InputError(where_ + ": missing field '" + field + "'");
      return fallback;
    }
    return checked_workload_number(object_.at(field), where_, field, unit);
  }

  std::string string(const char* field, bool required_field = true, const std::string& fallback = "") const
  {
    if (!object_.contains(field)) {
      if (required_field)
        throw InputError(where_ + ": missing field '" + field + "'");
      return fallback;
    }
    const auto& v = object_.at(field);
    if (!v.is_string())
      throw InputError(where_ + ": field '" + field + "' must be a string");
    return v.get<std::string>();
  }

  std::vector<double> numbers(const char* field, const char* unit) const
  {
    const auto& v = required(field);
    if (!v.is_array())
      throw InputError(where_ + ": field '" + field + "' must be an array of numbers");
    std::vector<double> out;
    out.reserve(v.size());
    for (size_t i = 0; i < v.size(); ++i)
      out.push_back(checked_workload_number(v[i], where_, std::string(field) + "[" + std::to_string(i) + "]", unit));
    return out;
  }

  const std::string& where() const { return where_; }

private:
  const nlohmann::json& object_;
  std::string where_;
};

} // namespace

Profile Profile::from_json(const std::string& name, const nlohmann::json& object, const std::string& where)
{
  const std::string ctx = where + ": profile '" + name + "'";
  if (!object.is_object())
    throw InputError(ctx + ": must be a JSON object");
  FieldReader f(object, ctx);
  Profile p;
  p.name             = name;
  p.json_description = object.dump();
  if (object.contains("ret")) {
    const auto& ret = object.at("ret");
    // Above 2^63 nlohmann keeps an unsigned value, which get<long long> would wrap into range.
    if (!ret.is_number_integer() || (ret.is_number_unsigned() && ret.get<unsigned long long>() > INT_MAX) ||
        ret.get<long long>() < std::numeric_limits<int>::min() ||
        ret.get<long long>() > std::numeric_limits<int>::max())
      throw InputError(ctx + ": field 'ret' must be an integer (32 bits)");
    p.return_code = object.at("ret").get<int>(); // checked: in int's range above
  }
  const std::string type = f.string("type");
  if (type == "delay") {
    p.type  = ProfileType::Delay;
    p.delay = f.number("delay", "s");
    if (!(p.delay > 0)) // as Batsim 4.2.1 (profiles.cpp): a workload it refuses must not run here
      throw InputError(ctx + ": field 'delay' must be > 0 (Batsim 4.2.1 refuses a delay of 0)");
  } else if (type == "parallel") {
    p.type = ProfileType::Parallel;
    p.cpu  = f.numbers("cpu", "flops");
    p.com  = f.numbers("com", "bytes");
    if (p.cpu.empty())
      throw InputError(ctx + ": field 'cpu' must not be empty");
    if (p.com.size() != p.cpu.size() * p.cpu.size())
      throw InputError(ctx + ": field 'com' has " + std::to_string(p.com.size()) + " elements, expected " +
                       std::to_string(p.cpu.size() * p.cpu.size()) + " (cpu size squared)");
  } else if (type == "parallel_homogeneous" || type == "parallel_homogeneous_total") {
    p.type = type == "parallel_homogeneous" ? ProfileType::ParallelHomogeneous : ProfileType::ParallelHomogeneousTotal;
    p.cpu_amount = f.number("cpu", "flops");
    p.com_amount = f.number("com", "bytes");
  } else if (type == "composed") {
    p.type = ProfileType::Composed;
    if (object.contains("repeat")) {
      const auto& r = object.at("repeat");
      if (!r.is_number_integer() || r.get<long long>() < 1 || r.get<long long>() > std::numeric_limits<int>::max())
        throw InputError(ctx + ": field 'repeat' must be an integer from 1 to " +
                         std::to_string(std::numeric_limits<int>::max()) + ", got " + r.dump());
      p.repeat = r.get<int>(); // checked: 1 to INT_MAX above
    }
    const auto& seq = f.required("seq");
    if (!seq.is_array() || seq.empty())
      throw InputError(ctx + ": field 'seq' must be a non-empty array of profile names");
    for (const auto& item : seq) {
      if (!item.is_string())
        throw InputError(ctx + ": field 'seq' must contain only profile names (strings)");
      p.sequence.push_back(item.get<std::string>());
    }
  } else if (type == "parallel_homogeneous_pfs") {
    p.type           = ProfileType::ParallelHomogeneousPfs;
    p.bytes_to_read  = f.number("bytes_to_read", "bytes", false, 0);
    p.bytes_to_write = f.number("bytes_to_write", "bytes", false, 0);
    p.storage_label  = f.string("storage", false, "pfs");
  } else if (type == "data_staging") {
    p.type       = ProfileType::DataStaging;
    p.nb_bytes   = f.number("nb_bytes", "bytes");
    p.from_label = f.string("from");
    p.to_label   = f.string("to");
  } else if (type == "datasched_phases") {
    p.type   = ProfileType::Phases;
    p.phases = std::make_shared<const PhaseProfile>(PhaseProfile::from_json(object, ctx));
  } else if (type == "parallel_homogeneous_energy" || type.rfind("smpi", 0) == 0 || type.rfind("usage_trace", 0) == 0 ||
             type == "send" || type == "recv" || type == "scheduler_send" || type == "scheduler_recv" ||
             type == "trace_replay") {
    throw InputError(ctx + ": profile type '" + type + "' is not supported by datasched-sim");
  } else {
    throw InputError(ctx + ": unknown profile type '" + type + "'");
  }
  return p;
}

} // namespace datasched
