#include "interference/experiment.hpp"

#include <set>

#include <nlohmann/json.hpp>

#include "common/fatal.hpp"
#include "common/json_file.hpp"
#include "model/input_limits.hpp"
#include "model/json_fields.hpp"

namespace datasched::interference {

namespace {

/// The shared field reader (model/json_fields.hpp) plus what this mode's experiment
/// needs: required values, host lists.
class Fields : public datasched::Fields {
public:
  using datasched::Fields::Fields;

  const nlohmann::json& required(const std::string& key)
  {
    if (!has(key))
      fail(key, "missing (required)");
    return raw(key);
  }

  /// A list of distinct, non-empty host names (may be empty unless `non_empty`).
  std::vector<std::string> hosts(const std::string& key, bool non_empty)
  {
    if (!has(key)) {
      if (non_empty)
        fail(key, "missing (required)");
      return {};
    }
    const auto& v = raw(key);
    if (!v.is_array())
      fail(key, "expected a list of host names, got " + v.dump());
    if (non_empty && v.empty())
      fail(key, "expected at least one host name");
    std::vector<std::string> names;
    std::set<std::string> seen;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!v[i].is_string() || v[i].get<std::string>().empty())
        fail(key, "entry " + std::to_string(i) + ": expected a host name, got " + v[i].dump());
      auto name = v[i].get<std::string>();
      if (!seen.insert(name).second)
        fail(key, "host '" + name + "' is listed twice");
      names.push_back(std::move(name));
    }
    return names;
  }
};

HplJob parse_hpl(const nlohmann::json& doc, const std::string& file)
{
  Fields f(doc, "hpl", file);
  HplJob hpl;
  hpl.hosts      = f.hosts("hosts", true);
  hpl.iterations = f.integer("iterations", 1, IntegerRange<int>{1, limits::kMaxRepetitions, "iterations"}, true);
  hpl.flops_per_iteration = f.number("flops_per_iteration", 0, {0, true, limits::kMaxAmount, "flops per node"}, true);
  hpl.bytes_per_iteration = f.number("bytes_per_iteration", 0, {0, false, limits::kMaxAmount, "bytes per node"});
  f.finish();
  return hpl;
}

IorJob parse_ior(const nlohmann::json& doc, const std::string& file)
{
  Fields f(doc, "ior", file);
  IorJob ior;
  ior.hosts                = f.hosts("hosts", false);
  ior.processes_per_node   = f.integer("processes_per_node", 1, IntegerRange<int>{1, limits::kMaxCount, "processes"});
  ior.transfer_size        = f.integer<std::uint64_t>("transfer_size", 512, {1, limits::kMaxBytes, "bytes"});
  ior.requests_per_batch   = f.integer<std::uint64_t>("requests_per_batch", 1, {1, limits::kMaxBytes, "requests"});
  ior.requests_per_process = f.integer<std::uint64_t>("requests_per_process", 0, {0, limits::kMaxBytes, "requests"});
  ior.sync_bytes           = f.integer<std::uint64_t>("sync_bytes", 0, {0, limits::kMaxBytes, "bytes"});
  ior.metadata_ops_per_request =
      f.number("metadata_ops_per_request", 0, {0, false, limits::kMaxAmount, "operations per request"});
  ior.control_bytes = f.integer<std::uint64_t>("control_bytes", 1, {0, limits::kMaxBytes, "bytes"});
  f.finish();
  return ior;
}

Services parse_services(const nlohmann::json& doc, const std::string& file)
{
  Fields f(doc, "services", file);
  Services s;
  s.storage          = f.hosts("storage", false);
  s.metadata         = f.hosts("metadata", false);
  s.stripe_count     = f.integer("stripe_count", 4, IntegerRange<int>{1, limits::kMaxCount, "storage targets"});
  s.chunk_size       = f.integer<std::uint64_t>("chunk_size", 524288, {1, limits::kMaxBytes, "bytes"});
  s.storage_workers  = f.integer("storage_workers", 12, IntegerRange<int>{1, limits::kMaxCount, "worker threads"});
  s.metadata_workers = f.integer("metadata_workers", 4, IntegerRange<int>{1, limits::kMaxCount, "worker threads"});
  f.finish();
  return s;
}

DaemonCosts parse_costs(const nlohmann::json& doc, const std::string& file)
{
  Fields f(doc, "daemon_costs", file);
  const DaemonCosts c = read_daemon_costs(f, /*with_metadata=*/true, IdleForm::Bursts);
  f.finish();
  return c;
}

