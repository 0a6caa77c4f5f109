#pragma once
// The engine's SimGrid actors. Their structure mirrors Batsim's so that control
// messages cost the same simulated time: a server on the master host receives every
// message; submitters, the decision actor, waiters and killers run on the master; each
// job runs in an actor on its smallest allocated host (a pooled worker, see job_pool.hpp).
#include <string>
#include <vector>

#include <simgrid/s4u/Semaphore.hpp>

#include "model/external_events.hpp"
#include "protocol/reader.hpp"

namespace datasched {

struct Context;
struct Job;
struct Workload;

void server_actor(Context* context);
void static_submitter_actor(Context* context, Workload* workload);
/// Runs every decision round: waits for Context::decision_requested, exchanges
/// Context::decision_request with the decision process, delivers the decisions.
/// Created (as a daemon) before the server, so that it waits before the first round.
void decision_actor(Context* context);
/// Runs `job` in the calling actor (a pooled worker): its profile, then its JobCompleted
/// message. A kill marks the job killed and releases `wakeup` once to interrupt the
/// job's wait; run_job then returns without a message, after consuming that release.
void run_job(Context* context, Job* job, simgrid::s4u::Semaphore& wakeup);
void waiter_actor(double target_time);
void killer_actor(Context* context, std::vector<std::string> job_ids);
void external_events_actor(std::vector<ExternalEvent> events);

} // namespace datasched
