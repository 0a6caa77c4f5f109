// The forwarders' lock (forwarding::Service::Lock) when SimGrid 3.32 kills the daemons at
// the end of a run. SimGrid kills the remaining daemons right after the scheduling round in
// which the last other actor ended; a daemon that issued a simcall in that round gets the
// kill (ForcefulKillException) when that simcall returns. If the simcall is the mutex
// unlock of a std::unique_lock's destructor (noexcept), the process terminates. In a run
// with --forwarding-layer the daemons - forwarder workers, client streams of cut jobs - lock
// and unlock their forwarder's mutex at any date, so the run can end in such a round.
// The scenario runs in a forked child (a death test: SimGrid allows one engine per
// process); the test fails if the child does not exit normally. With a std::unique_lock
// in place of Service::Lock the child aborts (checked by hand).
#include <gtest/gtest.h>

#include <cstdlib>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/ConditionVariable.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Mutex.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include "services/forwarding_service.hpp"

namespace sg4 = simgrid::s4u;
using datasched::forwarding::Service;

namespace {

void run_scenario()
{
  int argc     = 2;
  char name[]  = "kill-safety";
  char quiet[] = "--log=root.thres:critical";
  char* argv[] = {name, quiet, nullptr};
  sg4::Engine engine(&argc, argv);
  auto* zone = sg4::create_full_zone("zone");
  auto* host = zone->create_host("host", 1e9);
  zone->seal();
  auto mutex = sg4::Mutex::create();
  auto cv    = sg4::ConditionVariable::create();
  // A daemon (as a forwarder worker) leaves its locked section at t = 1: its unlock
  // simcall is issued in the round in which the last non-daemon ends.
  sg4::Actor::create("worker", host, [mutex, cv]() {
    {
      Service::Lock lock(mutex);
      sg4::this_actor::sleep_until(1.0);
    }
    Service::Lock lock(mutex);
    for (;;)
      lock.wait(cv);
  })->daemonize();
  sg4::Actor::create("last", host, []() { sg4::this_actor::sleep_until(1.0); });
  engine.run();
  std::exit(sg4::Engine::get_clock() == 1.0 ? 0 : 3);
}

} // namespace

TEST(ForwardingKillSafety, DaemonKilledInItsUnlockAtTheEndOfTheRun)
{
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(run_scenario(), ::testing::ExitedWithCode(0), "");
}
