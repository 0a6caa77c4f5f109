#pragma once
// How real Batsim 4.2.1 converts a JSON number of the decision process's messages.
//
// Batsim parses each reply with rapidjson's default flags (protocol.cpp,
// JsonProtocolReader::parse_and_apply_message: doc.Parse(message)), whose decimal-to-double
// conversion is not correctly rounded: it gathers up to ~17 significant digits into an
// integer, converts that integer to a double (rounding once when it exceeds 2^53), then
// multiplies or divides by a power of ten (rounding again). For the 17-digit texts that
// Python writes for dates beyond ~1e9 s, the result is often one floating-point step away
// from the nearest double, and the event dates of a decision (sleep until the timestamp,
// SCHED_READY at `now`) follow from it. The engine converts these numbers the same way, so
// dates stay identical to Batsim's where one step is microseconds (tests: test_protocol.cpp).
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace datasched {

/// The double Batsim 4.2.1 gets from the JSON number text `text` (a valid JSON number:
/// optional minus, digits, optional fraction and exponent).
double batsim_json_number(std::string_view text);

/// `text` parsed as Batsim 4.2.1's rapidjson reads it (default flags): nlohmann's DOM, with
/// every decimal number converted by batsim_json_number. Batsim reads its workloads this
/// way too (workload.cpp: doc.Parse), so a subtime of 100000000000007.25 is
/// 100000000000007.234375 there, one step below the nearest double. Throws nlohmann's
/// parse_error / out_of_range as nlohmann::json::parse does.
nlohmann::json parse_json_as_batsim(const std::string& text);

} // namespace datasched
