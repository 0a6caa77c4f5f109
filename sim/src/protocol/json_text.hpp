#pragma once
// Appends JSON scalars to a string exactly as nlohmann::json::dump() writes them, so
// that hot messages can be serialised without building a DOM first and still be
// byte-identical to what dump() produced (tests/test_protocol.cpp checks both ways).
#include <string>

namespace datasched {

/// A JSON string literal (quotes, escapes; invalid UTF-8 throws as dump() does).
void append_json_string(std::string& out, const std::string& text);
/// A JSON number from a double: shortest round-trip digits, "1.0" for integral values.
void append_json_number(std::string& out, double value);
/// A JSON number from an integer.
void append_json_number(std::string& out, long long value);

} // namespace datasched
