#pragma once
// The engine's SimGrid actors. Their structure mirrors Batsim's so that control
// messages cost the same simulated time: a server on the master host receives every
// message; submitters, decision rounds, waiters and killers run on the master; each
// job runs in an actor on its smallest allocated host.
#include <string>
#include <vector>

#include "protocol/reader.hpp"

namespace datasched {

struct Context;
struct Job;
struct Workload;

void server_actor(Context* context);
void static_submitter_actor(Context* context, Workload* workload);
void request_reply_actor(Context* context, std::string request);
void job_actor(Context* context, Job* job);
void waiter_actor(double target_time);
void killer_actor(Context* context, std::vector<std::string> job_ids);

} // namespace datasched
