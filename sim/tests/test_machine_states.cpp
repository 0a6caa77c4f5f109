#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <unistd.h>

#include "export/machine_states_csv.hpp"
#include "model/machine_states.hpp"

using datasched::IntervalSet;
using datasched::MachineState;
using datasched::MachineStates;

namespace {
IntervalSet hosts(const char* text)
{
  return IntervalSet::from_string(text);
}
} // namespace

// Batsim's accounting: a state's time is counted when the machine leaves it.
// Machine 0: idle [0,2), computing [2,5), then idle until the end (never closed).
// Machine 1: never used. Closed times: computing 3, idle 2 (machine 0 before its job).
TEST(MachineStates, CountsOnlyIntervalsClosedByAChange)
{
  MachineStates s;
  s.reset(2, 2);
  s.job_started(hosts("0"), 2.0);
  s.job_ended(hosts("0"), 5.0);
  EXPECT_EQ(s.closed_time(MachineState::Computing), 3.0L);
  EXPECT_EQ(s.closed_time(MachineState::Idle), 2.0L);
  EXPECT_EQ(s.count(MachineState::Idle), 2);
  EXPECT_EQ(s.count(MachineState::Computing), 0);
}

// Our sensible figure over [0, makespan = 5]: 2 nodes x 5 s = 10 node-seconds,
// computing 3 (machine 0 on [2,5)), idle 10 - 3 = 7.
TEST(MachineStates, ComputeNodeTimesCoverTheWholeHorizon)
{
  MachineStates s;
  s.reset(2, 2);
  s.job_started(hosts("0"), 2.0);
  s.job_ended(hosts("0"), 5.0);
  const auto t = s.compute_node_times(5.0);
  EXPECT_EQ(t.nb_machines, 2);
  EXPECT_DOUBLE_EQ(static_cast<double>(t[MachineState::Computing]), 3.0);
  EXPECT_DOUBLE_EQ(static_cast<double>(t[MachineState::Idle]), 7.0);
}

// Two jobs share host 0 ([1,4) and [2,6)): it computes from 1 to 6 (5 s) and becomes idle
// only when the last job ends; the second start closes a computing interval [1,2).
TEST(MachineStates, SharedHostStaysComputingUntilItsLastJobEnds)
{
  MachineStates s;
  s.reset(1, 1);
  s.job_started(hosts("0"), 1.0);
  s.job_started(hosts("0"), 2.0);
  EXPECT_EQ(s.closed_time(MachineState::Computing), 1.0L);
  s.job_ended(hosts("0"), 4.0);
  EXPECT_EQ(s.state(0), MachineState::Computing);
  s.job_ended(hosts("0"), 6.0);
  EXPECT_EQ(s.state(0), MachineState::Idle);
  EXPECT_EQ(s.closed_time(MachineState::Computing), 5.0L);
  EXPECT_EQ(s.closed_time(MachineState::Idle), 1.0L);
}

// Unavailable on [3,8) while a job runs on [1,10): Batsim keeps it unavailable at the job's
// end (no change at 10), back to computing at 8. Closed: idle 1, computing 2 + (nothing
// closed after 8), unavailable 5. Over [0,10] for our file: computing 2 + 2 = 4, unavailable
// 5, idle 1.
TEST(MachineStates, UnavailableMachineFollowsBatsim)
{
  MachineStates s;
  s.reset(1, 1);
  s.job_started(hosts("0"), 1.0);
  s.set_available(0, false, 3.0);
  s.set_available(0, true, 8.0);
  EXPECT_EQ(s.state(0), MachineState::Computing);
  s.job_ended(hosts("0"), 10.0);
  EXPECT_EQ(s.closed_time(MachineState::Unavailable), 5.0L);
  EXPECT_EQ(s.closed_time(MachineState::Computing), 4.0L);
  const auto t = s.compute_node_times(10.0);
  EXPECT_DOUBLE_EQ(static_cast<double>(t[MachineState::Unavailable]), 5.0);
  EXPECT_DOUBLE_EQ(static_cast<double>(t[MachineState::Computing]), 4.0);
  EXPECT_DOUBLE_EQ(static_cast<double>(t[MachineState::Idle]), 1.0);
}

// Batsim's counters start with only the compute nodes idle: with 3 compute nodes and
// 1 storage node, a job on the storage node makes nb_idle 2 (3 - 1) and nb_computing 1;
// our own figures leave the storage node out.
TEST(MachineStates, StorageNodesAreOutsideTheInitialIdleCount)
{
  MachineStates s;
  s.reset(4, 3);
  EXPECT_EQ(s.count(MachineState::Idle), 3);
  s.job_started(hosts("3"), 1.0);
  EXPECT_EQ(s.count(MachineState::Idle), 2);
  EXPECT_EQ(s.count(MachineState::Computing), 1);
  const auto t = s.compute_node_times(2.0);
  EXPECT_DOUBLE_EQ(static_cast<double>(t[MachineState::Idle]), 6.0); // 3 nodes x 2 s
  EXPECT_DOUBLE_EQ(static_cast<double>(t[MachineState::Computing]), 0.0);
}

// Changes after the horizon are ignored: one node computing on [1,3), unavailable from 6;
// horizon 3: computing 2, idle 3 - 2 = 1, unavailable 0.
TEST(MachineStates, ComputeNodeTimesStopAtTheHorizon)
{
  MachineStates s;
  s.reset(1, 1);
  s.job_started(hosts("0"), 1.0);
  s.job_ended(hosts("0"), 3.0);
  s.set_available(0, false, 6.0);
  const auto t = s.compute_node_times(3.0);
  EXPECT_DOUBLE_EQ(static_cast<double>(t[MachineState::Computing]), 2.0);
  EXPECT_DOUBLE_EQ(static_cast<double>(t[MachineState::Idle]), 1.0);
  EXPECT_DOUBLE_EQ(static_cast<double>(t[MachineState::Unavailable]), 0.0);
}

// Batsim prints the date with printf's "%g" (6 significant digits): our rows must be the
// same text for any date, small, large or with an exponent.
TEST(MachineStatesCsv, DatesArePrintedAsPrintfG)
{
  const std::vector<double> dates = {0.0,      6.0008e-05, 1e-5,     10.000060008, 10.002015,          15.002030,
                                     999999.5, 1234567.0,  30.60225, 1e10 + 0.5,   100000006472.621674};
  MachineStates s;
  s.reset(2, 2);
  datasched::MachineStatesCsv csv;
  std::string expected = "time,nb_sleeping,nb_switching_on,nb_switching_off,nb_idle,nb_computing\n";
  for (double d : dates) {
    csv.add_row(d, s);
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%g,0,0,0,2,0\n", d);
    expected += buffer;
  }
  // a name of this process only: parallel test runs never share it
  const auto path =
      std::filesystem::path(::testing::TempDir()) / ("datasched_machine_states_" + std::to_string(::getpid()) + ".csv");
  csv.write(path.string());
  std::ifstream in(path);
  const std::string written((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove(path);
  EXPECT_EQ(written, expected);
}
