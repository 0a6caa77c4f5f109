#include <gtest/gtest.h>

#include "cli.hpp"

using datasched::EngineConfig;

namespace {
int parse(std::vector<std::string> args, EngineConfig& c)
{
  std::vector<char*> argv;
  for (auto& a : args)
    argv.push_back(a.data());
  return datasched::parse_command_line(static_cast<int>(argv.size()), argv.data(), c);
}
} // namespace

TEST(Cli, AcceptsBatsimOptionNames)
{
  EngineConfig c;
  int code = parse({"datasched-sim", "-p", "/dev/null", "-w", "/dev/null", "-e", "out", "-s", "tcp://h:1", "-r",
                    "a,b:storage", "--enable-dynamic-jobs", "--acknowledge-dynamic-jobs"},
                   c);
  EXPECT_EQ(code, -1);
  EXPECT_EQ(c.export_prefix, "out");
  EXPECT_EQ(c.socket_endpoint, "tcp://h:1");
  ASSERT_EQ(c.role_overrides.size(), 1u);
  EXPECT_EQ(c.role_overrides[0].first, "a,b");
  EXPECT_EQ(c.role_overrides[0].second, "storage");
  EXPECT_TRUE(c.simulation.dynamic_jobs_enabled && c.simulation.dynamic_jobs_acknowledged);
}

TEST(Cli, RequiresAPlatformAndAWorkload)
{
  EngineConfig c;
  EXPECT_NE(parse({"datasched-sim", "-w", "/dev/null"}, c), -1);
  EngineConfig d;
  EXPECT_NE(parse({"datasched-sim", "-p", "/dev/null"}, d), -1);
}

TEST(Cli, IoGroupsIsANonNegativeCount)
{
  EngineConfig c;
  EXPECT_EQ(c.io_groups, 0); // one group per I/O task by default
  EXPECT_EQ(parse({"datasched-sim", "-p", "/dev/null", "-w", "/dev/null", "--io-groups", "8"}, c), -1);
  EXPECT_EQ(c.io_groups, 8);
  EngineConfig d;
  EXPECT_NE(parse({"datasched-sim", "-p", "/dev/null", "-w", "/dev/null", "--io-groups", "-2"}, d), -1);
}

TEST(Cli, LinkLoadWindowIsOffByDefaultAndNonNegativeSeconds)
{
  EngineConfig c;
  EXPECT_EQ(c.link_load_window, 0); // no <prefix>_links.csv unless asked
  EXPECT_EQ(parse({"datasched-sim", "-p", "/dev/null", "-w", "/dev/null", "--link-load-window", "2.5"}, c), -1);
  EXPECT_EQ(c.link_load_window, 2.5);
  for (const char* bad : {"-1", "abc", "inf", "nan"}) {
    EngineConfig d;
    EXPECT_NE(parse({"datasched-sim", "-p", "/dev/null", "-w", "/dev/null", "--link-load-window", bad}, d), -1) << bad;
  }
}

TEST(Cli, IpcFanoutIsANonNegativeCount)
{
  EngineConfig c;
  EXPECT_EQ(c.ipc_fanout, 0); // exact all-to-all by default
  EXPECT_EQ(parse({"datasched-sim", "-p", "/dev/null", "-w", "/dev/null", "--ipc-fanout", "32"}, c), -1);
  EXPECT_EQ(c.ipc_fanout, 32);
  EngineConfig d;
  EXPECT_NE(parse({"datasched-sim", "-p", "/dev/null", "-w", "/dev/null", "--ipc-fanout", "-1"}, d), -1);
}

TEST(Cli, AScenarioOptionNamesItsScenarioAndFile)
{
  EngineConfig c;
  EXPECT_EQ(parse({"datasched-sim", "-p", "/dev/null", "--qos-staging", "/dev/null"}, c), -1);
  EXPECT_EQ(c.scenario, "qos-staging");
  EXPECT_EQ(c.scenario_file, "/dev/null");
  EngineConfig none;
  EXPECT_EQ(parse({"datasched-sim", "-p", "/dev/null", "-w", "/dev/null"}, none), -1);
  EXPECT_EQ(none.scenario, ""); // a scheduling run
}

TEST(Cli, OneScenarioPerRunAndOnItsOwn)
{
  // Checked once against the scenario table: a usage error (status 2), one line naming
  // the options to drop.
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--interference", "/dev/null", "--io-forwarding", "/dev/null"},
       "one scenario per run: --io-forwarding, --interference were given together"},
      {{"--io-forwarding", "/dev/null", "-w", "/dev/null"}, "--io-forwarding runs an experiment on its own: drop -w"},
      {{"--qos-staging", "/dev/null", "--inspect"}, "--qos-staging runs an experiment on its own: drop --inspect"},
      {{"--interference", "/dev/null", "--forwarding-layer", "/dev/null"},
       "--forwarding-layer applies to scheduling runs (-w): drop --interference"},
      {{"--qos-staging", "/dev/null", "--storage-daemons", "/dev/null"},
       "--storage-daemons applies to scheduling runs (-w): drop --qos-staging"},
  };
  for (const auto& [extra, message] : cases) {
    std::vector<std::string> args = {"datasched-sim", "-p", "/dev/null"};
    args.insert(args.end(), extra.begin(), extra.end());
    EngineConfig c;
    ::testing::internal::CaptureStderr();
    const int code          = parse(args, c);
    const std::string error = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(code, 2) << message;
    EXPECT_EQ(error, "datasched-sim: error: " + message + "\n");
  }
}
