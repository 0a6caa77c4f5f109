#include "execution/job_pool.hpp"

#include <string>

#include <simgrid/s4u/Host.hpp>
#include <simgrid/simix.hpp>

#include "execution/actors.hpp"
#include "fatal.hpp"
#include "model/job.hpp"

namespace datasched {

using simgrid::s4u::Host;

void JobPool::start(Job& job, Host* host)
{
  JobWorker* worker = nullptr;
  if (idle_.empty()) {
    workers_.push_back(std::make_unique<JobWorker>());
    worker      = workers_.back().get();
    worker->job = &job;
    create_worker(worker, host);
  } else {
    worker = idle_.back();
    idle_.pop_back();
    worker->job = &job;
    wake_worker(worker, host);
  }
  job.worker = worker;
}

void JobPool::interrupt(Job& job)
{
  job.worker->wakeup->release();
}

// The code passed to simcall_answered runs in SimGrid's kernel (maestro) context, where
// s4u calls take effect directly instead of issuing simcalls of their own: this is how
// two operations cost the calling actor a single simcall (see job_pool.hpp).

void JobPool::create_worker(JobWorker* worker, Host* host)
{
  const std::string name = "job_worker_" + std::to_string(workers_.size() - 1);
  worker->actor          = simgrid::kernel::actor::simcall_answered([this, worker, host, &name] {
    simgrid::s4u::ActorPtr actor = simgrid::s4u::Actor::create(name, host, worker_loop, this, worker);
    actor->daemonize();
    return actor;
  });
}

void JobPool::wake_worker(JobWorker* worker, Host* host)
{
  simgrid::kernel::actor::simcall_answered([worker, host] {
    // The job's completion message leaves from its host: its route is charged.
    if (worker->actor->get_host() != host)
      worker->actor->set_host(host);
    worker->wakeup->release();
  });
}

void JobPool::worker_loop(JobPool* pool, JobWorker* worker)
{
  run_actor_guarded([pool, worker] {
    for (;;) {
      run_job(pool->context_, worker->job, *worker->wakeup);
      worker->job = nullptr;
      // Actors run one at a time and nothing between these two lines yields: when the
      // server finds this worker idle, the worker is blocked in acquire(), or its
      // acquire() is handled before the server's release (it ran first in the round).
      pool->idle_.push_back(worker);
      worker->wakeup->acquire();
    }
  });
}

} // namespace datasched
