#include "model/platform_check.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <typeinfo>

#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include "common/fatal.hpp"
#include "common/input_file.hpp"

namespace datasched {

namespace {

std::string read_text(const std::string& path, bool& ok)
{
  std::ifstream in(path, std::ios::binary);
  ok = static_cast<bool>(in);
  std::stringstream buffer;
  if (ok)
    buffer << in.rdbuf();
  return buffer.str();
}

size_t line_of(const std::string& text, size_t offset)
{
  return 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

/// Value of attribute `name` inside the tag text `tag` (between '<' and '>'), or npos.
bool attribute(const std::string& tag, const std::string& name, std::string& value)
{
  size_t pos = 0;
  while ((pos = tag.find(name, pos)) != std::string::npos) {
    const bool word_start = pos > 0 && std::isspace(static_cast<unsigned char>(tag[pos - 1]));
    size_t p              = pos + name.size();
    while (p < tag.size() && std::isspace(static_cast<unsigned char>(tag[p])))
      ++p;
    if (word_start && p < tag.size() && tag[p] == '=') {
      ++p;
      while (p < tag.size() && std::isspace(static_cast<unsigned char>(tag[p])))
        ++p;
      if (p < tag.size() && (tag[p] == '"' || tag[p] == '\'')) {
        const size_t end = tag.find(tag[p], p + 1);
        if (end != std::string::npos) {
          value = tag.substr(p + 1, end - p - 1);
          return true;
        }
      }
    }
    pos += name.size();
  }
  return false;
}

/// Calls `visit(tag_text, offset)` for each `<name` element start of `xml`.
template <typename Visit>
void for_each_element(const std::string& xml, const std::string& name, Visit visit)
{
  const std::string open = "<" + name;
  size_t pos             = 0;
  while ((pos = xml.find(open, pos)) != std::string::npos) {
    const size_t after = pos + open.size();
    if (after < xml.size() &&
        (std::isspace(static_cast<unsigned char>(xml[after])) || xml[after] == '>' || xml[after] == '/')) {
      const size_t end = xml.find('>', after);
      if (visit(xml.substr(after, end == std::string::npos ? std::string::npos : end - after), pos))
        return;
    }
    pos = after;
  }
}

std::string where_in(const std::string& path, size_t line)
{
  return "platform '" + path + "'" + (line ? ", line " + std::to_string(line) : std::string());
}

std::string number_text(double value)
{
  std::ostringstream out;
  out << value;
  return out.str();
}

} // namespace

size_t xml_element_line(const std::string& xml, const std::string& tag, const std::string& id)
{
  size_t line = 0;
  for_each_element(xml, tag, [&](const std::string& text, size_t offset) {
    std::string value;
    if (attribute(text, "id", value) && value == id) {
      line = line_of(xml, offset);
      return true;
    }
    return false;
  });
  return line;
}

static void precheck_core_counts(const std::string& path, const std::string& xml)
{
  // SimGrid 3.32 asserts (abort with a backtrace) on core="0"; a negative count wraps.
  for (const char* tag : {"host", "cluster"})
    for_each_element(xml, tag, [&](const std::string& text, size_t offset) {
      std::string core, id;
      if (!attribute(text, "core", core))
        return false;
      char* end        = nullptr;
      const long value = std::strtol(core.c_str(), &end, 10);
      if (core.empty() || *end != '\0' || value < 1) {
        attribute(text, "id", id);
        throw InputError(where_in(path, line_of(xml, offset)) + ": " + tag + " '" + id + "': core=\"" + core +
                         "\" is not a positive number of cores");
      }
      return false;
    });
}

void precheck_platform_file(const std::string& path)
{
  refuse_special_file(path, "platform");
  bool ok;
  const std::string xml = read_text(path, ok);
  if (!ok)
    return;
  // SimGrid 3.32's sg_platf_create_zone compares these case-insensitively, and dies on
  // anything else. (Cluster topologies are a <cluster topology=...> attribute instead.)
  static const std::array<const char*, 8> known = {"Cluster", "Dijkstra", "DijkstraCache", "Floyd",
                                                   "Full",    "None",     "Vivaldi",       "Wifi"};
  for (const char* tag : {"zone", "AS"})
    for_each_element(xml, tag, [&](const std::string& text, size_t offset) {
      std::string routing, id;
      if (!attribute(text, "routing", routing))
        return false;
      const bool valid = std::any_of(known.begin(), known.end(), [&](const char* k) {
        return routing.size() == std::char_traits<char>::length(k) &&
               std::equal(routing.begin(), routing.end(), k, [](char a, char b) {
                 return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
               });
      });
      if (!valid) {
        attribute(text, "id", id);
        throw InputError(where_in(path, line_of(xml, offset)) + ": <" + tag + " id=\"" + id + "\">: routing=\"" +
                         routing +
                         "\" is not a SimGrid routing (expected Full, Floyd, Dijkstra, DijkstraCache, Cluster, "
                         "Vivaldi, Wifi or None)");
      }
      return false;
    });
  precheck_core_counts(path, xml);
}

void check_platform_resources(const std::string& path, const std::vector<simgrid::s4u::Host*>& hosts,
                              const std::vector<simgrid::s4u::Link*>& links)
{
  // The file is read (and searched for the element's line) only to word an error: a
  // valid platform costs one pass over its hosts and links.
  auto fail = [&](const std::string& tag, std::string id, const std::string& what) {
    bool ok;
    const std::string xml = read_text(path, ok);
    // A SPLITDUPLEX link is written once and loaded as NAME_UP and NAME_DOWN.
    for (const std::string suffix : {"_UP", "_DOWN"})
      if (tag == "link" && id.size() > suffix.size() &&
          id.compare(id.size() - suffix.size(), suffix.size(), suffix) == 0 &&
          (!ok || xml_element_line(xml, "link", id) == 0))
        id.resize(id.size() - suffix.size());
    throw InputError(where_in(path, ok ? xml_element_line(xml, tag, id) : 0) + ": " + tag + " '" + id + "': " + what);
  };
  for (auto* host : hosts) {
    const std::string name = host->get_name();
    for (unsigned long p = 0; p < host->get_pstate_count(); ++p) {
      const double speed = host->get_pstate_speed(p);
      if (!std::isfinite(speed) || speed <= 0)
        fail("host", name,
             "speed " + number_text(speed) + " flop/s" +
                 (host->get_pstate_count() > 1 ? " (pstate " + std::to_string(p) + ")" : std::string()) +
                 " is not a positive finite number: jobs on it would never progress");
    }
    if (host->get_core_count() < 1)
      fail("host", name, "has no core");
  }
  for (auto* link : links) {
    const double bandwidth = link->get_bandwidth(), latency = link->get_latency();
    if (!std::isfinite(bandwidth) || bandwidth <= 0)
      fail("link", link->get_name(),
           "bandwidth " + number_text(bandwidth) +
               " B/s is not a positive finite number: a transfer over it would never end");
    if (!std::isfinite(latency) || latency < 0)
      fail("link", link->get_name(), "latency " + number_text(latency) + " s is not a finite number >= 0");
  }
}

namespace {
/// In a Vivaldi zone a route has no links: its latency comes from the hosts'
/// coordinates, and equal coordinates legitimately make transfers free (as Batsim's
/// energy platforms do). SimGrid exports no API to ask a zone's routing, and its
/// VivaldiZone class is private, so the zone implementation's dynamic type name is read.
bool in_one_vivaldi_zone(simgrid::s4u::Host* src, simgrid::s4u::Host* dst)
{
  const simgrid::s4u::NetZone* zone = src->get_englobing_zone();
  if (zone != dst->get_englobing_zone())
    return false;
  const auto* impl = zone->get_impl();
  return std::string(typeid(*impl).name()).find("VivaldiZone") != std::string::npos;
}
} // namespace

std::string RouteChecker::route_problem(simgrid::s4u::Host* src, simgrid::s4u::Host* dst)
{
  std::vector<simgrid::s4u::Link*> links;
  return route_problem(src, dst, links);
}

std::string RouteChecker::route_problem(simgrid::s4u::Host* src, simgrid::s4u::Host* dst,
                                        std::vector<simgrid::s4u::Link*>& links)
{
  if (src == dst)
    return {};
  double latency = 0;
  auto zones     = [&]() {
    return " (zones '" + src->get_englobing_zone()->get_name() + "' and '" + dst->get_englobing_zone()->get_name() +
           "')";
  };
  try {
    src->route_to(dst, links, &latency);
  } catch (const std::exception& e) {
    return "the platform has no route between hosts '" + src->get_name() + "' and '" + dst->get_name() + "'" + zones() +
           ": " + e.what();
  }
  if (links.empty() && latency == 0 && !in_one_vivaldi_zone(src, dst))
    return "the platform has no route between hosts '" + src->get_name() + "' and '" + dst->get_name() + "'" + zones() +
           ": a routing=\"Full\" zone needs a <route> (or <zoneRoute>) for every pair of hosts that exchange data; "
           "SimGrid would make these transfers free";
  return {};
}

std::string RouteChecker::problem(simgrid::s4u::Host* src, simgrid::s4u::Host* dst)
{
  if (src == dst || !checked_.insert({src, dst}).second)
    return {};
  std::string why = route_problem(src, dst);
  if (!why.empty())
    checked_.erase({src, dst});
  return why;
}

std::string RouteChecker::problem(const std::vector<simgrid::s4u::Host*>& hosts, const PairBytes& bytes)
{
  const size_t n = hosts.size();
  if (bytes.empty() || all_pairs_checked_.count(hosts) != 0)
    return {};
  std::vector<bool>& seen = pairs_seen(hosts);
  for (const PairBytes::Pair& p : bytes) {
    const size_t k = p.src * n + p.dst;
    if (seen[k])
      continue;
    if (std::string why = problem(hosts[p.src], hosts[p.dst]); !why.empty())
      return why;
    seen[k] = true;
  }
  if (bytes.every_pair_of(n))
    trust(hosts);
  return {};
}

void RouteChecker::trust(const std::vector<simgrid::s4u::Host*>& hosts)
{
  all_pairs_checked_.insert(hosts);
  if (auto it = pairs_seen_.find(hosts); it != pairs_seen_.end()) { // its bitmap is no longer read
    pairs_seen_bits_ -= it->second.size();
    pairs_seen_.erase(it);
  }
}

std::vector<bool>& RouteChecker::pairs_seen(const std::vector<simgrid::s4u::Host*>& hosts)
{
  if (auto it = pairs_seen_.find(hosts); it != pairs_seen_.end())
    return it->second;
  const size_t bits = hosts.size() * hosts.size();
  if (pairs_seen_bits_ + bits > kMaxPairBits) {
    pairs_seen_.clear();
    pairs_seen_bits_ = 0;
  }
  pairs_seen_bits_ += bits;
  return pairs_seen_.emplace(hosts, std::vector<bool>(bits, false)).first->second;
}

std::string RouteChecker::visit_all_routes(const std::vector<simgrid::s4u::Host*>& hosts, const RouteVisitor& visit)
{
  const size_t n = hosts.size();
  memo_.trim();
  const bool kept = memo_.fits(n);
  std::vector<std::uint32_t> number(kept ? n : 0);
  for (size_t i = 0; i < number.size(); ++i)
    number[i] = memo_.host_number(hosts[i]);
  std::vector<simgrid::s4u::Link*> links;
  RouteMemo::Route route;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      if (i == j || (kept && memo_.find(number[i], number[j], route))) {
        if (i != j)
          visit(i, j, route);
        continue;
      }
      links.clear();
      if (hosts[i] == hosts[j]) // two tasks on one host: its loopback route, nothing to check
        hosts[i]->route_to(hosts[j], links, nullptr);
      else if (std::string why = route_problem(hosts[i], hosts[j], links); !why.empty())
        return why;
      visit(i, j, kept ? memo_.keep(number[i], number[j], links) : memo_.number(links));
    }
  trust(hosts);
  return {};
}

} // namespace datasched
