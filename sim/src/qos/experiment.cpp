#include "qos/experiment.hpp"
#include "services/staging_layer.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/fatal.hpp"
#include "common/json_file.hpp"
#include "model/input_limits.hpp"
#include "model/json_fields.hpp"

namespace datasched::qos {

std::string to_string(BenchmarkKind kind)
{
  switch (kind) {
    case BenchmarkKind::Latency:
      return "latency";
    case BenchmarkKind::Bandwidth:
      return "bandwidth";
    case BenchmarkKind::Bibw:
      return "bibw";
    case BenchmarkKind::Alltoall:
      return "alltoall";
    case BenchmarkKind::Allreduce:
      return "allreduce";
    case BenchmarkKind::Stencil:
      return "stencil";
    case BenchmarkKind::Cg:
      return "cg";
  }
  return "?";
}

bool per_size(BenchmarkKind kind)
{
  return kind != BenchmarkKind::Stencil && kind != BenchmarkKind::Cg;
}

bool reports_bandwidth(BenchmarkKind kind)
{
  return kind == BenchmarkKind::Bandwidth || kind == BenchmarkKind::Bibw;
}

std::string to_string(AllreduceAlgorithm algorithm)
{
  switch (algorithm) {
    case AllreduceAlgorithm::Auto:
      return "auto";
    case AllreduceAlgorithm::RecursiveDoubling:
      return "recursive_doubling";
    case AllreduceAlgorithm::Rabenseifner:
      return "rabenseifner";
  }
  return "?";
}

AllreduceAlgorithm resolve(AllreduceAlgorithm algorithm, double size)
{
  if (algorithm != AllreduceAlgorithm::Auto)
    return algorithm;
  return size <= 2048 ? AllreduceAlgorithm::RecursiveDoubling : AllreduceAlgorithm::Rabenseifner;
}

namespace {

/// Bytes of a message, a transfer, a buffer: 10^12 (a terabyte), as before issue 32.
constexpr double kMaxBytes = 1e12;

std::string host_name(Fields& f, const std::string& key, bool required)
{
  if (!f.has(key)) {
    if (required)
      f.fail(key, "missing (required)");
    return "";
  }
  const auto& v = f.raw(key);
  if (!v.is_string() || v.get<std::string>().empty())
    f.fail(key, "expected a host name, got " + v.dump());
  return v.get<std::string>();
}

std::vector<std::string> host_list(Fields& f, const std::string& key, std::size_t min_size)
{
  if (!f.has(key))
    f.fail(key, "missing (required)");
  const auto& v = f.raw(key);
  if (!v.is_array() || v.size() < min_size)
    f.fail(key, "expected a list of at least " + std::to_string(min_size) + " host names, got " + v.dump());
  std::vector<std::string> hosts;
  for (const auto& h : v) {
    if (!h.is_string() || h.get<std::string>().empty())
      f.fail(key, "expected host names, got " + h.dump());
    hosts.push_back(h.get<std::string>());
  }
  return hosts;
}

int service_level(Fields& f, const std::string& key)
{
  if (!f.has(key))
    return 0;
  const auto& v = f.raw(key);
  if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() >= kServiceLevels)
    f.fail(key, "the service level must be an integer 0-15, got " + v.dump());
  return static_cast<int>(v.get<long long>()); // checked: 0-15
}

/// OpenSM's "vl:weight,vl:weight,..." (qos_ca_vlarb_high / _low). VLs not listed weigh 0.
std::array<double, kVirtualLanes> weight_table(Fields& f, const std::string& key,
                                               const std::array<double, kVirtualLanes>& fallback)
{
  if (!f.has(key))
    return fallback;
  const auto& v = f.raw(key);
  if (!v.is_string())
    f.fail(key, "expected OpenSM's \"vl:weight,...\" string, got " + v.dump());
  std::array<double, kVirtualLanes> table{};
  std::stringstream items(v.get<std::string>());
  std::string item;
  while (std::getline(items, item, ',')) {
    const auto colon = item.find(':');
    int vl           = -1;
    double weight    = -1;
    try {
      std::size_t used = 0;
      vl               = std::stoi(item.substr(0, colon), &used);
      if (colon == std::string::npos || used != colon)
        vl = -1;
      weight = std::stod(item.substr(colon + 1), &used);
      if (used != item.size() - colon - 1)
        weight = -1;
    } catch (const std::exception&) {
      vl = -1;
    }
    if (vl < 0 || vl >= kVirtualLanes || vl == kManagementLane || !(weight >= 0) || weight > 255)
      f.fail(key, "expected vl:weight with VL 0-14 and weight 0-255, got '" + item + "'");
    table[static_cast<std::size_t>(vl)] = weight;
  }
  return table;
}

ArbitrationTable parse_arbitration(const nlohmann::json& doc, const std::string& file)
{
  Fields f(doc, "arbitration", file);
  ArbitrationTable t = ArbitrationTable::paper_default();
  if (f.has("sl2vl")) {
    const auto& v = f.raw("sl2vl");
    std::vector<int> lanes;
    std::stringstream items(v.is_string() ? v.get<std::string>() : std::string());
    std::string item;
    while (v.is_string() && std::getline(items, item, ',')) {
      try {
        std::size_t used = 0;
        const int vl     = std::stoi(item, &used);
        lanes.push_back(used == item.size() ? vl : -1);
      } catch (const std::exception&) {
        lanes.push_back(-1);
      }
    }
    if (!v.is_string() || lanes.size() != kServiceLevels)
      f.fail("sl2vl", "expected OpenSM's qos_ca_sl2vl: 16 comma-separated VLs, got " + v.dump());
    for (int sl = 0; sl < kServiceLevels; ++sl) {
      const int vl = lanes[static_cast<std::size_t>(sl)];
      if (vl < 0 || vl >= kVirtualLanes)
        f.fail("sl2vl", "SL" + std::to_string(sl) + ": expected a VL 0-15, got " + v.dump());
      t.sl2vl[static_cast<std::size_t>(sl)] = vl;
    }
  }
  t.high_weight               = weight_table(f, "vlarb_high", t.high_weight);
  t.low_weight                = weight_table(f, "vlarb_low", t.low_weight);
  t.granularity               = f.number("granularity", t.granularity, {0, true, kMaxBytes, "bytes"});
  t.across_tables_by_priority = f.choice("across_tables", "pieces", {"pieces", "priority"}) == "priority";
  t.high_limit = f.integer("high_limit", t.high_limit, IntegerRange<int>{0, 255, "4 KiB bursts; 255: unbounded"});
  t.mtu        = f.number("mtu", t.mtu, {0, true, 65536, "bytes"});
  f.finish();
  t.check(file + ": arbitration");
  return t;
}

Staging parse_staging(const nlohmann::json& doc, const std::string& file)
{
  Fields f(doc, "staging", file);
  Staging s;
  s.where  = file + ": staging";
  s.server = host_name(f, "server", true);
  s.disk   = host_name(f, "disk", false);
  s.port   = host_name(f, "port", true);
  s.pfs    = host_name(f, "pfs", true);
  s.params = read_staging_params(f, s.capacity, kMaxBytes);
  f.finish();
  return s;
}

Noise parse_noise(const nlohmann::json& doc, const std::string& file)
{
  Fields f(doc, "noise", file);
  Noise n;
  n.writers    = host_list(f, "writers", 1);
  n.sl         = service_level(f, "sl");
  n.block_size = f.number("block_size", n.block_size, {0, true, kMaxBytes, "bytes"});
  n.start      = f.number("start", 0, {0, false, limits::kMaxSeconds, "seconds"});
  n.jitter     = f.number("jitter", 0, {0, false, limits::kMaxSeconds, "seconds"});
  f.finish();
  return n;
}

Write parse_write(const nlohmann::json& doc, const std::string& where, const std::string& file)
{
  Fields f(doc, where, file);
  Write w;
  w.host       = host_name(f, "host", true);
  w.bytes      = f.number("bytes", 0, {0, true, kMaxBytes, "bytes"}, true);
  w.block_size = f.number("block_size", w.block_size, {0, true, kMaxBytes, "bytes"});
  w.sl         = service_level(f, "sl");
  w.start      = f.number("start", 0, {0, false, limits::kMaxSeconds, "seconds"});
  f.finish();
  return w;
}

Transfer parse_transfer(const nlohmann::json& doc, const std::string& where, const std::string& file, std::size_t index)
{
  Fields f(doc, where, file);
  Transfer t;
  t.name = f.has("name") ? host_name(f, "name", false) : "t" + std::to_string(index);
  t.src  = host_name(f, "src", true);
  t.dst  = host_name(f, "dst", true);
  if (t.src == t.dst)
    f.fail("dst", "must differ from src ('" + t.src + "'): a flow needs a network route");
  t.bytes = f.number("bytes", 0, {0, true, kMaxBytes, "bytes"}, true);
  t.sl    = service_level(f, "sl");
  t.start = f.number("start", 0, {0, false, limits::kMaxSeconds, "seconds"});
  f.finish();
  return t;
}

Benchmark parse_benchmark(const nlohmann::json& doc, const std::string& file)
{
  Fields f(doc, "benchmark", file);
  Benchmark b;
  const auto kind =
      f.choice("kind", "", {"latency", "bandwidth", "bibw", "alltoall", "allreduce", "stencil", "cg"}, true);
  for (auto k : {BenchmarkKind::Latency, BenchmarkKind::Bandwidth, BenchmarkKind::Bibw, BenchmarkKind::Alltoall,
                 BenchmarkKind::Allreduce, BenchmarkKind::Stencil, BenchmarkKind::Cg})
    if (to_string(k) == kind)
      b.kind = k;
  b.sl            = service_level(f, "sl");
  b.start         = f.number("start", 0, {0, false, limits::kMaxSeconds, "seconds"});
  b.iterations    = f.integer("iterations", b.iterations, IntegerRange<int>{1, limits::kMaxRepetitions, "iterations"});
  const bool pair = b.kind == BenchmarkKind::Latency || reports_bandwidth(b.kind);
  b.hosts         = host_list(f, "hosts", 2);
  if (pair && (b.hosts.size() != 2 || b.hosts[0] == b.hosts[1]))
    f.fail("hosts", "a point-to-point benchmark needs two distinct hosts");
  if (!pair) {
    std::set<std::string> distinct(b.hosts.begin(), b.hosts.end());
    if (distinct.size() != b.hosts.size())
      f.fail("hosts", "every node must appear once");
  }
  if (per_size(b.kind)) {
    if (!f.has("sizes"))
      f.fail("sizes", "missing (required)");
    const auto& sizes = f.raw("sizes");
    if (!sizes.is_array() || sizes.empty())
      f.fail("sizes", "expected a non-empty list of message sizes in bytes");
    for (const auto& s : sizes) {
      if (!s.is_number() || !(s.get<double>() > 0) || s.get<double>() > kMaxBytes)
        f.fail("sizes",
               "message sizes must be numbers > 0 and <= " + format_bound(kMaxBytes) + " (bytes), got " + s.dump());
      b.sizes.push_back(s.get<double>());
    }
    b.warmup = f.integer("warmup", b.warmup, IntegerRange<int>{0, limits::kMaxRepetitions, "iterations"});
    if (reports_bandwidth(b.kind)) {
      b.window    = f.integer("window", b.window, IntegerRange<int>{1, limits::kMaxRepetitions, "messages"});
      b.ack_bytes = f.number("ack_bytes", b.ack_bytes, {0, true, kMaxBytes, "bytes"});
    }
    if (b.kind == BenchmarkKind::Allreduce) {
      const auto n = b.hosts.size();
      if ((n & (n - 1)) != 0)
        f.fail("hosts", "an allreduce needs a power-of-two number of nodes (recursive doubling and halving), got " +
                            std::to_string(n));
      const auto algorithm = f.choice("algorithm", "auto", {"auto", "recursive_doubling", "rabenseifner"});
      for (auto a : {AllreduceAlgorithm::Auto, AllreduceAlgorithm::RecursiveDoubling, AllreduceAlgorithm::Rabenseifner})
        if (to_string(a) == algorithm)
          b.allreduce = a;
    }
  } else {
    b.compute_seconds = f.number("compute_seconds", 0, {0, false, limits::kMaxSeconds, "seconds"});
    if (b.kind == BenchmarkKind::Stencil) {
      if (!f.has("grid"))
        f.fail("grid", "missing (required)");
      const auto& g = f.raw("grid");
      if (!g.is_array() || g.size() != 3)
        f.fail("grid", "expected [nx, ny, nz] nodes, got " + g.dump());
      long long product = 1;
      for (const auto& d : g) {
        if (!d.is_number_integer() || d.get<long long>() < 1 || d.get<long long>() > 1024)
          f.fail("grid", "expected three integers 1-1024, got " + g.dump());
        product *= d.get<long long>();
        b.grid.push_back(static_cast<int>(d.get<long long>())); // checked: 1-1024
      }
      if (product != static_cast<long long>(b.hosts.size()))
        f.fail("grid", "nx x ny x nz = " + std::to_string(product) + " nodes, but hosts lists " +
                           std::to_string(b.hosts.size()));
      b.halo_bytes = f.number("halo_bytes", 0, {0, true, kMaxBytes, "bytes"}, true);
    } else {
      b.exchange_bytes = f.number("exchange_bytes", 0, {0, true, kMaxBytes, "bytes"}, true);
    }
  }
  f.finish();
  return b;
}

} // namespace