NodeMemory parse_memory(const nlohmann::json& doc, const std::string& file)
{
  Fields f(doc, "memory", file);
  NodeMemory m;
  m.enabled            = true;
  m.bandwidth          = f.number("bandwidth", 0, {0, true, limits::kMaxAmount, "bytes per second"}, true);
  m.hpl_bytes_per_flop = f.number("hpl_bytes_per_flop", 0, {0, false, limits::kMaxAmount, "bytes per flop"});
  m.io_copies          = f.number("io_copies", 0, {0, false, limits::kMaxAmount, "copies"});
  f.finish();
  return m;
}

/// The memory traffic of one HPL node's iteration and of a storage service's largest batch
/// must stay within limits::kMaxAmount bytes (they become SimGrid I/O sizes).
void check_memory_amounts(const Experiment& e)
{
  const auto too_much = [&](const std::string& field, const std::string& what, double amount) {
    if (amount > limits::kMaxAmount)
      throw InputError(e.file + ": memory." + field + ": " + what + " must be <= " + format_bound(limits::kMaxAmount) +
                       " bytes, got " + format_bound(amount));
  };
  too_much("hpl_bytes_per_flop", "hpl_bytes_per_flop x hpl.flops_per_iteration",
           e.memory.hpl_bytes_per_flop * e.hpl.flops_per_iteration);
  if (!e.ior.hosts.empty()) {
    // A batch never crosses a chunk: at most chunk_size / transfer_size requests.
    const double per_chunk = static_cast<double>(e.services.chunk_size / e.ior.transfer_size);
    const double device =
        static_cast<double>(e.services.chunk_size) + per_chunk * static_cast<double>(e.ior.sync_bytes);
    too_much("io_copies", "io_copies x a batch's device bytes (" + format_bound(device) + ")",
             e.memory.io_copies * device);
  }
}

SimgridModel parse_model(Fields& top)
{
  if (!top.has("simgrid_model"))
    return SimgridModel::PtaskL07;
  const auto& v = top.raw("simgrid_model");
  for (auto model : {SimgridModel::PtaskL07, SimgridModel::Cas01Cm02})
    if (v == to_string(model))
      return model;
  top.fail("simgrid_model", "expected \"ptask_L07\" or \"cas01_cm02\", got " + v.dump());
}

} // namespace

Experiment parse_experiment(const nlohmann::json& doc, const std::string& file)
{
  Experiment e;
  e.file = file;
  Fields top(doc, "", file);
  e.seed     = top.integer<std::uint64_t>("seed", 0, {0, limits::kMaxSeed});
  e.model    = parse_model(top);
  e.hpl      = parse_hpl(top.required("hpl"), file);
  e.ior      = top.has("ior") ? parse_ior(top.raw("ior"), file) : IorJob{};
  e.services = top.has("services") ? parse_services(top.raw("services"), file) : Services{};
  e.costs    = top.has("daemon_costs") ? parse_costs(top.raw("daemon_costs"), file) : DaemonCosts{};
  e.memory   = top.has("memory") ? parse_memory(top.raw("memory"), file) : NodeMemory{};
  top.finish();

  if (!e.ior.hosts.empty()) {
    if (e.services.storage.empty())
      throw InputError(file + ": services.storage: the IOR job writes, but no host runs a storage service");
    if (e.services.metadata.empty())
      throw InputError(file + ": services.metadata: the IOR job creates files, but no host runs a metadata service");
    if (e.services.chunk_size % e.ior.transfer_size != 0)
      throw InputError(file + ": services.chunk_size: must be a multiple of ior.transfer_size (" +
                       std::to_string(e.ior.transfer_size) + "), got " + std::to_string(e.services.chunk_size));
    // A batch of up to chunk_size / transfer_size requests costs that many times sync_bytes
    // on the device: the product must stay within 64 bits.
    const std::uint64_t per_chunk = e.services.chunk_size / e.ior.transfer_size;
    if (e.ior.sync_bytes > 0 && per_chunk > limits::kMaxBytes / e.ior.sync_bytes)
      throw InputError(file +
                       ": ior.sync_bytes: (services.chunk_size / ior.transfer_size) x ior.sync_bytes must be <= " +
                       std::to_string(limits::kMaxBytes) + ", got " + std::to_string(per_chunk) + " x " +
                       std::to_string(e.ior.sync_bytes));
  }
  if (e.memory.enabled)
    check_memory_amounts(e);
  std::set<std::string> hpl_hosts(e.hpl.hosts.begin(), e.hpl.hosts.end());
  for (const auto& h : e.ior.hosts)
    if (hpl_hosts.count(h))
      throw InputError(file + ": ior.hosts: host '" + h +
                       "' also runs the HPL job (the two jobs run on disjoint sets of nodes)");
  return e;
}

Experiment load_experiment(const std::string& path)
{
  return parse_experiment(read_json_input(path, "experiment"), path);
}

} // namespace datasched::interference
