#pragma once
// A pool of reusable job actors ("workers"). Creating an actor per job and letting it
// end cost 18 % of the engine's instructions on the 50,000-job benchmark (callgrind):
// a stack allocated and cleared per actor, and SimGrid ends every actor by unwinding an
// exception. A worker runs a job, then waits on its semaphore for the next one.
//
// The pool changes no simulated behaviour, event for event, and uses SimGrid's public
// s4u API only. What makes it exact:
//  - Handing a job to a worker is one simcall of the server, like Actor::create was:
//    either Actor::create of a new worker, or the release of an idle worker's
//    semaphore. Both make the worker runnable at exactly the point where a new actor
//    was started (SimGrid appends it to its actors-to-run list while answering the
//    server's simcall, just before the server itself), so the server's own
//    interleaving with other actors is unchanged.
//  - Idle workers are kept per host, and a job only reuses a worker idle on the job's
//    host (its first allocated host, from which its completion message leaves, so that
//    its route is charged). Moving a worker instead (Actor::set_host) would be a second
//    simcall of the server, which delays its next actions by one scheduling round and
//    can change which same-date events a decision round batches. (The pool's first
//    version moved workers and daemonized new ones inside one kernel simcall,
//    simgrid::kernel::actor::simcall_answered, an internal API; per-host reuse needs
//    neither.) The pool holds at most as many workers as jobs ever ran at once on one
//    host, summed over hosts.
//  - A worker runs the job's profile with the same simcalls as the former job actor,
//    except that a delay is waited for with a semaphore timeout (which SimGrid models
//    with the same CPU sleep action as sleep_for, so it ends at the same date and in
//    the same order), because a sleep_for cannot be interrupted by a kill.
//  - Interrupting a killed job is one simcall of the killer (a release), like
//    Actor::kill was, and removes the job's pending sleep action at once, as the kill did.
//  - After its job, a worker only touches its own semaphore: where it then runs
//    changes nothing for the other actors.
// Workers are not daemons (daemonizing is a simcall of its own, see above): idle ones
// wait forever, so once the simulation is over the server calls stop(), which lets
// every idle worker end. (A run stopped by an error kills them with the other actors.)
#include <memory>
#include <unordered_map>
#include <vector>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Semaphore.hpp>

namespace datasched {

struct Context;
struct Job;

/// One reusable job actor and what it needs to be handed jobs and interrupted.
struct JobWorker {
  simgrid::s4u::ActorPtr actor;
  /// Released once per job handed over (while the worker is idle), once per kill of
  /// its job (while it is busy) and once by stop(); the worker consumes every release.
  simgrid::s4u::SemaphorePtr wakeup = simgrid::s4u::Semaphore::create(0);
  Job* job                          = nullptr; ///< the job to run, or nullptr while idle (or to end)
};

class JobPool {
public:
  explicit JobPool(Context* context) : context_(context) {}

  /// Starts `job` in an actor on `host` (the server calls it for EXECUTE_JOB). Reuses
  /// a worker idle on `host`, or creates one. Costs the caller one simcall.
  void start(Job& job, simgrid::s4u::Host* host);

  /// Interrupts the running `job`'s current wait, for a kill. The killer has already
  /// cancelled the job's activities and marked it killed. Costs the caller one simcall.
  static void interrupt(Job& job);

  /// Once the simulation is over (no job runs): ends every worker, so that the run can
  /// end. Costs the caller one simcall per worker.
  void stop();

  /// How many workers were created (for tests).
  size_t nb_workers() const { return workers_.size(); }

private:
  static void worker_loop(JobPool* pool, JobWorker* worker);

  Context* context_;
  std::vector<std::unique_ptr<JobWorker>> workers_;
  /// Workers blocked on (or about to block on) their semaphore, by host.
  std::unordered_map<const simgrid::s4u::Host*, std::vector<JobWorker*>> idle_;
  bool stopping_ = false;
};

} // namespace datasched
