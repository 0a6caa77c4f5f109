#include "common/json_file.hpp"

#include <fstream>
#include <sstream>
#include <utility>

#include "common/batsim_number.hpp"
#include "common/fatal.hpp"
#include "common/input_file.hpp"
#include "common/json_text.hpp"

namespace datasched {

namespace {
std::pair<size_t, size_t> line_and_column(const std::string& text, size_t byte)
{
  size_t line = 1, column = 1;
  for (size_t i = 0; i < text.size() && i + 1 < byte; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

nlohmann::json read_json(const std::string& path, bool batsim_numbers)
{
  refuse_special_file(path, "file");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError("cannot open file '" + path + "'");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  if (size_t at = find_excessive_nesting(text); at != std::string::npos)
    throw InputError("malformed JSON in '" + path + "' at line " + std::to_string(line_and_column(text, at + 1).first) +
                     ": arrays/objects nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  try {
    return batsim_numbers ? parse_json_as_batsim(text) : nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    auto [line, column] = line_and_column(text, e.byte);
    std::string what    = e.what();
    auto pos            = what.find("parse error");
    throw InputError("malformed JSON in '" + path + "' at line " + std::to_string(line) + ", column " +
                     std::to_string(column) + ": " + (pos == std::string::npos ? what : what.substr(pos)));
  } catch (const nlohmann::json::exception& e) {
    // E.g. out_of_range 406, "number overflow parsing '1e400'": no byte offset, so the
    // line is that of the first occurrence of the quoted token.
    std::string what = e.what();
    if (auto bracket = what.find("] "); bracket != std::string::npos)
      what = what.substr(bracket + 2);
    std::string at;
    if (auto open = what.find('\''), close = what.rfind('\''); open != std::string::npos && close > open + 1)
      if (auto byte = text.find(what.substr(open + 1, close - open - 1)); byte != std::string::npos)
        at = " at line " + std::to_string(line_and_column(text, byte + 1).first);
    throw InputError("invalid JSON in '" + path + "'" + at + ": " + what);
  }
}
} // namespace

nlohmann::json read_json_file(const std::string& path)
{
  return read_json(path, false);
}

nlohmann::json read_batsim_json_file(const std::string& path)
{
  return read_json(path, true);
}

nlohmann::json read_json_input(const std::string& path, const std::string& what)
{
  try {
    return read_json_file(path);
  } catch (const InputError& e) {
    throw InputError(what + ": " + e.what());
  }
}

} // namespace datasched
