#include "model/external_events.hpp"

#include <algorithm>
#include <fstream>

#include "common/fatal.hpp"
#include "common/input_file.hpp"
#include "model/batsim_numbers.hpp"
#include "model/interval_set.hpp"

namespace datasched {

std::vector<ExternalEvent> load_external_events(const std::string& path, int nb_resources, bool forward_unknown)
{
  refuse_special_file(path, "events file");
  std::ifstream in(path);
  if (!in)
    throw InputError("cannot open events file '" + path + "'");
  std::vector<ExternalEvent> events;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos)
      continue;
    const std::string where = "events file '" + path + "', line " + std::to_string(number);
    ExternalEvent e;
    try {
      e.object = nlohmann::json::parse(line);
    } catch (const nlohmann::json::parse_error& err) {
      throw InputError(where + ": malformed JSON: " + err.what());
    }
    if (!e.object.is_object() || !e.object.contains("timestamp") || !e.object.at("timestamp").is_number())
      throw InputError(where + ": missing numeric field 'timestamp'");
    if (!e.object.contains("type") || !e.object.at("type").is_string())
      throw InputError(where + ": missing string field 'type'");
    e.timestamp = e.object.at("timestamp").get<double>();
    e.type      = e.object.at("type").get<std::string>();
    if (!(e.timestamp >= 0 && e.timestamp <= kMaxTime)) // the event's date, written in the protocol
      e.timestamp = checked_workload_number(e.object.at("timestamp"), where, "timestamp", "s");
    if (e.type == "machine_available" || e.type == "machine_unavailable") {
      if (!e.object.contains("resources") || !e.object.at("resources").is_string())
        throw InputError(where + ": missing string field 'resources'");
      IntervalSet set;
      try {
        set = IntervalSet::from_string(e.object.at("resources").get<std::string>());
      } catch (const InputError& err) {
        throw InputError(where + ": " + err.what());
      }
      if (set.empty() || set.elements().back() >= nb_resources)
        throw InputError(where + ": resources '" + e.object.at("resources").get<std::string>() +
                         "' are not all resource ids (the platform has " + std::to_string(nb_resources) + ")");
      e.resources = set.to_string(" ");
    } else if (!forward_unknown) {
      throw InputError(where + ": unknown event type '" + e.type + "' (use --forward-unknown-events to forward it)");
    }
    events.push_back(std::move(e));
  }
  std::stable_sort(events.begin(), events.end(),
                   [](const ExternalEvent& a, const ExternalEvent& b) { return a.timestamp < b.timestamp; });
  return events;
}

} // namespace datasched