Experiment parse_experiment(const nlohmann::json& doc, const std::string& file)
{
  Experiment e;
  e.file = file;
  Fields top(doc, "", file);
  e.seed = top.integer<std::uint64_t>("seed", 0, {0, limits::kMaxSeed});
  if (top.has("arbitration"))
    e.arbitration = parse_arbitration(top.raw("arbitration"), file);
  if (top.has("staging"))
    e.staging = parse_staging(top.raw("staging"), file);
  if (top.has("noise"))
    e.noise = parse_noise(top.raw("noise"), file);
  if (top.has("writes")) {
    const auto& list = top.raw("writes");
    if (!list.is_array())
      top.fail("writes", "expected a list");
    for (std::size_t i = 0; i < list.size(); ++i)
      e.writes.push_back(parse_write(list[i], "writes[" + std::to_string(i) + "]", file));
  }
  if (top.has("transfers")) {
    const auto& list = top.raw("transfers");
    if (!list.is_array())
      top.fail("transfers", "expected a list");
    std::set<std::string> names;
    for (std::size_t i = 0; i < list.size(); ++i) {
      e.transfers.push_back(parse_transfer(list[i], "transfers[" + std::to_string(i) + "]", file, i));
      if (!names.insert(e.transfers.back().name).second)
        top.fail("transfers[" + std::to_string(i) + "].name", "duplicate name '" + e.transfers.back().name + "'");
    }
  }
  if (top.has("benchmark"))
    e.benchmark = parse_benchmark(top.raw("benchmark"), file);
  top.finish();
  if ((e.noise || !e.writes.empty()) && !e.staging)
    top.fail("staging", "missing (required by noise and writes: where do they write?)");
  if (!e.benchmark && e.writes.empty() && e.transfers.empty())
    top.fail("", "nothing to run: give a benchmark, writes or transfers");
  if (e.noise && !e.benchmark)
    top.fail("noise", "noise runs until the benchmark ends: give a benchmark");
  // Every SL used must carry data under this table (not VL15, some weight).
  const auto check_sl = [&](int sl, const std::string& field) {
    e.arbitration.is_high(sl, file + ": " + field);
    e.used_service_levels.insert(sl);
  };
  if (e.noise)
    check_sl(e.noise->sl, "noise.sl");
  for (std::size_t i = 0; i < e.writes.size(); ++i)
    check_sl(e.writes[i].sl, "writes[" + std::to_string(i) + "].sl");
  for (std::size_t i = 0; i < e.transfers.size(); ++i)
    check_sl(e.transfers[i].sl, "transfers[" + std::to_string(i) + "].sl");
  if (e.benchmark)
    check_sl(e.benchmark->sl, "benchmark.sl");
  return e;
}

