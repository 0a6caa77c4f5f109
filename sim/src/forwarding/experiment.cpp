#include "forwarding/experiment.hpp"

#include <cmath>
#include <limits>
#include <set>

#include <nlohmann/json.hpp>

#include "fatal.hpp"
#include "model/json_fields.hpp"
#include "model/workload.hpp"

namespace datasched::forwarding {

std::string to_string(Operation op)
{
  return op == Operation::Read ? "read" : "write";
}

std::string to_string(AccessPattern pattern)
{
  switch (pattern) {
    case AccessPattern::FilePerProcess:
      return "file_per_process";
    case AccessPattern::SharedStrided:
      return "shared_strided";
    case AccessPattern::SharedContiguous:
      return "shared_contiguous";
  }
  return "?";
}

std::string to_string(SchedulerKind kind)
{
  switch (kind) {
    case SchedulerKind::Fifo:
      return "fifo";
    case SchedulerKind::Hbrr:
      return "hbrr";
    case SchedulerKind::Twins:
      return "twins";
  }
  return "?";
}

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
  app.processes    = static_cast<int>(f.integer("processes", 0, 1, true));
  auto pattern     = f.choice("pattern", "", {"file_per_process", "shared_strided", "shared_contiguous"}, true);
  app.pattern      = pattern == "file_per_process" ? AccessPattern::FilePerProcess
                     : pattern == "shared_strided" ? AccessPattern::SharedStrided
                                                   : AccessPattern::SharedContiguous;
  app.operation    = f.choice("operation", "", {"read", "write"}, true) == "read" ? Operation::Read : Operation::Write;
  app.request_size = static_cast<std::uint64_t>(f.integer("request_size", 0, 1, true));
  app.bytes_per_process = static_cast<std::uint64_t>(f.integer("bytes_per_process", 0, 1, true));
  if (app.bytes_per_process % app.request_size != 0)
    f.fail("bytes_per_process", "must be a multiple of request_size (" + std::to_string(app.request_size) + "), got " +
                                    std::to_string(app.bytes_per_process));
  app.start  = f.number("start", 0, 0, false);
  app.jitter = f.number("jitter", 0, 0, false);
  f.finish();
  return app;
}

} // namespace

Experiment parse_experiment(const nlohmann::json& doc, const std::string& file)
{
  Experiment e;
  e.file = file;
  Fields top(doc, "", file);
  e.seed          = static_cast<std::uint64_t>(top.integer("seed", 0, 0));
  e.forwarded     = top.choice("mode", "", {"forwarded", "direct"}, true) == "forwarded";
  e.control_bytes = static_cast<std::uint64_t>(top.integer("control_bytes", 1, 0));

  if (!top.has("clients"))
    top.fail("clients", "missing (required)");
  {
    Fields f(top.raw("clients"), "clients", file);
    e.client_nodes       = static_cast<int>(f.integer("nodes", 0, 1, true));
    e.processes_per_node = static_cast<int>(f.integer("processes_per_node", 1, 1));
    f.finish();
  }

  if (!top.has("servers"))
    top.fail("servers", "missing (required)");
  {
    Fields f(top.raw("servers"), "servers", file);
    e.servers.count = static_cast<int>(f.integer("count", 0, 1, true));
    if (f.has("stripe_size")) {
      const auto& v = f.raw("stripe_size");
      if (!v.is_number_integer() || v.get<long long>() <= 0)
        f.fail("stripe_size", "must be an integer > 0 (bytes), got " + v.dump());
    }
    e.servers.stripe_size    = static_cast<std::uint64_t>(f.integer("stripe_size", 65536, 1));
    e.servers.hdd_alpha      = f.number("hdd_alpha", 0, 0, false);
    e.servers.hdd_seek_scale = f.number("hdd_seek_scale", 0, 0, false);
    f.finish();
  }

  if (e.forwarded) {
    if (!top.has("forwarding"))
      top.fail("forwarding", "missing (required when mode is \"forwarded\")");
    Fields f(top.raw("forwarding"), "forwarding", file);
    auto& fw      = e.forwarding;
    fw.forwarders = static_cast<int>(f.integer("forwarders", 0, 1, true));
    auto sched    = f.choice("scheduler", "", {"fifo", "hbrr", "twins"}, true);
    fw.scheduler = sched == "fifo" ? SchedulerKind::Fifo : sched == "hbrr" ? SchedulerKind::Hbrr : SchedulerKind::Twins;
    if (f.has("window")) {
      const auto& v = f.raw("window");
      if (!v.is_number() || !(v.get<double>() > 0))
        f.fail("window", "must be a number > 0 (seconds), got " + v.dump());
      // Window indices are now / window in a double: a window under 1 ns would lose them.
      if (v.get<double>() < 1e-9)
        f.fail("window", "must be at least 1e-9 s (1 ns), got " + v.dump());
    }
    fw.window            = f.number("window", 0.001, 0, true);
    fw.max_in_flight     = static_cast<int>(f.integer("max_in_flight", 16, 1));
    fw.aggregation_limit = static_cast<int>(f.integer("aggregation_limit", 16, 1));
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
          fw.explicit_mapping.push_back(static_cast<int>(fwd));
        }
      } else {
        f.fail("mapping",
               "expected \"block\", \"round_robin\" or a list of forwarder indices or host names, got " + m.dump());
      }
    }
    f.finish();
    if (fw.mapping == ClientMapping::Explicit && static_cast<int>(fw.explicit_mapping.size()) != e.client_nodes)
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

Experiment load_experiment(const std::string& path)
{
  nlohmann::json doc;
  try {
    doc = read_json_file(path);
  } catch (const InputError& e) {
    throw InputError(std::string("experiment: ") + e.what());
  }
  return parse_experiment(doc, path);
}

} // namespace datasched::forwarding
