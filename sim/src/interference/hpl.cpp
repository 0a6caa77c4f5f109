#include "interference/hpl.hpp"

#include "common/transfer.hpp"

#include <algorithm>

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Io.hpp>

namespace datasched::interference {

namespace sg4 = simgrid::s4u;

namespace {
/// One node's share of an iteration: its cores' rank threads, each computing flops / cores.
/// ptask_L07: one parallel Exec whose entries are the cores (each entry bounded by one
/// core's speed). cas01_cm02: one single-host Exec per core (Cas01 bounds each by one
/// core and shares the host's cores x speed between all its execs). Either way the node
/// computes at cores x speed when alone, and a service thread on the node takes one
/// rank's share of it. With a memory resource, each rank also streams its share of the
/// node's memory bytes (one I/O activity per rank, so that C rank streams and k service
/// streams share BW_m as C rank threads and k service threads share the cores).
std::vector<sg4::ActivityPtr> start_node_share(sg4::Host* host, double flops, SimgridModel model, double memory_bytes,
                                               sg4::Disk* memory)
{
  const auto cores      = static_cast<std::size_t>(host->get_core_count());
  const double per_rank = flops / static_cast<double>(cores);
  std::vector<sg4::ActivityPtr> ranks;
  if (model == SimgridModel::PtaskL07) {
    std::vector<sg4::Host*> where(cores, host);
    ranks.push_back(sg4::this_actor::exec_init(where, std::vector<double>(cores, per_rank), {}));
  } else {
    // Not host->exec_async(): it would run on the calling actor's host (services.cpp).
    for (std::size_t r = 0; r < cores; ++r)
      ranks.push_back(sg4::this_actor::exec_init(per_rank)->set_host(host));
  }
  for (auto& exec : ranks)
    exec->start();
  if (memory != nullptr)
    for (std::size_t r = 0; r < cores; ++r)
      if (auto io = start_memory_traffic(memory, memory_bytes / static_cast<double>(cores)))
        ranks.push_back(io);
  return ranks;
}

/// Waits for every activity of a node's share; the date the last one finished.
double wait_node_share(const std::vector<sg4::ActivityPtr>& ranks)
{
  double finish = 0;
  for (const auto& activity : ranks) {
    activity->wait();
    finish = std::max(finish, activity->get_finish_time());
  }
  return finish;
}
} // namespace

void run_hpl(const HplJob& job, const std::vector<sg4::Host*>& hosts, SimgridModel model, double bytes_per_flop,
             const NodeMemories& memories, HplStats& stats)
{
  const double memory_bytes = bytes_per_flop * job.flops_per_iteration;
  stats.start               = sg4::Engine::get_clock();
  const std::size_t n       = hosts.size();
  for (int it = 0; it < job.iterations; ++it) {
    IterationRecord record;
    record.start = sg4::Engine::get_clock();
    std::vector<std::vector<sg4::ActivityPtr>> shares;
    for (auto* host : hosts)
      shares.push_back(start_node_share(host, job.flops_per_iteration, model, memory_bytes, memories.of(host)));
    // The barrier: every node's share must end; the slowest one (the latest finish,
    // the first such node on ties) sets the iteration's pace.
    double latest = -1;
    for (std::size_t i = 0; i < n; ++i) {
      const double finish = wait_node_share(shares[i]);
      if (finish > latest) {
        latest              = finish;
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

double hpl_compute_time_alone(const HplJob& job, const NodeMemory& memory, const std::vector<sg4::Host*>& hosts)
{
  const double memory_time =
      memory.enabled ? memory.hpl_bytes_per_flop * job.flops_per_iteration / memory.bandwidth : 0;
  double slowest = memory_time;
  for (auto* host : hosts)
    slowest = std::max(slowest, job.flops_per_iteration / (host->get_core_count() * host->get_speed()));
  return slowest * job.iterations;
}

} // namespace datasched::interference
