#pragma once
// Names of the engine's small enums: one table per enum, read in both directions
// (written in outputs and messages, parsed from profiles and decisions). A table's
// order is its enum's order.
#include <array>
#include <cstddef>
#include <string>

#include "common/fatal.hpp"

namespace datasched {

template <typename Enum, std::size_t N>
std::string enum_name(const std::array<const char*, N>& names, Enum value)
{
  return names.at(static_cast<std::size_t>(value));
}

/// The enum value named `text`; otherwise throws InputError("<unknown> '<text>'
/// (expected a, b or c)").
template <typename Enum, std::size_t N>
Enum enum_from_name(const std::array<const char*, N>& names, const std::string& text, const std::string& unknown)
{
  std::string expected;
  for (std::size_t i = 0; i < N; ++i) {
    if (text == names[i])
      return static_cast<Enum>(i);
    expected += std::string(i == 0 ? "" : i + 1 == N ? " or " : ", ") + names[i];
  }
  throw InputError(unknown + " '" + text + "' (expected " + expected + ")");
}

} // namespace datasched
