#pragma once
// Error messages on one line, whatever they quote (fatal.cpp prints every error through
// it; model/json_fields.hpp quotes unknown keys through it before a message is built, so
// a key holding a NUL does not cut the message short in std::runtime_error::what()).
#include <cstdio>
#include <string>

namespace datasched {

/// `text` on one line: control characters (other than tab) and the Unicode line
/// separators U+0085, U+2028 and U+2029 written as escapes (\n, \x1e, \u2028). Error
/// messages quote what the user wrote (a JSON key may hold "\n" or "\u001e"), and the
/// printed error must stay one line whatever it quotes (as Python's UserError,
/// datasched/errors.py). Found by the experiment readers' property test.
inline std::string one_line(const std::string& text)
{
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte == '\n') {
      out += "\\n";
    } else if (byte == '\r') {
      out += "\\r";
    } else if ((byte < 0x20 && byte != '\t') || byte == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      out += escaped;
    } else if (byte == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x85) {
      out += "\\u0085";
      ++i;
    } else if (byte == 0xe2 && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x80 &&
               (static_cast<unsigned char>(text[i + 2]) == 0xa8 || static_cast<unsigned char>(text[i + 2]) == 0xa9)) {
      out += static_cast<unsigned char>(text[i + 2]) == 0xa8 ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

} // namespace datasched
