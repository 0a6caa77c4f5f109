// run_scenario (scenarios/scenario.hpp): what every scenario gets from the common loop,
// checked on a toy scenario of one actor, so that no real experiment's code is involved.
// Each run is a forked child (SimGrid allows one engine per process); the child writes
// what it saw into a file the test reads.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include "common/csv.hpp"
#include "common/engine_config.hpp"
#include "common/fatal.hpp"
#include "scenarios/registry.hpp"
#include "scenarios/scenario.hpp"
#include "support/scripted_engine.hpp"

namespace fs  = std::filesystem;
namespace sg4 = simgrid::s4u;

namespace {

/// How the toy scenario misbehaves, if it does.
enum class Toy { SleepsThenWrites, WaitsForever, RefusedAtLoad, RefusedAtPrepare };

/// One actor on the only host: sleeps 2.5 s and writes "<prefix>_toy.csv" with the clock,
/// or waits on a semaphore nobody releases (a deadlock), or refuses its input.
class ToyScenario final : public datasched::Scenario {
public:
  explicit ToyScenario(Toy toy) : toy_(toy) {}
  std::string title() const override { return "toy"; }
  std::vector<std::string> output_files(const std::string& prefix) const override { return {prefix + "_toy.csv"}; }
  void load(const datasched::EngineConfig&) override
  {
    if (toy_ == Toy::RefusedAtLoad)
      throw datasched::InputError("toy.json: field: refused before SimGrid starts");
  }
  void prepare(const datasched::EngineConfig&) override
  {
    if (toy_ == Toy::RefusedAtPrepare)
      throw datasched::InputError("toy.json: host: refused once the platform is loaded");
  }
  void start() override
  {
    sg4::Actor::create("toy", sg4::Engine::get_instance()->get_all_hosts().front(), [this]() {
      if (toy_ == Toy::WaitsForever)
        sg4::Semaphore::create(0)->acquire();
      else
        sg4::this_actor::sleep_for(2.5);
    });
  }
  std::string deadlock_detail() const override { return ": the toy waits forever"; }
  void write_outputs(const std::string& prefix) override
  {
    datasched::write_file_atomically(prefix + "_toy.csv", datasched::fixed6(sg4::Engine::get_clock()) + "\n");
  }

private:
  Toy toy_;
};

std::string read_text(const fs::path& path)
{
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Outcome {
  int code = -1;           ///< run_scenario's return value, or the EngineError's status
  std::string error;       ///< the EngineError's message, if one ended the run
  bool toy_file   = false; ///< whether <prefix>_toy.csv exists after the run (and after the cleanup)
  bool toy_tmp    = false; ///< whether <prefix>_toy.csv.tmp exists
  bool links_file = false; ///< whether <prefix>_links.csv exists
  std::string toy_csv;
};

/// Runs the toy in a child with stale outputs (and a stale .tmp) left by an "earlier run".
Outcome run_toy(Toy toy)
{
  const fs::path dir = fs::temp_directory_path() / ("datasched-scenario-loop-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string prefix = (dir / "out").string();
  for (const auto& stale : {prefix + "_toy.csv", prefix + "_toy.csv.tmp", prefix + "_links.csv"})
    std::ofstream(stale) << "an earlier run's output\n";
  std::ofstream(dir / "platform.xml")
      << "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
         "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\"><host id=\"h\" speed=\"1Gf\"/></zone></platform>\n";
  const fs::path report = dir / "report.txt";
  Outcome outcome;
  const int child = datasched::testing::run_in_child([&]() {
    datasched::EngineConfig config;
    config.platform_file = (dir / "platform.xml").string();
    config.export_prefix = prefix;
    ToyScenario scenario(toy);
    int code = 0;
    std::string error;
    try {
      code = datasched::run_scenario(scenario, config, "test");
    } catch (const datasched::EngineError& e) {
      error = e.what();
      code  = datasched::report_engine_error(e, /*print=*/false); // runs the cleanup, as main does
    }
    std::ofstream(report) << code << "\n" << error;
    return 0;
  });
  EXPECT_EQ(child, 0);
  std::istringstream lines(read_text(report));
  lines >> outcome.code;
  lines.ignore();
  std::getline(lines, outcome.error);
  outcome.toy_file   = fs::exists(prefix + "_toy.csv");
  outcome.toy_tmp    = fs::exists(prefix + "_toy.csv.tmp");
  outcome.links_file = fs::exists(prefix + "_links.csv");
  if (outcome.toy_file)
    outcome.toy_csv = read_text(prefix + "_toy.csv");
  fs::remove_all(dir);
  return outcome;
}

} // namespace

TEST(ScenarioLoop, AnEarlierRunsOutputsGoAndTheScenarioWritesItsOwn)
{
  // The actor sleeps 2.5 s, so the output written after the run holds the clock 2.5.
  const Outcome o = run_toy(Toy::SleepsThenWrites);
  EXPECT_EQ(o.code, 0);
  EXPECT_EQ(o.error, "");
  EXPECT_EQ(o.toy_csv, "2.500000\n");
  EXPECT_FALSE(o.toy_tmp);    // removed before the run, never written again (the rename ate its own)
  EXPECT_FALSE(o.links_file); // no --link-load-window: the earlier run's file is gone, none written
}

TEST(ScenarioLoop, ADeadlockIsOneLineNamingTheScenarioAndLeavesNoOutput)
{
  const Outcome o = run_toy(Toy::WaitsForever);
  EXPECT_EQ(o.code, 1);
  EXPECT_EQ(o.error, "the toy simulation cannot progress (deadlock): the toy waits forever");
  EXPECT_FALSE(o.toy_file);
  EXPECT_FALSE(o.toy_tmp);
}

TEST(ScenarioLoop, InputRefusedBeforeOrAfterThePlatformEndsTheRunWithItsMessage)
{
  const Outcome at_load = run_toy(Toy::RefusedAtLoad);
  EXPECT_EQ(at_load.code, 1);
  EXPECT_EQ(at_load.error, "toy.json: field: refused before SimGrid starts");
  EXPECT_FALSE(at_load.toy_file);
  const Outcome at_prepare = run_toy(Toy::RefusedAtPrepare);
  EXPECT_EQ(at_prepare.code, 1);
  EXPECT_EQ(at_prepare.error, "toy.json: host: refused once the platform is loaded");
  EXPECT_FALSE(at_prepare.toy_file);
}

TEST(ScenarioRegistry, EveryScenarioHasAnOptionNameHelpAndFactory)
{
  // The command line offers exactly these options; each must build its scenario.
  std::vector<std::string> names;
  for (const auto& kind : datasched::scenario_kinds()) {
    names.push_back(kind.name);
    EXPECT_FALSE(kind.help.empty()) << kind.name;
    ASSERT_NE(kind.create, nullptr) << kind.name;
    EXPECT_NE(kind.create(), nullptr) << kind.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"io-forwarding", "qos-staging", "interference"}));
}
