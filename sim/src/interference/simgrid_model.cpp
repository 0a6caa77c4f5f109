#include "interference/simgrid_model.hpp"

namespace datasched::interference {

std::string to_string(SimgridModel model)
{
  return model == SimgridModel::PtaskL07 ? "ptask_L07" : "cas01_cm02";
}

std::vector<std::string> simgrid_options(SimgridModel model)
{
  if (model == SimgridModel::PtaskL07)
    return {"host/model:ptask_L07"};
  // CM02 rather than SimGrid's default LV08: no latency factor (13.01) nor bandwidth
  // factor (0.97) and no RTT weight (weight-S 0), so that a transfer of S bytes on an idle
  // route of latency L and bottleneck B takes L + S/B, as under L07. (A flow's sharing
  // weight is then its route's latency: on one star, as the seed-004 platform, every route
  // has the same and flows share a link equally, as under L07.) Cross-traffic (5 % of
  // every flow charged on the reverse route, on by default) is off for the same reason:
  // L07 has none. Both models keep SimGrid's TCP-gamma bound (gamma / (2 L)), far above
  // the seed-004 links (4 MiB / 4 us ~ 1 TB/s). Lazy updates are the two models' default,
  // stated here because they are the point of this model.
  return {"host/model:compound", "cpu/model:Cas01",    "cpu/optim:Lazy",
          "network/model:CM02",  "network/optim:Lazy", "network/crosstraffic:0"};
}

} // namespace datasched::interference
