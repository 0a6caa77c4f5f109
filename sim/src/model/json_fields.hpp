#pragma once
// Reading one JSON object of an experiment file field by field (used by the engine modes
// that take an experiment JSON: forwarding/, qos/, interference/): every key must be read exactly once
// (unknown keys are reported by finish()), every value is checked for its type and range,
// and every problem is an InputError "<file>: <field.path>: <problem>".
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fatal.hpp"

namespace datasched {

/// One JSON object being read: every key must be read exactly once (unknown keys are
/// reported by finish()), and every value is checked for its type and range.
class Fields {
public:
  Fields(const nlohmann::json& object, std::string where, const std::string& file)
      : object_(object), where_(std::move(where)), file_(file)
  {
    if (!object_.is_object())
      fail("", "expected an object, got " + std::string(object_.type_name()));
  }

  [[noreturn]] void fail(const std::string& key, const std::string& problem) const
  {
    std::string field = key.empty() ? where_ : (where_.empty() ? key : where_ + "." + key);
    throw InputError(file_ + ": " + (field.empty() ? std::string("document") : field) + ": " + problem);
  }

  bool has(const std::string& key) const { return object_.contains(key); }

  const nlohmann::json& raw(const std::string& key)
  {
    seen_.insert(key);
    return object_.at(key);
  }

  std::string path(const std::string& key) const { return where_.empty() ? key : where_ + "." + key; }

  double number(const std::string& key, double fallback, double min, bool min_exclusive)
  {
    if (!has(key))
      return fallback;
    const auto& v = raw(key);
    if (!v.is_number())
      fail(key, "expected a number, got " + v.dump());
    double x = v.get<double>();
    if (!std::isfinite(x) || x > 1e12)
      fail(key, "must be finite and at most 1e12, got " + v.dump());
    if (min_exclusive ? !(x > min) : !(x >= min))
      fail(key,
           std::string("must be ") + (min_exclusive ? "> " : ">= ") + nlohmann::json(min).dump() + ", got " + v.dump());
    return x;
  }

  long long integer(const std::string& key, long long fallback, long long min, bool required = false)
  {
    if (!has(key)) {
      if (required)
        fail(key, "missing (required)");
      return fallback;
    }
    const auto& v = raw(key);
    if (!v.is_number_integer())
      fail(key, "expected an integer, got " + v.dump());
    if (v.is_number_unsigned() && v.get<unsigned long long>() > static_cast<unsigned long long>(1LL << 53))
      fail(key, "too large, got " + v.dump());
    long long x = v.get<long long>();
    if (x < min)
      fail(key, "must be >= " + std::to_string(min) + ", got " + v.dump());
    if (x > (1LL << 53))
      fail(key, "too large, got " + v.dump());
    return x;
  }

  std::string choice(const std::string& key, const std::string& fallback, const std::vector<std::string>& allowed,
                     bool required = false)
  {
    if (!has(key)) {
      if (required)
        fail(key, "missing (required)");
      return fallback;
    }
    const auto& v = raw(key);
    std::string list;
    for (const auto& a : allowed)
      list += (list.empty() ? "" : ", ") + a;
    if (!v.is_string())
      fail(key, "expected one of " + list + ", got " + v.dump());
    auto s = v.get<std::string>();
    for (const auto& a : allowed)
      if (s == a)
        return s;
    fail(key, "expected one of " + list + ", got " + v.dump());
  }

  bool boolean(const std::string& key, bool fallback)
  {
    if (!has(key))
      return fallback;
    const auto& v = raw(key);
    if (!v.is_boolean())
      fail(key, "expected true or false, got " + v.dump());
    return v.get<bool>();
  }

  void finish() const
  {
    for (const auto& [key, value] : object_.items())
      if (!seen_.count(key))
        fail(key, "unknown key");
  }

private:
  const nlohmann::json& object_;
  std::string where_;
  const std::string& file_;
  std::set<std::string> seen_;
};

} // namespace datasched
