#pragma once
// Reading one JSON object of an experiment file field by field (used by the engine modes
// that take an experiment JSON: forwarding/, qos/, interference/): every key must be read exactly once
// (unknown keys are reported by finish()), every value is checked for its type and range,
// and every problem is an InputError "<file>: <field.path>: <problem>".
//
// This is the one checked numeric reader of those files: integers are read as 64 bits and
// checked against the field's stated range before they are narrowed (no static_cast of a
// user value: tests/unit/test_engine_casts.py greps for it), floats must be finite
// and in range, and the message names the file, the field's JSON path, the allowed range
// and the value: "<file>: clients.nodes: must be an integer >= 1 and <= 1000000 (client
// nodes), got 4294967296". The ranges themselves are in input_limits.hpp.
#include <climits>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/fatal.hpp"
#include "common/one_line.hpp"
#include "model/input_limits.hpp"

namespace datasched {

/// A bound as a person writes it: 0, 1, 0.5, 1e+12 (not 0.000000).
inline std::string format_bound(double x)
{
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", x);
  return buffer;
}

/// The integers a field accepts, both ends included, and what they count (for messages).
/// Its ends have the field's own type T: a maximum T cannot hold does not compile when
/// written in braces (narrowing), and T must fit in 64 signed bits.
template <typename T>
struct IntegerRange {
  static_assert(std::is_integral_v<T> && sizeof(T) <= sizeof(long long), "a 64-bit integer field");
  T min;
  T max;
  const char* unit = "";

  bool holds(const nlohmann::json& v) const
  {
    if (v.is_number_unsigned()) {
      const auto u = v.get<unsigned long long>();
      return u <= static_cast<unsigned long long>(LLONG_MAX) && static_cast<long long>(u) >= as_signed(min) &&
             static_cast<long long>(u) <= as_signed(max);
    }
    const auto x = v.get<long long>();
    return x >= as_signed(min) && x <= as_signed(max);
  }

  std::string describe() const
  {
    std::string s = "an integer >= " + std::to_string(min) + " and <= " + std::to_string(max);
    return *unit ? s + " (" + unit + ")" : s;
  }

private:
  static long long as_signed(T bound)
  {
    if constexpr (std::is_unsigned_v<T>)
      if (bound > static_cast<T>(LLONG_MAX))
        throw std::logic_error("IntegerRange bound above 2^63 - 1");
    return static_cast<long long>(bound);
  }
};

/// The numbers a field accepts: finite, above `min` (or at least `min`), at most `max`.
struct NumberRange {
  double min;
  bool min_exclusive;
  double max;
  const char* unit = "";

  bool holds(double x) const { return std::isfinite(x) && (min_exclusive ? x > min : x >= min) && x <= max; }

  std::string describe() const
  {
    std::string s =
        std::string("a number ") + (min_exclusive ? "> " : ">= ") + format_bound(min) + " and <= " + format_bound(max);
    return *unit ? s + " (" + unit + ")" : s;
  }
};

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

  /// A finite number in `range`. A missing key gives `fallback` (an error when `required`).
  double number(const std::string& key, double fallback, const NumberRange& range, bool required = false)
  {
    if (!has(key)) {
      if (required)
        fail(key, "missing (required)");
      return fallback;
    }
    const auto& v = raw(key);
    if (!v.is_number() || v.is_boolean())
      fail(key, "expected " + range.describe() + ", got " + v.dump());
    const double x = v.get<double>();
    if (!range.holds(x))
      fail(key, "must be " + range.describe() + ", got " + v.dump());
    return x;
  }

  /// An integer in `range`, read as 64 bits and checked before it is narrowed to T, so a
  /// value T cannot hold is an error, never a wrapped one.
  template <typename T>
  T integer(const std::string& key, T fallback, const IntegerRange<T>& range, bool required = false)
  {
    if (!has(key)) {
      if (required)
        fail(key, "missing (required)");
      return fallback;
    }
    const auto& v = raw(key);
    if (!v.is_number_integer())
      fail(key, "expected " + range.describe() + ", got " + v.dump());
    if (!range.holds(v))
      fail(key, "must be " + range.describe() + ", got " + v.dump());
    return static_cast<T>(v.get<long long>()); // checked: range.holds(v) above
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
        fail(one_line(key), "unknown key"); // the key as the user wrote it, escaped: one line
  }

private:
  const nlohmann::json& object_;
  std::string where_;
  const std::string& file_;
  std::set<std::string> seen_;
};

} // namespace datasched
