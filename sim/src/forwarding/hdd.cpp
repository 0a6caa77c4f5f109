#include "forwarding/hdd.hpp"

#include <simgrid/s4u/Disk.hpp>

namespace datasched::forwarding {

double degraded_capacity(double capacity, int streams, double alpha)
{
  if (streams <= 1)
    return capacity;
  return capacity / (1.0 + alpha * static_cast<double>(streams - 1));
}

void apply_hdd_curve(simgrid::s4u::Disk* disk, double alpha)
{
  using simgrid::s4u::Disk;
  auto curve = [alpha](double capacity, int streams) { return degraded_capacity(capacity, streams, alpha); };
  for (auto op : {Disk::Operation::READ, Disk::Operation::WRITE, Disk::Operation::READWRITE})
    disk->set_sharing_policy(op, Disk::SharingPolicy::NONLINEAR, curve);
}

} // namespace datasched::forwarding
