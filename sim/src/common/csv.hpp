#pragma once
// What every CSV output of the engine shares: files written atomically, removed before a
// run and when it fails, and numbers in a few fixed formats. Scheduling runs and every
// scenario write through these, so an output never changes format with the code path
// that wrote it.
#include <string>
#include <vector>

namespace datasched {

/// Writes `content` into "<path>.tmp", then renames it: a crash can never leave a
/// half-written file under the final name. Throws std::runtime_error naming the file.
void write_file_atomically(const std::string& path, const std::string& content);

/// Removes each of `paths` and its "<path>.tmp", ignoring those absent: done before a run
/// (an earlier run's outputs must not look like this one's) and when a run fails.
void remove_output_files(const std::vector<std::string>& paths);

/// "%.6f", as Batsim writes every number of its CSV outputs.
std::string fixed6(double value);
/// Appends fixed6(value) to `out` without a temporary string.
void append_fixed6(std::string& out, double value);
/// "%.9f": nanosecond resolution, for the scenarios' times (request and message
/// latencies are microseconds).
std::string fixed9(double value);
/// "%.6g": six significant digits, for derived ratios.
std::string general6(double value);
/// "%.0f": a whole number written from a double (byte counts kept as doubles).
std::string whole_number(double value);

} // namespace datasched
