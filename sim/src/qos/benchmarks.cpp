#include "qos/benchmarks.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>

namespace datasched::qos {

namespace sg4 = simgrid::s4u;

namespace {

double now()
{
  return sg4::Engine::get_clock();
}

std::vector<BenchmarkRow> latency(const Benchmark& b, sg4::Host* a, sg4::Host* c, FlowLauncher& flows)
{
  std::vector<BenchmarkRow> rows;
  for (double size : b.sizes) {
    for (int i = 0; i < b.warmup; ++i) {
      flows.transfer(a, c, size, b.sl);
      flows.transfer(c, a, size, b.sl);
    }
    BenchmarkRow row;
    row.size       = size;
    row.iterations = b.iterations;
    row.start      = now();
    for (int i = 0; i < b.iterations; ++i) {
      flows.transfer(a, c, size, b.sl);
      flows.transfer(c, a, size, b.sl);
    }
    row.end   = now();
    row.value = (row.end - row.start) / (2.0 * b.iterations);
    rows.push_back(row);
  }
  return rows;
}

std::vector<BenchmarkRow> bandwidth(const Benchmark& b, sg4::Host* a, sg4::Host* c, FlowLauncher& flows)
{
  std::vector<BenchmarkRow> rows;
  auto one_window = [&](double size) {
    for (int m = 0; m < b.window; ++m)
      flows.transfer(a, c, size, b.sl);
    flows.transfer(c, a, b.ack_bytes, b.sl);
  };
  for (double size : b.sizes) {
    for (int i = 0; i < b.warmup; ++i)
      one_window(size);
    BenchmarkRow row;
    row.size       = size;
    row.iterations = b.iterations;
    row.start      = now();
    for (int i = 0; i < b.iterations; ++i)
      one_window(size);
    row.end   = now();
    row.value = size * b.window * b.iterations / (row.end - row.start);
    rows.push_back(row);
  }
  return rows;
}

/// compute, then all the exchange's flows at once; `pairs` are (source, destination).
BenchmarkRow bulk_synchronous(const Benchmark& b, const std::vector<sg4::Host*>& hosts,
                              const std::vector<std::pair<int, int>>& pairs, double bytes, FlowLauncher& flows)
{
  BenchmarkRow row;
  row.iterations = b.iterations;
  row.start      = now();
  for (int it = 0; it < b.iterations; ++it) {
    const double t0 = now();
    if (b.compute_seconds > 0)
      sg4::this_actor::sleep_for(b.compute_seconds);
    const double t1 = now();
    std::vector<FlowSpec> exchange;
    exchange.reserve(pairs.size());
    for (const auto& [src, dst] : pairs)
      exchange.push_back({hosts[static_cast<std::size_t>(src)], hosts[static_cast<std::size_t>(dst)], bytes, b.sl});
    flows.transfer_all(exchange);
    row.compute += t1 - t0;
    row.communicate += now() - t1;
  }
  row.end   = now();
  row.value = row.end - row.start;
  return row;
}

} // namespace

std::vector<std::pair<int, int>> stencil_pairs(const std::vector<int>& grid)
{
  const int nx = grid[0], ny = grid[1], nz = grid[2];
  std::vector<std::pair<int, int>> pairs;
  auto index = [&](int x, int y, int z) { return x + nx * (y + ny * z); };
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        const int me = index(x, y, z);
        if (x > 0)
          pairs.emplace_back(me, index(x - 1, y, z));
        if (x + 1 < nx)
          pairs.emplace_back(me, index(x + 1, y, z));
        if (y > 0)
          pairs.emplace_back(me, index(x, y - 1, z));
        if (y + 1 < ny)
          pairs.emplace_back(me, index(x, y + 1, z));
        if (z > 0)
          pairs.emplace_back(me, index(x, y, z - 1));
        if (z + 1 < nz)
          pairs.emplace_back(me, index(x, y, z + 1));
      }
  return pairs;
}

std::vector<std::pair<int, int>> benchmark_pairs(const Benchmark& b)
{
  switch (b.kind) {
    case BenchmarkKind::Latency:
    case BenchmarkKind::Bandwidth:
      return {{0, 1}, {1, 0}};
    case BenchmarkKind::Stencil:
      return stencil_pairs(b.grid);
    case BenchmarkKind::Cg:
      break;
  }
  std::vector<std::pair<int, int>> pairs;
  const int n = static_cast<int>(b.hosts.size());
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (i != j)
        pairs.emplace_back(i, j);
  return pairs;
}

std::vector<BenchmarkRow> run_benchmark(const Benchmark& b, const std::vector<sg4::Host*>& hosts, FlowLauncher& flows)
{
  sg4::this_actor::sleep_until(b.start);
  switch (b.kind) {
    case BenchmarkKind::Latency:
      return latency(b, hosts[0], hosts[1], flows);
    case BenchmarkKind::Bandwidth:
      return bandwidth(b, hosts[0], hosts[1], flows);
    case BenchmarkKind::Stencil:
      return {bulk_synchronous(b, hosts, benchmark_pairs(b), b.halo_bytes, flows)};
    case BenchmarkKind::Cg:
      return {bulk_synchronous(b, hosts, benchmark_pairs(b), b.exchange_bytes, flows)};
  }
  return {};
}

} // namespace datasched::qos
