// The server, the job runner and the job pool, end to end: small simulations of the
// real engine against a scripted decision process (support/scripted_engine.hpp, one
// forked process per simulation). Dates are closed forms: delay profiles take exactly
// their delay, and control messages cross 1 PB/s zero-latency links, so they add
// ~1e-15 s per message (kEps bounds the sum).
#include <gtest/gtest.h>

#include <sstream>

#include "support/scripted_engine.hpp"

namespace datasched::testing {
namespace {

using nlohmann::json;

constexpr double kEps = 1e-9;

/// A master and two 1 Gflop/s hosts (resources 0 and 1), each reaching the master by
/// a zero-latency 1 PB/s link.
const char* const kPlatform = R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="world" routing="Full">
    <host id="master_host" speed="1Gf"><prop id="role" value="master"/></host>
    <host id="h0" speed="1Gf"/>
    <host id="h1" speed="1Gf"/>
    <link id="ctl" bandwidth="1000TBps" latency="0" sharing_policy="FATPIPE"/>
    <route src="master_host" dst="master_host"><link_ctn id="ctl"/></route>
    <route src="master_host" dst="h0"><link_ctn id="ctl"/></route>
    <route src="master_host" dst="h1"><link_ctn id="ctl"/></route>
  </zone>
</platform>)";

json delay_job(const std::string& id, double subtime, double walltime, const std::string& profile, int res = 1)
{
  return {{"id", id}, {"subtime", subtime}, {"walltime", walltime}, {"res", res}, {"profile", profile}};
}

json workload(json jobs, json profiles)
{
  return {{"nb_res", 2}, {"jobs", std::move(jobs)}, {"profiles", std::move(profiles)}};
}

json delay(double seconds)
{
  return {{"type", "delay"}, {"delay", seconds}};
}

/// Starts every submitted job at once on `alloc`.
Script start_on(const std::string& alloc)
{
  return [alloc](const json& request) {
    json events = json::array();
    for (const auto& e : request.at("events"))
      if (e.at("type") == "JOB_SUBMITTED")
        events.push_back(
            decision(request.at("now"), "EXECUTE_JOB", {{"job_id", e.at("data").at("job_id")}, {"alloc", alloc}}));
    return events;
  };
}

/// The jobs.csv row of `job_id` as column -> value.
std::map<std::string, std::string> csv_row(const std::string& csv, const std::string& job_id)
{
  std::istringstream in(csv);
  std::string header, line;
  std::getline(in, header);
  auto split = [](const std::string& text) {
    std::vector<std::string> cells;
    std::stringstream ss(text);
    std::string cell;
    while (std::getline(ss, cell, ','))
      cells.push_back(cell);
    return cells;
  };
  const auto names = split(header);
  while (std::getline(in, line)) {
    const auto cells = split(line);
    if (!cells.empty() && cells[0] == job_id) {
      std::map<std::string, std::string> row;
      for (size_t i = 0; i < names.size() && i < cells.size(); ++i)
        row[names[i]] = cells[i];
      return row;
    }
  }
  return {};
}

void expect_clean(const ScriptedRun& run)
{
  ASSERT_EQ(run.child_failure, "");
  ASSERT_EQ(run.error, "");
  ASSERT_EQ(run.code, 0);
  ASSERT_TRUE(run.jobs_csv.has_value());
}

TEST(JobLifecycle, SubmissionExecutionCompletion)
{
  // Job 1: submitted at s = 10, started at once, delay d = 5:
  //   JOB_SUBMITTED at s = 10, JOB_COMPLETED at s + d = 15, execution_time d = 5.
  const auto run =
      run_scripted({kPlatform, workload({delay_job("1", 10, 100, "d5")}, {{"d5", delay(5)}}), start_on("0"), {}, -1});
  expect_clean(run);
  const auto submitted = run.events("JOB_SUBMITTED");
  ASSERT_EQ(submitted.size(), 1u);
  EXPECT_NEAR(submitted[0].at("now").get<double>(), 10.0, kEps);
  const auto completed = run.events("JOB_COMPLETED");
  ASSERT_EQ(completed.size(), 1u);
  EXPECT_NEAR(completed[0].at("timestamp").get<double>(), 15.0, kEps);
  EXPECT_EQ(completed[0].at("data").at("job_state"), "COMPLETED_SUCCESSFULLY");
  EXPECT_EQ(completed[0].at("data").at("return_code"), 0);
  EXPECT_EQ(completed[0].at("data").at("alloc"), "0");
  ASSERT_EQ(run.events("SIMULATION_ENDS").size(), 1u);
  const auto row = csv_row(*run.jobs_csv, "1");
  EXPECT_EQ(row.at("final_state"), "COMPLETED_SUCCESSFULLY");
  EXPECT_NEAR(std::stod(row.at("starting_time")), 10.0, kEps);
  EXPECT_NEAR(std::stod(row.at("execution_time")), 5.0, 1e-6);
  EXPECT_NEAR(std::stod(row.at("finish_time")), 15.0, 1e-6);
}

TEST(JobLifecycle, SequentialJobsReuseOneWorkerOnTheSameHost)
{
  // Jobs 1 and 2 (delay 4 each) both on host 0; job 2 starts when job 1 ends:
  //   job 1 in [0, 4], job 2 in [4, 8] (started at the round of job 1's completion).
  Script script = [](const json& request) {
    json events = json::array();
    for (const auto& e : request.at("events")) {
      const std::string type = e.at("type");
      if (type == "JOB_SUBMITTED" && e.at("data").at("job_id") == "w0!1")
        events.push_back(decision(request.at("now"), "EXECUTE_JOB", {{"job_id", "w0!1"}, {"alloc", "0"}}));
      if (type == "JOB_COMPLETED" && e.at("data").at("job_id") == "w0!1")
        events.push_back(decision(request.at("now"), "EXECUTE_JOB", {{"job_id", "w0!2"}, {"alloc", "0"}}));
    }
    return events;
  };
  const auto run =
      run_scripted({kPlatform,
                    workload({delay_job("1", 0, 100, "d4"), delay_job("2", 0, 100, "d4")}, {{"d4", delay(4)}}),
                    script,
                    {},
                    -1});
  expect_clean(run);
  const auto completed = run.events("JOB_COMPLETED");
  ASSERT_EQ(completed.size(), 2u);
  EXPECT_NEAR(completed[0].at("timestamp").get<double>(), 4.0, kEps);
  EXPECT_NEAR(completed[1].at("timestamp").get<double>(), 8.0, kEps);
  EXPECT_NEAR(std::stod(csv_row(*run.jobs_csv, "2").at("starting_time")), 4.0, kEps);
}

TEST(JobLifecycle, AJobIsKilledAtItsWalltime)
{
  // Delay d = 50 > walltime w = 20, submitted and started at s = 10: killed at
  // s + w = 30, state COMPLETED_WALLTIME_REACHED, return code -1, runtime w.
  const auto run =
      run_scripted({kPlatform, workload({delay_job("1", 10, 20, "d50")}, {{"d50", delay(50)}}), start_on("1"), {}, -1});
  expect_clean(run);
  const auto completed = run.events("JOB_COMPLETED");
  ASSERT_EQ(completed.size(), 1u);
  EXPECT_NEAR(completed[0].at("timestamp").get<double>(), 30.0, kEps);
  EXPECT_EQ(completed[0].at("data").at("job_state"), "COMPLETED_WALLTIME_REACHED");
  EXPECT_EQ(completed[0].at("data").at("return_code"), -1);
  const auto row = csv_row(*run.jobs_csv, "1");
  EXPECT_NEAR(std::stod(row.at("execution_time")), 20.0, 1e-6);
  EXPECT_EQ(row.at("success"), "0");
}

TEST(JobLifecycle, KillJobStopsARunningJob)
{
  // Job 1 (delay 50) starts at s = 10; the script asks to be called at k = 25 and
  // then kills it: JOB_KILLED at k = 25 with progress (k - s) / 50 = 0.3, the job
  // ends COMPLETED_KILLED (return code -2) at 25, and the other host is untouched.
  Script script = [](const json& request) {
    json events      = json::array();
    const double now = request.at("now");
    for (const auto& e : request.at("events")) {
      const std::string type = e.at("type");
      if (type == "JOB_SUBMITTED") {
        events.push_back(decision(now, "EXECUTE_JOB", {{"job_id", "w0!1"}, {"alloc", "0"}}));
        events.push_back(decision(now, "CALL_ME_LATER", {{"timestamp", 25.0}}));
      }
      if (type == "REQUESTED_CALL")
        events.push_back(decision(now, "KILL_JOB", {{"job_ids", {"w0!1"}}}));
    }
    return events;
  };
  const auto run =
      run_scripted({kPlatform, workload({delay_job("1", 10, 100, "d50")}, {{"d50", delay(50)}}), script, {}, -1});
  expect_clean(run);
  const auto killed = run.events("JOB_KILLED");
  ASSERT_EQ(killed.size(), 1u);
  EXPECT_NEAR(killed[0].at("timestamp").get<double>(), 25.0, kEps);
  EXPECT_EQ(killed[0].at("data").at("job_ids"), json({"w0!1"}));
  EXPECT_NEAR(killed[0].at("data").at("job_progress").at("w0!1").at("progress").get<double>(), 0.3, 1e-9);
  const auto completed = run.events("JOB_COMPLETED");
  ASSERT_EQ(completed.size(), 1u);
  EXPECT_EQ(completed[0].at("data").at("job_state"), "COMPLETED_KILLED");
  EXPECT_EQ(completed[0].at("data").at("return_code"), -2);
  EXPECT_NEAR(std::stod(csv_row(*run.jobs_csv, "1").at("finish_time")), 25.0, 1e-6);
}

TEST(JobLifecycle, RejectJobEndsTheJobWithoutRunningIt)
{
  // A rejected job never runs: no JOB_COMPLETED, final state REJECTED in jobs.csv,
  // and the simulation ends at its submission date (3).
  Script script = [](const json& request) {
    json events = json::array();
    for (const auto& e : request.at("events"))
      if (e.at("type") == "JOB_SUBMITTED")
        events.push_back(decision(request.at("now"), "REJECT_JOB", {{"job_id", e.at("data").at("job_id")}}));
    return events;
  };
  const auto run =
      run_scripted({kPlatform, workload({delay_job("1", 3, 10, "d1")}, {{"d1", delay(1)}}), script, {}, -1});
  expect_clean(run);
  EXPECT_TRUE(run.events("JOB_COMPLETED").empty());
  EXPECT_EQ(csv_row(*run.jobs_csv, "1").at("final_state"), "REJECTED");
  const auto ends = run.events("SIMULATION_ENDS");
  ASSERT_EQ(ends.size(), 1u);
  EXPECT_NEAR(ends[0].at("timestamp").get<double>(), 3.0, kEps);
}

TEST(JobLifecycle, CallMeLaterWakesTheDecisionProcess)
{
  // At 0 the script asks for calls at t1 = 7 and t2 = now + 1e-6 (just ahead of the
  // clock): REQUESTED_CALL at 7, and at 0 + 1e-5 for the second (Batsim lengthens a
  // wait shorter than 1e-5 s to 1e-5 s).
  Script script = [](const json& request) {
    json events = json::array();
    for (const auto& e : request.at("events"))
      if (e.at("type") == "SIMULATION_BEGINS") {
        events.push_back(decision(0, "CALL_ME_LATER", {{"timestamp", 7.0}}));
        events.push_back(decision(0, "CALL_ME_LATER", {{"timestamp", 1e-6}}));
      } else if (e.at("type") == "JOB_SUBMITTED") {
        events.push_back(decision(request.at("now"), "REJECT_JOB", {{"job_id", e.at("data").at("job_id")}}));
      }
    return events;
  };
  const auto run =
      run_scripted({kPlatform, workload({delay_job("1", 0, 10, "d1")}, {{"d1", delay(1)}}), script, {}, -1});
  expect_clean(run);
  const auto calls = run.events("REQUESTED_CALL");
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_NEAR(calls[0].at("timestamp").get<double>(), 1e-5, 1e-12);
  EXPECT_NEAR(calls[1].at("timestamp").get<double>(), 7.0, kEps);
  // The simulation does not end before its last requested call.
  EXPECT_NEAR(run.events("SIMULATION_ENDS").at(0).at("timestamp").get<double>(), 7.0, kEps);
}

TEST(JobLifecycle, AnInvalidDecisionMidRunReturnsAnErrorToTheCaller)
{
  // Job 1 (delay 5) completes at 5; the script then starts job 2 on host 99, which
  // does not exist. datasched_sim_run returns 1 with the message (this child process
  // goes on to report it), and no output is left behind.
  Script script = [](const json& request) {
    json events = json::array();
    for (const auto& e : request.at("events")) {
      const std::string type = e.at("type");
      if (type == "JOB_SUBMITTED" && e.at("data").at("job_id") == "w0!1")
        events.push_back(decision(request.at("now"), "EXECUTE_JOB", {{"job_id", "w0!1"}, {"alloc", "0"}}));
      if (type == "JOB_COMPLETED")
        events.push_back(decision(request.at("now"), "EXECUTE_JOB", {{"job_id", "w0!2"}, {"alloc", "99"}}));
    }
    return events;
  };
  const auto run =
      run_scripted({kPlatform,
                    workload({delay_job("1", 0, 100, "d5"), delay_job("2", 0, 100, "d5")}, {{"d5", delay(5)}}),
                    script,
                    {},
                    -1});
  ASSERT_EQ(run.child_failure, "");
  EXPECT_EQ(run.code, 1);
  EXPECT_EQ(run.error, "EXECUTE_JOB: job 'w0!2' is allocated host 99, which does not exist (the platform has 2 "
                       "resources)");
  EXPECT_FALSE(run.jobs_csv.has_value());
  EXPECT_FALSE(run.machine_states_csv.has_value());
  ASSERT_EQ(run.events("JOB_COMPLETED").size(), 1u);
  EXPECT_NEAR(run.rounds.back().at("now").get<double>(), 5.0, kEps);
}

TEST(JobLifecycle, AnErrorInAJobActorStopsEveryOtherActor)
{
  // Job 1 (delay 50) runs on host 0; job 2, a PFS job whose storage label cannot be
  // resolved (no storage host), fails in its job actor at its start (s = 5): the run
  // stops there, while job 1 still runs and its waiter for 1000 s is pending.
  json profiles = {
      {"d50", delay(50)},
      {"pfs",
       {{"type", "parallel_homogeneous_pfs"}, {"bytes_to_read", 1e6}, {"bytes_to_write", 0}, {"storage", "nfs"}}}};
  Script script = [](const json& request) {
    json events = json::array();
    for (const auto& e : request.at("events")) {
      if (e.at("type") == "SIMULATION_BEGINS")
        events.push_back(decision(0, "CALL_ME_LATER", {{"timestamp", 1000.0}}));
      if (e.at("type") != "JOB_SUBMITTED")
        continue;
      const std::string id = e.at("data").at("job_id");
      events.push_back(
          decision(request.at("now"), "EXECUTE_JOB", {{"job_id", id}, {"alloc", id == "w0!1" ? "0" : "1"}}));
    }
    return events;
  };
  const auto run = run_scripted(
      {kPlatform, workload({delay_job("1", 0, 100, "d50"), delay_job("2", 5, 100, "pfs")}, profiles), script, {}, -1});
  ASSERT_EQ(run.child_failure, "");
  EXPECT_EQ(run.code, 1);
  EXPECT_EQ(run.error.rfind("job 'w0!2': cannot resolve the pfs storage label 'nfs'", 0), 0u) << run.error;
  EXPECT_FALSE(run.jobs_csv.has_value());
  EXPECT_TRUE(run.events("JOB_COMPLETED").empty());
}

TEST(JobLifecycle, AFailingDecisionProcessReturnsAnError)
{
  // The callback fails in its second round (the submission of job 1 at 2).
  const auto run =
      run_scripted({kPlatform, workload({delay_job("1", 2, 10, "d1")}, {{"d1", delay(1)}}), start_on("0"), {}, 1});
  ASSERT_EQ(run.child_failure, "");
  EXPECT_EQ(run.code, 1);
  EXPECT_EQ(run.error, "the in-process decision process failed (status 7; its message is above)");
  EXPECT_EQ(run.rounds.size(), 2u);
  EXPECT_FALSE(run.jobs_csv.has_value());
}

TEST(JobLifecycle, ADeadlockReturnsAnError)
{
  // Job 1 is never started and nothing else can happen: the deadlock (found in
  // SimGrid's kernel) is returned as an error naming the waiting job.
  Script nothing = [](const json&) { return json::array(); };
  const auto run =
      run_scripted({kPlatform, workload({delay_job("1", 0, 10, "d1", 2)}, {{"d1", delay(1)}}), nothing, {}, -1});
  ASSERT_EQ(run.child_failure, "");
  EXPECT_EQ(run.code, 1);
  EXPECT_EQ(run.error.rfind("the simulation cannot progress (deadlock): 1 submitted job(s) never started: w0!1 (2 "
                            "hosts)",
                            0),
            0u)
      << run.error;
  EXPECT_FALSE(run.jobs_csv.has_value());
}

TEST(MachineStates, HostsGoFromIdleToComputingAndBack)
{
  // Job 1 (2 hosts, delay 3) at 0, job 2 (1 host, delay 2) submitted at 4 on host 1.
  // Rows (time, idle, computing), one per job start and end:
  //   0: (0, 2)   3: (2, 0)   4: (1, 1)   6 = 4 + 2: (2, 0)
  // (each date is the closed form plus the control messages' ~1e-15 s).
  Script script = [](const json& request) {
    json events = json::array();
    for (const auto& e : request.at("events"))
      if (e.at("type") == "JOB_SUBMITTED") {
        const std::string id = e.at("data").at("job_id");
        events.push_back(
            decision(request.at("now"), "EXECUTE_JOB", {{"job_id", id}, {"alloc", id == "w0!1" ? "0-1" : "1"}}));
      }
    return events;
  };
  const auto run = run_scripted(
      {kPlatform,
       workload({delay_job("1", 0, 100, "d3", 2), delay_job("2", 4, 100, "d2")}, {{"d3", delay(3)}, {"d2", delay(2)}}),
       script,
       {},
       -1});
  expect_clean(run);
  ASSERT_TRUE(run.machine_states_csv.has_value());
  std::istringstream in(*run.machine_states_csv);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "time,nb_sleeping,nb_switching_on,nb_switching_off,nb_idle,nb_computing");
  const std::vector<std::tuple<double, int, int>> expected = {{0, 0, 2}, {3, 2, 0}, {4, 1, 1}, {6, 2, 0}};
  for (const auto& [time, idle, computing] : expected) {
    ASSERT_TRUE(std::getline(in, line));
    double t     = 0;
    int sleeping = 0, on = 0, off = 0, nb_idle = 0, nb_computing = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "%lf,%d,%d,%d,%d,%d", &t, &sleeping, &on, &off, &nb_idle, &nb_computing), 6)
        << line;
    EXPECT_NEAR(t, time, kEps) << line;
    EXPECT_EQ(nb_idle, idle) << line;
    EXPECT_EQ(nb_computing, computing) << line;
  }
  EXPECT_FALSE(std::getline(in, line)) << line;
}

} // namespace
} // namespace datasched::testing
