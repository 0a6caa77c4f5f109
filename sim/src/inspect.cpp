#include "inspect.hpp"

#include <cstdio>

#include <nlohmann/json.hpp>
#include <simgrid/s4u/Disk.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include "common/fatal.hpp"
#include "execution/simulation.hpp"
#include "model/machines.hpp"

namespace datasched {

namespace {
std::string sharing_policy_name(simgrid::s4u::Link::SharingPolicy p)
{
  using P = simgrid::s4u::Link::SharingPolicy;
  switch (p) {
    case P::SHARED:
      return "SHARED";
    case P::FATPIPE:
      return "FATPIPE";
    case P::SPLITDUPLEX:
      return "SPLITDUPLEX";
    case P::NONLINEAR:
      return "NONLINEAR";
    case P::WIFI:
      return "WIFI";
    default:
      return "OTHER";
  }
}
} // namespace

int inspect_platform(const EngineConfig& config, const char* program_name)
{
  Machines machines;
  std::map<std::string, Role> overrides;
  try {
    init_simgrid(config, program_name);
    for (const auto& [hosts, role] : config.role_overrides)
      overrides[hosts] = Machines::parse_role(role, "option -r");
    machines =
        Machines::from_platform(simgrid::s4u::Engine::get_instance()->get_all_hosts(), config.master_host, overrides);
  } catch (const InputError& e) {
    fatal(e.what());
  }
  auto describe = [](const Machine& m) {
    nlohmann::json h;
    h["name"]            = m.name;
    h["id"]              = m.id >= 0 ? nlohmann::json(m.id) : nlohmann::json(nullptr);
    h["role"]            = role_to_string(m.role);
    h["speed"]           = m.host->get_speed();
    h["cores"]           = m.host->get_core_count();
    h["properties"]      = m.properties;
    nlohmann::json disks = nlohmann::json::array();
    for (const auto* d : m.host->get_disks())
      disks.push_back({{"name", d->get_name()},
                       {"read_bandwidth", d->get_read_bandwidth()},
                       {"write_bandwidth", d->get_write_bandwidth()}});
    h["disks"] = disks;
    return h;
  };
  nlohmann::json out;
  out["platform"]      = config.platform_file;
  nlohmann::json hosts = nlohmann::json::array();
  hosts.push_back(describe(machines.master()));
  for (const auto& m : machines.all())
    hosts.push_back(describe(m));
  out["hosts"]                = hosts;
  out["nb_compute_resources"] = machines.nb_compute();
  out["nb_storage_resources"] = machines.nb_storage();
  nlohmann::json routes       = nlohmann::json::array();
  auto* engine                = simgrid::s4u::Engine::get_instance();
  engine->seal_platform(); // routing tables of Floyd/Dijkstra zones are built when sealed
  for (const auto& [src, dst] : config.inspect_routes) {
    auto* a = engine->host_by_name_or_null(src);
    auto* b = engine->host_by_name_or_null(dst);
    if (!a || !b)
      fatal("--route: unknown host '" + (!a ? src : dst) + "'");
    std::vector<simgrid::s4u::Link*> links;
    double latency = 0;
    try {
      a->route_to(b, links, &latency);
    } catch (const std::exception& e) {
      fatal("--route " + src + " " + dst + ": SimGrid found no route (" + e.what() + ")");
    }
    nlohmann::json r{{"src", src}, {"dst", dst}, {"latency", latency}};
    nlohmann::json ls = nlohmann::json::array();
    for (auto* l : links)
      ls.push_back({{"name", l->get_name()},
                    {"bandwidth", l->get_bandwidth()},
                    {"latency", l->get_latency()},
                    {"sharing_policy", sharing_policy_name(l->get_sharing_policy())}});
    r["links"] = ls;
    routes.push_back(r);
  }
  out["routes"] = routes;
  std::printf("%s\n", out.dump(1).c_str());
  return 0;
}

} // namespace datasched
