#include "model/io_record.hpp"

#include "model/enum_names.hpp"

namespace datasched {

namespace {
constexpr std::array<const char*, kNbTiers> kTierNames{"compute", "network",  "dram",      "local_nvm", "remote_nvm",
                                                       "san",     "stage_in", "stage_out", "writeback"};
constexpr std::array<const char*, kNbTrafficClasses> kTrafficClassNames{"none", "ipc", "storage"};
} // namespace

std::string tier_to_string(Tier tier)
{
  return enum_name(kTierNames, tier);
}

std::string traffic_class_to_string(TrafficClass traffic)
{
  return enum_name(kTrafficClassNames, traffic);
}

} // namespace datasched
