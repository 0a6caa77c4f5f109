#include "model/io_record.hpp"

namespace datasched {

std::string tier_to_string(Tier tier)
{
  switch (tier) {
    case Tier::Compute:
      return "compute";
    case Tier::Network:
      return "network";
    case Tier::Dram:
      return "dram";
    case Tier::LocalNvm:
      return "local_nvm";
    case Tier::RemoteNvm:
      return "remote_nvm";
    case Tier::San:
      return "san";
    case Tier::StageIn:
      return "stage_in";
    case Tier::StageOut:
      return "stage_out";
  }
  return "?";
}

std::string traffic_class_to_string(TrafficClass traffic)
{
  switch (traffic) {
    case TrafficClass::None:
      return "none";
    case TrafficClass::Ipc:
      return "ipc";
    case TrafficClass::Storage:
      return "storage";
  }
  return "?";
}

} // namespace datasched
