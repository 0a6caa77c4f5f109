#include "common/csv.hpp"

#include <charconv>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace datasched {

namespace {
std::string printed(const char* format, double value)
{
  char buffer[400]; // enough for any double in fixed notation
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}
} // namespace

void write_file_atomically(const std::string& path, const std::string& content)
{
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out)
      throw std::runtime_error("cannot write output file '" + tmp + "'");
    out << content;
    if (!out)
      throw std::runtime_error("error while writing output file '" + tmp + "'");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw std::runtime_error("cannot rename '" + tmp + "' to '" + path + "'");
}

void remove_output_files(const std::vector<std::string>& paths)
{
  for (const auto& path : paths) {
    std::remove(path.c_str());
    std::remove((path + ".tmp").c_str());
  }
}

void append_fixed6(std::string& out, double value)
{
  // std::to_chars with a precision is specified as printf's "%.6f" in the C locale,
  // without printf's format parsing and locale look-ups (hundreds of thousands of calls).
  char buffer[400]; // enough for any double in fixed notation
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, 6);
  out.append(buffer, result.ptr);
}

std::string fixed6(double value)
{
  std::string out;
  append_fixed6(out, value);
  return out;
}

std::string fixed9(double value)
{
  return printed("%.9f", value);
}

std::string general6(double value)
{
  return printed("%.6g", value);
}

std::string whole_number(double value)
{
  return printed("%.0f", value);
}

} // namespace datasched
