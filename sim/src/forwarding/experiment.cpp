#include "forwarding/experiment.hpp"

#include <cmath>
#include <limits>
#include <set>

#include <nlohmann/json.hpp>

#include "common/fatal.hpp"
#include "common/json_file.hpp"
#include "forwarding/field_ranges.hpp"
#include "model/input_limits.hpp"
#include "model/json_fields.hpp"

namespace datasched::forwarding {

namespace {

Application parse_application(const nlohmann::json& doc, const std::string& where, const std::string& file)
{
  Fields f(doc, where, file);
  Application app;
  if (!f.has("name"))
    f.fail("name", "missing (required)");
  const auto& name = f.raw("name");
  if (!name.is_string() || name.get<std::string>().empty())
    f.fail("name", "expected a non-empty string, got " + name.dump());
  app.name         = name.get<std::string>();
  app.processes    = f.integer("processes", 0, IntegerRange<int>{1, limits::kMaxCount, "processes"}, true);
  auto pattern     = f.choice("pattern", "", {"file_per_process", "shared_strided", "shared_contiguous"}, true);
  app.pattern      = pattern == "file_per_process" ? AccessPattern::FilePerProcess
                     : pattern == "shared_strided" ? AccessPattern::SharedStrided
                                                   : AccessPattern::SharedContiguous;
  app.operation    = f.choice("operation", "", {"read", "write"}, true) == "read" ? Operation::Read : Operation::Write;
  app.request_size = f.integer<std::uint64_t>("request_size", 0, {1, limits::kMaxBytes, "bytes"}, true);
  app.bytes_per_process = f.integer<std::uint64_t>("bytes_per_process", 0, {1, limits::kMaxBytes, "bytes"}, true);
  // A shared file holds every process's bytes: its offsets (and the totals of the outputs)
  // must stay within 64 bits.
  if (app.bytes_per_process > limits::kMaxBytes / static_cast<std::uint64_t>(app.processes))
    f.fail("bytes_per_process", "processes x bytes_per_process must be <= " + std::to_string(limits::kMaxBytes) +
                                    " bytes, got " + std::to_string(app.processes) + " x " +
                                    std::to_string(app.bytes_per_process));
  if (app.bytes_per_process % app.request_size != 0)
    f.fail("bytes_per_process", "must be a multiple of request_size (" + std::to_string(app.request_size) + "), got " +
                                    std::to_string(app.bytes_per_process));
  app.start  = f.number("start", 0, {0, false, limits::kMaxSeconds, "seconds"});
  app.jitter = f.number("jitter", 0, {0, false, limits::kMaxSeconds, "seconds"});
  f.finish();
  return app;
}

} // namespace

Experiment parse_experiment(const nlohmann::json& doc, const std::string& file)
{
  Experiment e;
  e.file = file;
  Fields top(doc, "", file);
  e.seed          = top.integer<std::uint64_t>("seed", 0, {0, limits::kMaxSeed});
  e.forwarded     = top.choice("mode", "", {"forwarded", "direct"}, true) == "forwarded";
  e.control_bytes = top.integer<std::uint64_t>("control_bytes", 1, {0, limits::kMaxBytes, "bytes"});

  if (!top.has("clients"))
    top.fail("clients", "missing (required)");
  {
    Fields f(top.raw("clients"), "clients", file);
    e.client_nodes       = f.integer("nodes", 0, IntegerRange<int>{1, limits::kMaxCount, "client nodes"}, true);
    e.processes_per_node = f.integer("processes_per_node", 1, IntegerRange<int>{1, limits::kMaxCount, "processes"});
    f.finish();
  }

  if (!top.has("servers"))
    top.fail("servers", "missing (required)");
  {
    Fields f(top.raw("servers"), "servers", file);
    e.servers.count          = f.integer("count", 0, IntegerRange<int>{1, limits::kMaxCount, "data servers"}, true);
    e.servers.stripe_size    = f.integer<std::uint64_t>("stripe_size", 65536, {1, limits::kMaxBytes, "bytes"});
    e.servers.hdd_alpha      = f.number("hdd_alpha", 0, {0, false, limits::kMaxAmount});
    e.servers.hdd_seek_scale = f.number("hdd_seek_scale", 0, {0, false, limits::kMaxAmount, "bytes"});
    if (f.has("cache")) {
      Fields c(f.raw("cache"), "servers.cache", file);
      auto& cache            = e.servers.cache;
      cache.memory_bandwidth = c.number("memory_bandwidth", 0, {0, true, limits::kMaxAmount, "bytes/s"}, true);
      cache.write_behind     = c.integer<std::uint64_t>("write_behind", 0, {0, limits::kMaxBytes, "bytes"});
      cache.read_ahead       = c.integer<std::uint64_t>("read_ahead", 0, {0, limits::kMaxBytes, "bytes"});
      c.finish();
    }
    f.finish();
  }

  if (e.forwarded) {
    if (!top.has("forwarding"))
      top.fail("forwarding", "missing (required when mode is \"forwarded\")");
    Fields f(top.raw("forwarding"), "forwarding", file);
    auto& fw      = e.forwarding;
    fw.forwarders = f.integer("forwarders", 0, IntegerRange<int>{1, limits::kMaxCount, "forwarders"}, true);
    auto sched    = f.choice("scheduler", "", {"fifo", "hbrr", "twins"}, true);
    fw.scheduler = sched == "fifo" ? SchedulerKind::Fifo : sched == "hbrr" ? SchedulerKind::Hbrr : SchedulerKind::Twins;
    fw.window    = f.number("window", 0.001, kWindowRange);
    fw.max_in_flight     = f.integer("max_in_flight", 16, kMaxInFlightRange);
    fw.aggregation_limit = f.integer("aggregation_limit", 16, kAggregationRange);
    fw.twins_drain       = f.boolean("drain", false);
    if (fw.twins_drain && fw.scheduler != SchedulerKind::Twins)
      f.fail("drain", "only applies to scheduler \"twins\"");
    if (f.has("mapping")) {
      const auto& m = f.raw("mapping");
      if (m.is_string()) {
        auto s = m.get<std::string>();
        if (s == "block")
          fw.mapping = ClientMapping::Block;
        else if (s == "round_robin")
          fw.mapping = ClientMapping::RoundRobin;
        else
          f.fail("mapping", "expected \"block\", \"round_robin\" or a list of forwarder indices, got " + m.dump());
      } else if (m.is_array()) {
        fw.mapping         = ClientMapping::Explicit;
        const bool by_name = !m.empty() && m[0].is_string();
        for (size_t i = 0; i < m.size(); ++i) {
          if (by_name) {
            if (!m[i].is_string() || m[i].get<std::string>().empty())
              f.fail("mapping", "entry " + std::to_string(i) + " (client node " + std::to_string(i) +
                                    "): expected a forwarder host name like the first entry, got " + m[i].dump());
            fw.explicit_mapping_names.push_back(m[i].get<std::string>());
            fw.explicit_mapping.push_back(-1);
            continue;
          }
          if (!m[i].is_number_integer())
            f.fail("mapping", "entry " + std::to_string(i) + " (client node " + std::to_string(i) +
                                  "): expected a forwarder index or host name, got " + m[i].dump());
          long long fwd = m[i].get<long long>();
          if (fwd < 0 || fwd >= fw.forwarders)
            f.fail("mapping", "client node " + std::to_string(i) + " is mapped to forwarder " + std::to_string(fwd) +
                                  ", which does not exist (forwarders: 0.." + std::to_string(fw.forwarders - 1) + ")");
          fw.explicit_mapping.push_back(static_cast<int>(fwd)); // checked: 0 <= fwd < forwarders
        }
      } else {
        f.fail("mapping",
               "expected \"block\", \"round_robin\" or a list of forwarder indices or host names, got " + m.dump());
      }
    }
    f.finish();
    if (fw.mapping == ClientMapping::Explicit && fw.explicit_mapping.size() != static_cast<std::size_t>(e.client_nodes))
      throw InputError(file + ": forwarding.mapping: has " + std::to_string(fw.explicit_mapping.size()) +
                       " entries, expected one per client node (" + std::to_string(e.client_nodes) + ")");
  } else if (top.has("forwarding")) {
    top.fail("forwarding", "not allowed when mode is \"direct\" (clients talk to the servers)");
  }

  if (!top.has("applications"))
    top.fail("applications", "missing (required)");
  const auto& apps = top.raw("applications");
  if (!apps.is_array() || apps.empty())
    top.fail("applications", "expected a non-empty list");
  long long total_processes = 0;
  std::set<std::string> names;
  for (size_t i = 0; i < apps.size(); ++i) {
    e.applications.push_back(parse_application(apps[i], "applications[" + std::to_string(i) + "]", file));
    if (!names.insert(e.applications.back().name).second)
      throw InputError(file + ": applications[" + std::to_string(i) + "].name: duplicate name '" +
                       e.applications.back().name + "'");
    total_processes += e.applications.back().processes;
  }
  const long long slots = static_cast<long long>(e.client_nodes) * e.processes_per_node;
  if (total_processes > slots)
    throw InputError(file + ": applications: " + std::to_string(total_processes) +
                     " processes in all, but clients provide only " + std::to_string(slots) +
                     " (nodes x processes_per_node)");

  if (top.has("outputs")) {
    Fields f(top.raw("outputs"), "outputs", file);
    e.dispatch_trace = f.boolean("dispatch_trace", false);
    f.finish();
  }
  top.finish();
  return e;
}

RunCost client_request_cost(const Experiment& e)
{
  double requests = 0;
  for (const auto& app : e.applications)
    requests += static_cast<double>(app.processes) *
                std::ceil(static_cast<double>(app.bytes_per_process) / static_cast<double>(app.request_size));
  return {2 * requests, "messages (" + format_estimate(requests) +
                            " client requests x 2: processes x "
                            "bytes_per_process / request_size, summed over the applications)"};
}

Experiment load_experiment(const std::string& path)
{
  return parse_experiment(read_json_input(path, "experiment"), path);
}

} // namespace datasched::forwarding
