#pragma once
// A pool of reusable job actors ("workers"). Creating an actor per job and letting it
// end cost 18 % of the engine's instructions on the 50,000-job benchmark (callgrind):
// a stack allocated and cleared per actor, and SimGrid ends every actor by unwinding an
// exception. A worker runs a job, then waits on its semaphore for the next one.
//
// The pool changes no simulated behaviour, event for event. What makes it exact:
//  - Handing a job to a worker is one simcall of the server, like Actor::create was:
//    the worker is moved to the job's host and its semaphore released inside that one
//    simcall, so the worker becomes runnable at exactly the point where a new actor
//    was started (both append it to SimGrid's actors-to-run list, just before the
//    server itself), and the server's own interleaving with other actors is unchanged.
//  - A worker runs the job's profile with the same simcalls as the former job actor,
//    except that a delay is waited for with a semaphore timeout (which SimGrid models
//    with the same CPU sleep action as sleep_for, so it ends at the same date and in
//    the same order), because a sleep_for cannot be interrupted by a kill.
//  - Interrupting a killed job is one simcall of the killer, like Actor::kill was,
//    and removes the job's pending sleep action at once, as the kill did.
//  - After its job, a worker only touches its own semaphore: where it then runs
//    changes nothing for the other actors.
// Workers are daemons: idle ones wait forever, and must neither keep the simulation
// alive nor turn its end into SimGrid's deadlock report (SimGrid kills daemons once
// every other actor has ended).
#include <memory>
#include <vector>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Semaphore.hpp>

namespace datasched {

struct Context;
struct Job;

/// One reusable job actor and what it needs to be handed jobs and interrupted.
struct JobWorker {
  simgrid::s4u::ActorPtr actor;
  /// Released once per job handed over (while the worker is idle) and once per kill of
  /// its job (while it is busy); the worker consumes every release.
  simgrid::s4u::SemaphorePtr wakeup = simgrid::s4u::Semaphore::create(0);
  Job* job                          = nullptr; ///< the job to run, or nullptr while idle
};

class JobPool {
public:
  explicit JobPool(Context* context) : context_(context) {}

  /// Starts `job` in an actor on `host` (the server calls it for EXECUTE_JOB). Reuses
  /// an idle worker, or creates one when none is idle. Costs the caller one simcall.
  void start(Job& job, simgrid::s4u::Host* host);

  /// Interrupts the running `job`'s current wait, for a kill. The killer has already
  /// cancelled the job's activities and marked it killed. Costs the caller one simcall.
  static void interrupt(Job& job);

private:
  static void worker_loop(JobPool* pool, JobWorker* worker);
  void create_worker(JobWorker* worker, simgrid::s4u::Host* host);
  static void wake_worker(JobWorker* worker, simgrid::s4u::Host* host);

  Context* context_;
  std::vector<std::unique_ptr<JobWorker>> workers_;
  std::vector<JobWorker*> idle_; ///< workers blocked on (or about to block on) their semaphore
};

} // namespace datasched
