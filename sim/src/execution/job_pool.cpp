#include "execution/job_pool.hpp"

#include <string>

#include <simgrid/s4u/Host.hpp>

#include "common/fatal.hpp"
#include "execution/actors.hpp"
#include "model/job.hpp"

namespace datasched {

using simgrid::s4u::Host;

void JobPool::start(Job& job, Host* host)
{
  std::vector<JobWorker*>& idle = idle_[host];
  JobWorker* worker             = nullptr;
  if (idle.empty()) {
    workers_.push_back(std::make_unique<JobWorker>());
    worker          = workers_.back().get();
    worker->job     = &job;
    job.worker      = worker;
    const auto name = "job_worker_" + std::to_string(workers_.size() - 1);
    worker->actor   = simgrid::s4u::Actor::create(name, host, worker_loop, this, worker);
  } else {
    worker = idle.back();
    idle.pop_back();
    worker->job = &job;
    job.worker  = worker;
    worker->wakeup->release();
  }
}

void JobPool::interrupt(Job& job)
{
  job.worker->wakeup->release();
}

void JobPool::stop()
{
  stopping_ = true;
  for (auto& [host, idle] : idle_) {
    for (JobWorker* worker : idle)
      worker->wakeup->release(); // with no job: the worker returns
    idle.clear();
  }
}

void JobPool::worker_loop(JobPool* pool, JobWorker* worker)
{
  run_actor_guarded([pool, worker] {
    while (worker->job != nullptr) {
      run_job(pool->context_, worker->job, *worker->wakeup);
      worker->job = nullptr;
      if (pool->stopping_)
        return;
      // Actors run one at a time and nothing between these two lines yields: when the
      // server finds this worker idle, the worker is blocked in acquire(), or its
      // acquire() is handled before the server's release (it ran first in the round).
      pool->idle_[simgrid::s4u::this_actor::get_host()].push_back(worker);
      worker->wakeup->acquire();
    }
  });
}

} // namespace datasched
