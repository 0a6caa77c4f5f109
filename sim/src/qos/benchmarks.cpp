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

/// The OSU pattern shared by the per-size benchmarks: for each size, `warmup` untimed
/// rounds, then `iterations` timed ones; `value(size, elapsed)` turns the timed span into
/// the row's latency or bandwidth.
template <typename Round, typename Value>
std::vector<BenchmarkRow> per_size_rows(const Benchmark& b, Round round, Value value)
{
  std::vector<BenchmarkRow> rows;
  for (double size : b.sizes) {
    for (int i = 0; i < b.warmup; ++i)
      round(size);
    BenchmarkRow row;
    row.size       = size;
    row.iterations = b.iterations;
    row.start      = now();
    for (int i = 0; i < b.iterations; ++i)
      round(size);
    row.end   = now();
    row.value = value(size, row.end - row.start);
    rows.push_back(row);
  }
  return rows;
}

/// osu_bw's window from `from` to `to`: `window` messages one after the other, then the
/// receiver's ack.
void one_window(const Benchmark& b, sg4::Host* from, sg4::Host* to, double size, FlowLauncher& flows)
{
  for (int m = 0; m < b.window; ++m)
    flows.transfer(from, to, size, b.sl);
  flows.transfer(to, from, b.ack_bytes, b.sl);
}

/// osu_bibw's round: both ranks send their window at the same time (the peer's in an actor
/// of its own, as its queue pair is independent), each then acks the other's.
void both_windows(const Benchmark& b, sg4::Host* a, sg4::Host* c, double size, FlowLauncher& flows)
{
  auto peer = sg4::Actor::create("bibw-peer", c, [&b, a, c, size, &flows]() { one_window(b, c, a, size, flows); });
  one_window(b, a, c, size, flows);
  peer->join();
}

/// One allreduce of `size` bytes over `hosts` (2^k of them; qos/experiment.hpp).
void allreduce(const Benchmark& b, const std::vector<sg4::Host*>& hosts, double size, FlowLauncher& flows)
{
  const std::size_t n = hosts.size();
  auto exchange       = [&](std::size_t distance, double bytes) {
    std::vector<FlowSpec> round;
    round.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
      round.push_back({hosts[i], hosts[i ^ distance], bytes, b.sl});
    flows.transfer_all(round);
  };
  if (resolve(b.allreduce, size) == AllreduceAlgorithm::RecursiveDoubling) {
    for (std::size_t d = 1; d < n; d <<= 1)
      exchange(d, size);
    return;
  }
  double part = size; // reduce-scatter by halving, then allgather by doubling
  std::vector<std::pair<std::size_t, double>> rounds;
  for (std::size_t d = n >> 1; d >= 1; d >>= 1) {
    part /= 2;
    rounds.emplace_back(d, part);
  }
  for (const auto& [d, bytes] : rounds)
    exchange(d, bytes);
  for (auto it = rounds.rbegin(); it != rounds.rend(); ++it)
    exchange(it->first, it->second);
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
    case BenchmarkKind::Bibw:
      return {{0, 1}, {1, 0}};
    case BenchmarkKind::Stencil:
      return stencil_pairs(b.grid);
    case BenchmarkKind::Alltoall:
    case BenchmarkKind::Allreduce: // every pair of a power-of-two set meets in some round
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
  auto per_iteration = [&b](double, double elapsed) { return elapsed / b.iterations; };
  switch (b.kind) {
    case BenchmarkKind::Latency:
      return per_size_rows(
          b,
          [&](double size) {
            flows.transfer(hosts[0], hosts[1], size, b.sl);
            flows.transfer(hosts[1], hosts[0], size, b.sl);
          },
          [&b](double, double elapsed) { return elapsed / (2.0 * b.iterations); });
    case BenchmarkKind::Bandwidth:
      return per_size_rows(
          b, [&](double size) { one_window(b, hosts[0], hosts[1], size, flows); },
          [&b](double size, double elapsed) { return size * b.window * b.iterations / elapsed; });
    case BenchmarkKind::Bibw:
      return per_size_rows(
          b, [&](double size) { both_windows(b, hosts[0], hosts[1], size, flows); },
          [&b](double size, double elapsed) { return 2.0 * size * b.window * b.iterations / elapsed; });
    case BenchmarkKind::Alltoall: {
      const auto pairs = benchmark_pairs(b);
      return per_size_rows(
          b,
          [&](double size) {
            std::vector<FlowSpec> exchange;
            exchange.reserve(pairs.size());
            for (const auto& [src, dst] : pairs)
              exchange.push_back(
                  {hosts[static_cast<std::size_t>(src)], hosts[static_cast<std::size_t>(dst)], size, b.sl});
            flows.transfer_all(exchange);
          },
          per_iteration);
    }
    case BenchmarkKind::Allreduce:
      return per_size_rows(
          b, [&](double size) { allreduce(b, hosts, size, flows); }, per_iteration);
    case BenchmarkKind::Stencil:
      return {bulk_synchronous(b, hosts, benchmark_pairs(b), b.halo_bytes, flows)};
    case BenchmarkKind::Cg:
      return {bulk_synchronous(b, hosts, benchmark_pairs(b), b.exchange_bytes, flows)};
  }
  return {};
}

} // namespace datasched::qos