RunCost benchmark_cost(const Experiment& e)
{
  if (!e.benchmark)
    return {};
  const Benchmark& b  = *e.benchmark;
  const double rounds = static_cast<double>(b.iterations);
  const double nodes  = static_cast<double>(b.hosts.size());
  switch (b.kind) {
    case BenchmarkKind::Latency:
    case BenchmarkKind::Bandwidth:
    case BenchmarkKind::Bibw:
    case BenchmarkKind::Alltoall:
    case BenchmarkKind::Allreduce: {
      double per_round = 2; // latency: a round trip
      if (reports_bandwidth(b.kind))
        per_round = (b.kind == BenchmarkKind::Bibw ? 2.0 : 1.0) * (static_cast<double>(b.window) + 1);
      else if (b.kind == BenchmarkKind::Alltoall)
        per_round = nodes * (nodes - 1);
      else if (b.kind == BenchmarkKind::Allreduce)
        per_round = nodes * std::log2(nodes); // recursive doubling; Rabenseifner twice that
      const double sizes = static_cast<double>(b.sizes.size());
      return {(rounds + b.warmup) * sizes * per_round,
              "messages ((warmup + iterations) " + format_estimate(rounds + b.warmup) + " x " + format_estimate(sizes) +
                  " sizes x " + format_estimate(per_round) + " per round)"};
    }
    case BenchmarkKind::Stencil:
      return {rounds * nodes,
              "node steps (" + format_estimate(rounds) + " iterations x " + format_estimate(nodes) + " nodes)"};
    case BenchmarkKind::Cg:
      return {rounds * nodes * std::max(1.0, nodes - 1),
              "messages (" + format_estimate(rounds) + " iterations x " + format_estimate(nodes) + " x " +
                  format_estimate(std::max(1.0, nodes - 1)) + " node pairs)"};
  }
  return {};
}

Experiment load_experiment(const std::string& path)
{
  return parse_experiment(read_json_input(path, "experiment"), path);
}

} // namespace datasched::qos
