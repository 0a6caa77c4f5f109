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

/// Deepest nesting of arrays/objects a JSON input may have. nlohmann parses any depth,
/// but dump() and the engine's readers recurse: 100,000 nested brackets overflowed the
/// stack (a segmentation fault) before this limit. 1000 levels fit the 8 MiB stacks of
/// the main thread and of the actors that serialise JSON (test_actor_stacks.py: 900).
inline constexpr size_t kMaxJsonDepth = 1000;

/// Byte offset where `text` first nests deeper than `max_depth` (outside strings), or
/// std::string::npos. Linear, no allocation.
size_t find_excessive_nesting(const std::string& text, size_t max_depth = kMaxJsonDepth);

} // namespace datasched
