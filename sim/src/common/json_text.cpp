#include "common/json_text.hpp"

#include <array>
#include <charconv>
#include <cmath>

#include <nlohmann/json.hpp>

namespace datasched {

void append_json_string(std::string& out, const std::string& text)
{
  // Fast path: printable ASCII without quote or backslash needs no escaping.
  for (unsigned char c : text)
    if (c < 0x20 || c > 0x7E || c == '"' || c == '\\') {
      out += nlohmann::json(text).dump();
      return;
    }
  out += '"';
  out += text;
  out += '"';
}

void append_json_number(std::string& out, double value)
{
  if (!std::isfinite(value)) { // dump() writes null for NaN and infinities
    out += "null";
    return;
  }
  // nlohmann's own shortest-representation formatter, the one dump() uses.
  std::array<char, 64> buffer;
  char* end = nlohmann::detail::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  out.append(buffer.data(), end);
}

void append_json_number(std::string& out, long long value)
{
  std::array<char, 24> buffer;
  auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  out.append(buffer.data(), result.ptr);
}

size_t find_excessive_nesting(const std::string& text, size_t max_depth)
{
  size_t depth   = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth)
        return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::string::npos;
}

} // namespace datasched
