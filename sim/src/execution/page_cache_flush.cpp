#include "execution/page_cache_flush.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Exec.hpp>

#include "common/fatal.hpp"
#include "execution/context.hpp"
#include "execution/ptask.hpp"

namespace datasched {

namespace {

void flush_actor(Context* context, std::vector<PlannedFlush> flushes, std::string job)
{
  const double start = simgrid::s4u::Engine::get_clock();
  std::vector<simgrid::s4u::ExecPtr> running;
  for (const PlannedFlush& f : flushes) {
    ActivitySpec with_daemons; // the flush to X-nvm is served by X's daemon
    const ActivitySpec& flow = served_by(context->services.nodes.get(), f.flow, with_daemons);
    std::vector<simgrid::s4u::Host*> hosts;
    for (int id : flow.hosts)
      hosts.push_back(context->machines.at(id).host);
    if (std::string why = context->routes.problem(hosts, flow.bytes); !why.empty())
      fatal("page cache flush of job '" + job + "': " + why);
    auto exec = init_ptask(hosts, flow.flops, flow.bytes);
    exec->start();
    context->traffic.started(exec, flow.traffic, hosts, flow.bytes);
    running.push_back(exec);
  }
  for (size_t k = 0; k < running.size(); ++k) {
    running[k]->wait();
    context->traffic.ended(running[k].get());
    const PlannedFlush& f = flushes[k];
    context->page_cache.flushed(f.node, f.item, f.bytes);
    context->data_csv.add(start, simgrid::s4u::Engine::get_clock(), f.item, "flush", job, f.bytes, {f.node});
  }
}

} // namespace

void start_page_cache_flush(Context* context, std::vector<PlannedFlush> flushes, const std::string& job)
{
  if (flushes.empty())
    return;
  simgrid::s4u::Actor::create("page_cache_flush", context->machines.master().host, flush_actor, context,
                              std::move(flushes), job);
}

} // namespace datasched
