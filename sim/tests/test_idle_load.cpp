// services/idle_load: a daemon's idle load in its two forms against closed forms, on SimGrid's
// ptask_L07 (the engine's model). Hosts a and b of one 1 Gflop/s core; the idle load is
// L = 0.25 Gflop/s, in bursts of L * P = 0.25 Gflop every P = 1 s or steady; a job is one ptask of
// 2 Gflop on each host. Fair-bottleneck gives a burst and the job S / 2 = 0.5 Gflop/s each on a
// host where both run, so a burst lasts 0.5 s, and the ptask runs at the pace of its slower host.
#include <cmath>
#include <cstdio>
#include <vector>

#include <gtest/gtest.h>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include "services/idle_load.hpp"
#include "support/scripted_engine.hpp"

namespace sg4 = simgrid::s4u;
using datasched::DaemonCosts;
using datasched::IdleForm;

namespace {

/// The job's run time beside the idle loads of a and b (phases per host; steady: none).
int job_time_is(const DaemonCosts& costs, std::vector<double> phases, double expected)
{
  return datasched::testing::run_in_child([costs, phases, expected] {
    auto* zone = datasched::testing::engine_with_full_zone("world", "host/model:ptask_L07");
    auto* a    = zone->create_host("a", 1e9);
    auto* b    = zone->create_host("b", 1e9);
    zone->seal();
    datasched::start_idle_load(a, "idle-a", costs, phases.empty() ? 0.0 : phases[0], nullptr);
    datasched::start_idle_load(b, "idle-b", costs, phases.empty() ? 0.0 : phases[1], nullptr);
    double end = -1;
    sg4::Actor::create("job", a, [&end, a, b] {
      sg4::Exec::init()->set_flops_amounts({2e9, 2e9})->set_bytes_amounts({0, 0, 0, 0})->set_hosts({a, b})->wait();
      end = sg4::Engine::get_clock();
    });
    sg4::Engine::get_instance()->run();
    if (std::fabs(end - expected) >= 1e-6)
      std::fprintf(stderr, "job ended at %.9g, expected %.9g\n", end, expected);
    return std::fabs(end - expected) < 1e-6 ? 0 : 1;
  });
}

DaemonCosts idle(IdleForm form)
{
  DaemonCosts costs;
  costs.idle_flops_per_second = 0.25e9;
  costs.idle_period           = 1;
  costs.idle_form             = form;
  return costs;
}

} // namespace

TEST(IdleLoad, AlignedBurstsSlowTheJobHalfOfEachPeriod)
{
  // Each second: 0.5 s at 0.5 Gflop/s, 0.5 s at 1: 0.75 Gflop per second; 1.5 Gflop after 2 s,
  // 1.75 at 2.5 s, the last 0.25 at full speed: t = 2.75 s.
  EXPECT_EQ(job_time_is(idle(IdleForm::Bursts), {0, 0}, 2.75), 0);
}

TEST(IdleLoad, BurstsAtOppositePhasesSlowTheJobAllTheTime)
{
  // a bursts in [k, k + 0.5), b in [k + 0.5, k + 1): one host always halves the ptask:
  // t = 2 Gflop / 0.5 Gflop/s = 4 s.
  EXPECT_EQ(job_time_is(idle(IdleForm::Bursts), {0, 0.5}, 4.0), 0);
}

TEST(IdleLoad, TheSteadyLoadTakesItsRateEverywhere)
{
  // Capped at L, filled first: the job gets S - L = 0.75 Gflop/s on both hosts: t = 2 / 0.75 s.
  EXPECT_EQ(job_time_is(idle(IdleForm::Steady), {}, 2.0 / 0.75), 0);
}

TEST(IdleLoad, NoLoadNoActor)
{
  // L = 0: nothing runs beside the job: t = 2 s.
  DaemonCosts none           = idle(IdleForm::Bursts);
  none.idle_flops_per_second = 0;
  EXPECT_EQ(job_time_is(none, {0, 0}, 2.0), 0);
}
