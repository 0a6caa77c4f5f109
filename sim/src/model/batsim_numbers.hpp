#pragma once
// The numbers of a workload that become dates: Batsim 4.2.1's date range and the one
// checked reader of every profile amount, data-item size and event date (profile.cpp,
// phase_profile.cpp, workload.cpp's datasched_data, external_events.cpp).
//
// Why one bound for seconds, flops and bytes alike: Batsim writes every number of its
// protocol, the profiles of SIMULATION_BEGINS included, with printf("%6f") into a 32-byte
// buffer and aborts when the text takes 31 characters or more (above 1e23); and an amount
// above 1e23 flops or bytes ends beyond 1e23 s on any resource slower than one flop or
// byte per second. Refusing it when the workload is read names the profile and the field,
// where the end of such a phase at run time could only name the job.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "common/fatal.hpp"

namespace datasched {

/// Largest date or duration Batsim 4.2.1 can run, and so the engine: 1e23 s (the double
/// 99999999999999991611392). Batsim reads any finite number and runs SimGrid's double clock
/// to it (its own test_long_workload.json submits at 1e17 s), but it writes every number of
/// the protocol with printf("%6f") into a 32-byte buffer and aborts on an assertion when the
/// text takes 31 characters or more (protocol.hpp, Writer::Double): a submit time, walltime
/// or delay above 1e23 (sent in JOB_SUBMITTED or SIMULATION_BEGINS), or a clock past it
/// (the next event's timestamp), stops real Batsim; here it is one error line. Checked
/// against the real build: walltime, subtime and delay of 1e23 run, 2e23 abort.
inline constexpr double kMaxTime          = 1e23;
inline constexpr const char* kMaxTimeText = "1e23";

/// A date for an error message: six significant digits, so 5e+291 is not printed as a
/// 292-digit number (std::to_string's "%f").
inline std::string format_date(double seconds)
{
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", seconds);
  return buffer;
}

/// A number as the user wrote it: the shortest text that reads back as the same double
/// (2e+23, not nlohmann's 1.9999999999999998e+23).
inline std::string format_number(double x)
{
  char buffer[32];
  const auto printed = std::to_chars(buffer, buffer + sizeof buffer, x);
  return std::string(buffer, printed.ptr);
}

/// A workload number that becomes a date (a profile's flops, bytes or seconds, a data
/// item's bytes, an event's date): a finite JSON number >= 0 and <= kMaxTime. Anything
/// else is an InputError "<where>: field '<field>' must be a number >= 0 and <= 1e23
/// <unit> (...), got <value>"; `where` names the file and the profile, job or entry.
inline double checked_workload_number(const nlohmann::json& value, const std::string& where, const std::string& field,
                                      const char* unit)
{
  const std::string range = std::string("a number >= 0 and <= ") + kMaxTimeText + " " + unit;
  if (!value.is_number())
    throw InputError(where + ": field '" + field + "' must be " + range + ", got " + value.dump());
  const double x = value.get<double>();
  if (!std::isfinite(x) || x < 0 || x > kMaxTime)
    throw InputError(where + ": field '" + field + "' must be " + range +
                     " (Batsim 4.2.1 cannot write a larger date or number in its protocol), got " + format_number(x));
  return x;
}

} // namespace datasched
