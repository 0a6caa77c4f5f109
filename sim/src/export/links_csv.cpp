#include "export/links_csv.hpp"

#include <algorithm>
#include <cmath>

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Link.hpp>

#include "common/csv.hpp"

namespace datasched {

void LinkLoadCsv::write_if_measured(const std::string& prefix) const
{
  if (enabled())
    write(link_load_file(prefix));
}

std::string link_load_file(const std::string& prefix)
{
  return prefix + "_links.csv";
}

std::string LinkLoadCsv::header()
{
  return "window_start,window_end,link,bytes,busy_seconds,utilisation\n";
}

void LinkLoadCsv::start(double window)
{
  if (window <= 0)
    return;
  window_ = window;
  links_  = simgrid::s4u::Engine::get_instance()->get_all_links();
  std::sort(links_.begin(), links_.end(),
            [](const simgrid::s4u::Link* a, const simgrid::s4u::Link* b) { return a->get_name() < b->get_name(); });
  for (const auto* link : links_)
    names_.push_back(link->get_name());
  self_ = std::make_shared<LinkLoadCsv*>(this);
  simgrid::s4u::Engine::on_time_advance_cb([weak = std::weak_ptr<LinkLoadCsv*>(self_)](double delta) {
    if (auto self = weak.lock())
      (*self)->advance(delta);
  });
}

void LinkLoadCsv::advance(double delta)
{
  if (delta <= 0)
    return;
  const double to   = simgrid::s4u::Engine::get_clock();
  const double from = to - delta;
  for (size_t i = 0; i < links_.size(); ++i) {
    const double usage = links_[i]->get_usage();
    if (usage > 0)
      add(i, from, to, usage);
  }
}

void LinkLoadCsv::add(size_t link, double from, double to, double usage)
{
  // The rate is constant over (from, to]: each window it overlaps gets its share.
  auto index = static_cast<long long>(std::floor(from / window_));
  while (from < to) {
    const double end = std::min(to, static_cast<double>(index + 1) * window_);
    Load& load       = loads_[{index, link}];
    load.bytes += usage * (end - from);
    load.busy += end - from;
    from = end;
    ++index;
  }
}

std::map<std::string, LinkLoadCsv::Load> LinkLoadCsv::totals() const
{
  std::map<std::string, Load> out;
  for (const auto& [key, load] : loads_) {
    Load& sum = out[names_[key.second]];
    sum.bytes += load.bytes;
    sum.busy += load.busy;
  }
  return out;
}

void LinkLoadCsv::write(const std::string& path) const
{
  std::string rows = header();
  for (const auto& [key, load] : loads_) {
    const double start    = static_cast<double>(key.first) * window_;
    const double capacity = links_[key.second]->get_bandwidth() * window_;
    append_fixed6(rows, start);
    rows += ',';
    append_fixed6(rows, start + window_);
    rows += ',' + names_[key.second] + ',';
    append_fixed6(rows, load.bytes);
    rows += ',';
    append_fixed6(rows, load.busy);
    rows += ',';
    append_fixed6(rows, capacity > 0 ? load.bytes / capacity : 0.0);
    rows += '\n';
  }
  write_file_atomically(path, rows);
}

} // namespace datasched
