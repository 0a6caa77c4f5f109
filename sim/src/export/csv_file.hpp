#pragma once
// Writes a whole output file atomically: into "<path>.tmp", then renamed, so a crash
// can never leave a half-written file under the final name.
#include <string>

namespace datasched {

void write_file_atomically(const std::string& path, const std::string& content);
/// "%.6f", as Batsim writes every number of its CSV outputs.
std::string fixed6(double value);
/// Appends fixed6(value) to `out` without a temporary string.
void append_fixed6(std::string& out, double value);

} // namespace datasched
