#include "interference/hpl.hpp"

#include "transfer.hpp"

#include <algorithm>

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/Host.hpp>

namespace datasched::interference {

namespace sg4 = simgrid::s4u;

namespace {
/// One node's share of an iteration: its cores as the entries of a parallel Exec, each
/// computing flops / cores. Under ptask_L07 each entry is bounded by one core's speed, so
/// the node computes at cores x speed when alone, and a service thread on the node takes
/// one entry's share of it.
sg4::ExecPtr start_node_share(sg4::Host* host, double flops)
{
  const auto cores = static_cast<std::size_t>(host->get_core_count());
  std::vector<sg4::Host*> ranks(cores, host);
  std::vector<double> amounts(cores, flops / static_cast<double>(cores));
  auto exec = sg4::this_actor::exec_init(ranks, amounts, {});
  exec->start();
  return exec;
}
} // namespace

void run_hpl(const HplJob& job, const std::vector<sg4::Host*>& hosts, HplStats& stats)
{
  stats.start         = sg4::Engine::get_clock();
  const std::size_t n = hosts.size();
  for (int it = 0; it < job.iterations; ++it) {
    IterationRecord record;
    record.start = sg4::Engine::get_clock();
    std::vector<sg4::ExecPtr> shares;
    for (auto* host : hosts)
      shares.push_back(start_node_share(host, job.flops_per_iteration));
    // The barrier: every node's share must end; the slowest one (the latest finish,
    // the first such node on ties) sets the iteration's pace.
    double latest = -1;
    for (std::size_t i = 0; i < n; ++i) {
      shares[i]->wait();
      if (shares[i]->get_finish_time() > latest) {
        latest              = shares[i]->get_finish_time();
        record.slowest_node = static_cast<int>(i);
      }
    }
    record.compute_end = sg4::Engine::get_clock();
    if (job.bytes_per_iteration > 0 && n > 1) {
      std::vector<sg4::ExecPtr> ring;
      for (std::size_t i = 0; i < n; ++i)
        ring.push_back(transfer_async(hosts[i], hosts[(i + 1) % n], job.bytes_per_iteration));
      for (auto& c : ring)
        c->wait();
    }
    record.end = sg4::Engine::get_clock();
    stats.iterations.push_back(record);
  }
  stats.end = sg4::Engine::get_clock();
}

double hpl_compute_time_alone(const HplJob& job, const std::vector<sg4::Host*>& hosts)
{
  double slowest = 0;
  for (auto* host : hosts)
    slowest = std::max(slowest, job.flops_per_iteration / (host->get_core_count() * host->get_speed()));
  return slowest * job.iterations;
}

} // namespace datasched::interference
