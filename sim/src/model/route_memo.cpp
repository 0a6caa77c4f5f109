#include "model/route_memo.hpp"

#include <algorithm>

namespace datasched {

std::size_t RouteMemo::bytes() const
{
  return row_slots_ * sizeof(std::uint32_t) + spans_.size() * sizeof(Span) + pool_.size() * sizeof(std::uint32_t) +
         links_.size() * (sizeof(simgrid::s4u::Link*) * 4 + 1) + host_number_.size() * sizeof(void*) * 4;
}

void RouteMemo::trim()
{
  if (bytes() <= max_bytes_)
    return;
  host_number_.clear();
  route_of_.clear();
  spans_.clear();
  pool_.clear();
  link_number_.clear();
  links_.clear();
  fatpipe_.clear();
  row_slots_ = 0;
}

std::uint32_t RouteMemo::host_number(simgrid::s4u::Host* host)
{
  auto [it, inserted] = host_number_.try_emplace(host, static_cast<std::uint32_t>(host_number_.size()));
  if (inserted)
    route_of_.emplace_back();
  return it->second;
}

bool RouteMemo::find(std::uint32_t src, std::uint32_t dst, Route& route) const
{
  const auto& row = route_of_[src];
  if (dst >= row.size() || row[dst] == kNone)
    return false;
  const Span& span = spans_[row[dst]];
  route            = Route{pool_.data() + span.start, span.size};
  return true;
}

RouteMemo::Route RouteMemo::keep(std::uint32_t src, std::uint32_t dst, const std::vector<simgrid::s4u::Link*>& links)
{
  auto& row = route_of_[src];
  if (dst >= row.size()) {
    const std::size_t grown = std::max<std::size_t>(dst + 1, host_number_.size());
    row_slots_ += grown - row.size();
    row.resize(grown, kNone);
  }
  const auto start = static_cast<std::uint32_t>(pool_.size());
  for (simgrid::s4u::Link* link : links)
    pool_.push_back(link_number(link));
  row[dst] = static_cast<std::uint32_t>(spans_.size());
  spans_.push_back(Span{start, static_cast<std::uint32_t>(links.size())});
  return Route{pool_.data() + start, static_cast<std::uint32_t>(links.size())};
}

RouteMemo::Route RouteMemo::number(const std::vector<simgrid::s4u::Link*>& links)
{
  scratch_.clear();
  for (simgrid::s4u::Link* link : links)
    scratch_.push_back(link_number(link));
  return Route{scratch_.data(), static_cast<std::uint32_t>(scratch_.size())};
}

std::uint32_t RouteMemo::link_number(simgrid::s4u::Link* link)
{
  auto [it, inserted] = link_number_.try_emplace(link, static_cast<std::uint32_t>(links_.size()));
  if (inserted) {
    links_.push_back(link);
    fatpipe_.push_back(link->get_sharing_policy() == simgrid::s4u::Link::SharingPolicy::FATPIPE ? 1 : 0);
  }
  return it->second;
}

} // namespace datasched
