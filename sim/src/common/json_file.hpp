#pragma once
// JSON input files: read whole, nesting bounded, every syntax error one line naming the
// file, line and column. Workloads, experiment files and the forwarding layer all come
// through here, so a malformed file reads the same whichever option named it.
#include <string>

#include <nlohmann/json.hpp>

namespace datasched {

/// Reads and parses a JSON file; a syntax error names the file, line and column.
nlohmann::json read_json_file(const std::string& path);

/// The same, with decimal numbers converted as Batsim 4.2.1's rapidjson converts them
/// (common/batsim_number.hpp): for Batsim's own inputs, the workloads.
nlohmann::json read_batsim_json_file(const std::string& path);

/// read_json_file for a file named by an option: an error is prefixed with `what`
/// ("experiment", "--forwarding-layer"), so the message says which input it is about.
nlohmann::json read_json_input(const std::string& path, const std::string& what);

} // namespace datasched
