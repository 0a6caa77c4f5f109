// The engine's error handling (fatal.hpp): errors of actors stop the simulation and
// come back to the caller; what escapes anyway still ends in one line and a status.
// Each case that needs SimGrid runs in a child process (death tests fork).
#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>

#include "common/fatal.hpp"

namespace datasched {
namespace {

const char* const kPlatform = R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1"><zone id="world" routing="Full"><host id="h" speed="1Gf"/></zone></platform>)";

simgrid::s4u::Engine* engine_with_one_host()
{
  const auto path = std::filesystem::temp_directory_path() / ("datasched-fatal-" + std::to_string(getpid()) + ".xml");
  std::ofstream(path) << kPlatform;
  int argc     = 2;
  char name[]  = "test";
  char quiet[] = "--log=root.thres:critical";
  char* argv[] = {name, quiet, nullptr};
  auto* engine = new simgrid::s4u::Engine(&argc, argv);
  engine->load_platform(path.string());
  std::filesystem::remove(path);
  return engine;
}

TEST(Fatal, ThrowsAnEngineErrorWithItsStatus)
{
  try {
    fatal("bad thing", 3);
    FAIL() << "fatal returned";
  } catch (const EngineError& e) {
    EXPECT_STREQ(e.what(), "bad thing");
    EXPECT_EQ(e.code(), 3);
  }
}

TEST(Fatal, TheFirstActorErrorStopsEveryActorAndComesBackAfterRun)
{
  // Actor a fails at t = 1; actor b would send nothing until t = 10: the run ends at
  // 1 (b is killed), and the caller gets a's error, once.
  EXPECT_EXIT(
      {
        auto* engine = engine_with_one_host();
        auto* host   = engine->host_by_name("h");
        bool b_done  = false;
        simgrid::s4u::Actor::create("a", host, [] {
          run_actor_guarded([] {
            simgrid::s4u::this_actor::sleep_for(1);
            fatal("a failed", 4);
          });
        });
        simgrid::s4u::Actor::create("b", host, [&b_done] {
          run_actor_guarded([&b_done] {
            simgrid::s4u::this_actor::sleep_for(10);
            b_done = true;
          });
        });
        engine->run();
        try {
          throw_recorded_engine_error();
        } catch (const EngineError& e) {
          const bool ok = std::string(e.what()) == "a failed" && e.code() == 4 && !b_done &&
                          simgrid::s4u::Engine::get_clock() == 1.0 && !engine_error_recorded();
          std::_Exit(ok ? 0 : 2);
        }
        std::_Exit(3);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(Fatal, TheFirstErrorRunsTheBeforeKillHookOnceWhileTheOthersStillLive)
{
  // Actors a and c both fail at t = 1; b sleeps until 10. The hook registered with
  // set_before_kill_all runs once, from the first to fail, while all three actors are
  // still alive (it is where the simulation cancels the activities b could wait on).
  EXPECT_EXIT(
      {
        auto* engine         = engine_with_one_host();
        auto* host           = engine->host_by_name("h");
        int hook_calls       = 0;
        size_t alive_at_hook = 0;
        set_before_kill_all([&] {
          ++hook_calls;
          alive_at_hook = simgrid::s4u::Engine::get_instance()->get_actor_count();
        });
        for (const char* name : {"a", "c"})
          simgrid::s4u::Actor::create(name, host, [name] {
            run_actor_guarded([name] {
              simgrid::s4u::this_actor::sleep_for(1);
              fatal(std::string(name) + " failed", 4);
            });
          });
        simgrid::s4u::Actor::create("b", host,
                                    [] { run_actor_guarded([] { simgrid::s4u::this_actor::sleep_for(10); }); });
        engine->run();
        set_before_kill_all(nullptr);
        try {
          throw_recorded_engine_error();
        } catch (const EngineError& e) {
          const std::string first = e.what();
          const bool ok = (first == "a failed" || first == "c failed") && hook_calls == 1 && alive_at_hook == 3;
          std::_Exit(ok ? 0 : 2);
        }
        std::_Exit(3);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(Fatal, AnyExceptionInAnActorBecomesTheRunsError)
{
  EXPECT_EXIT(
      {
        auto* engine = engine_with_one_host();
        simgrid::s4u::Actor::create("parser", engine->host_by_name("h"),
                                    [] { run_actor_guarded([] { throw std::out_of_range("map::at"); }); });
        engine->run();
        try {
          throw_recorded_engine_error();
        } catch (const EngineError& e) {
          std::_Exit(std::string(e.what()) == "internal error in actor 'parser': map::at" && e.code() == 1 ? 0 : 2);
        }
        std::_Exit(3);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(Fatal, AnErrorEscapingAnUnguardedActorStillEndsInOneLineAndItsStatus)
{
  // The safety net: no guard, so the error reaches std::terminate, whose handler
  // prints the line, runs the cleanup (here: it prints too) and exits with status 5.
  EXPECT_EXIT(
      {
        auto* engine = engine_with_one_host();
        install_engine_error_terminate_handler();
        set_fatal_cleanup([] { std::fprintf(stderr, "cleanup ran\n"); });
        simgrid::s4u::Actor::create("unguarded", engine->host_by_name("h"), [] { fatal("escaped", 5); });
        engine->run();
        std::_Exit(0);
      },
      ::testing::ExitedWithCode(5), "cleanup ran\ndatasched-sim: error: escaped\n");
}

TEST(Fatal, SimGridsOwnAbortIsWordedAndRemovesTheOutputs)
{
  // An abort() inside SimGrid (xbt_die, a failed assert) cannot be recovered from: the
  // handler prints our line naming the probable cause and deletes the outputs, status 1.
  const auto output = std::filesystem::temp_directory_path() / ("datasched-abort-" + std::to_string(getpid()));
  EXPECT_EXIT(
      {
        std::ofstream(output.string() + ".tmp") << "half";
        install_abort_handler("SimGrid aborted the simulation (its message is above)", {output.string()});
        std::abort();
      },
      ::testing::ExitedWithCode(1), "datasched-sim: error: SimGrid aborted the simulation \\(its message is above\\)");
  EXPECT_FALSE(std::filesystem::exists(output.string() + ".tmp"));
}

} // namespace
} // namespace datasched
