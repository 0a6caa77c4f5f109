#include "services/hdd.hpp"

#include <algorithm>

#include <simgrid/s4u/Disk.hpp>

namespace datasched::forwarding {

double degraded_capacity(double capacity, int streams, double alpha, double sigma)
{
  if (streams <= 1)
    return capacity;
  return capacity / (1.0 + alpha * static_cast<double>(streams - 1) * sigma);
}

void SeekSpread::remove(int file, std::uint64_t object_offset)
{
  auto it = positions_.find({file, object_offset});
  if (it != positions_.end())
    positions_.erase(it);
}

double SeekSpread::sigma() const
{
  if (positions_.size() < 2)
    return 0.0;
  double gaps   = 0;
  auto previous = positions_.begin();
  for (auto it = std::next(previous); it != positions_.end(); previous = it++)
    gaps += it->first != previous->first ? scale_ : static_cast<double>(it->second - previous->second);
  return std::min(1.0, gaps / static_cast<double>(positions_.size() - 1) / scale_);
}

void apply_hdd_curve(simgrid::s4u::Disk* disk, double alpha, const SeekSpread* spread)
{
  using simgrid::s4u::Disk;
  auto curve = [alpha, spread](double capacity, int streams) {
    return degraded_capacity(capacity, streams, alpha, spread ? spread->sigma() : 1.0);
  };
  for (auto op : {Disk::Operation::READ, Disk::Operation::WRITE, Disk::Operation::READWRITE})
    disk->set_sharing_policy(op, Disk::SharingPolicy::NONLINEAR, curve);
}

} // namespace datasched::forwarding
