#include "export/output_files.hpp"

namespace datasched {

const std::vector<std::string>& scheduling_output_suffixes()
{
  static const std::vector<std::string> suffixes{
      "jobs.csv",           "schedule.csv", "machine_states.csv", "utilisation.csv", "io.csv",  "consumed_energy.csv",
      "pstate_changes.csv", "data.csv",     "forwarders.csv",     "servers.csv",     "nvm.csv", "links.csv",
      "staging.csv"};
  return suffixes;
}

std::vector<std::string> scheduling_output_files(const std::string& prefix)
{
  std::vector<std::string> files;
  for (const auto& suffix : scheduling_output_suffixes())
    files.push_back(prefix + "_" + suffix);
  return files;
}

} // namespace datasched
