// Machines: how the platform's hosts become Batsim's resources (one master, compute
// nodes then storage nodes, each group in name order). Each case loads a platform in
// a SimGrid engine of its own, in a forked child (one engine per process).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <simgrid/s4u/Engine.hpp>

#include "common/fatal.hpp"
#include "model/machines.hpp"
#include "support/scripted_engine.hpp"

namespace datasched::testing {
namespace {

/// Hosts declared out of name order: c1, s0 (role storage), master, c0, x (no role).
const char* const kPlatform = R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="world" routing="Full">
    <host id="c1" speed="1Gf"/>
    <host id="s0" speed="1Gf"><prop id="role" value="storage"/></host>
    <host id="boss" speed="1Gf"><prop id="role" value="master"/></host>
    <host id="c0" speed="1Gf"/>
    <host id="x" speed="1Gf"/>
  </zone>
</platform>)";

/// Loads `xml` in a new engine (in the child) and returns Machines::from_platform's
/// result, or the InputError's message through `error`.
Machines load(const std::string& xml, const std::map<std::string, Role>& overrides, std::string& error,
              const std::string& master = "master")
{
  const auto path =
      std::filesystem::temp_directory_path() / ("datasched-machines-" + std::to_string(getpid()) + ".xml");
  std::ofstream(path) << xml;
  int argc            = 1;
  char name[]         = "test";
  char* argv[]        = {name, nullptr};
  static auto* engine = new simgrid::s4u::Engine(&argc, argv);
  engine->load_platform(path.string());
  std::filesystem::remove(path);
  try {
    return Machines::from_platform(engine->get_all_hosts(), master, overrides);
  } catch (const InputError& e) {
    error = e.what();
    return {};
  }
}

TEST(Machines, ComputeNodesThenStorageNodesEachInNameOrder)
{
  // Resources: c0 = 0, c1 = 1, x = 2 (compute, by name), then s0 = 3 (storage); the
  // master (role=master) is not a resource.
  EXPECT_EQ(run_in_child([] {
              std::string error;
              const Machines m = load(kPlatform, {}, error);
              if (!error.empty() || m.master().name != "boss" || m.size() != 4 || m.nb_compute() != 3 ||
                  m.nb_storage() != 1)
                return 1;
              const char* expected[] = {"c0", "c1", "x", "s0"};
              for (int id = 0; id < 4; ++id)
                if (m.at(id).name != expected[id] || m.at(id).id != id)
                  return 2;
              if (m.at(3).role != Role::Storage || m.at(0).role != Role::ComputeNode)
                return 3;
              if (m.by_name("x") != &m.at(2) || m.by_name("boss") != nullptr || m.exists(4) || m.exists(-1))
                return 4;
              return 0;
            }),
            0);
}

TEST(Machines, ARoleOverrideMovesAHostIntoTheStorageBlock)
{
  // -r x:storage: compute c0 = 0, c1 = 1; storage s0 = 2, x = 3.
  EXPECT_EQ(run_in_child([] {
              std::string error;
              const Machines m = load(kPlatform, {{"x", Role::Storage}}, error);
              if (!error.empty() || m.nb_compute() != 2)
                return 1;
              return m.at(2).name == "s0" && m.at(3).name == "x" && m.at(3).role == Role::Storage ? 0 : 2;
            }),
            0);
}

TEST(Machines, TheMasterCanBeNamedInsteadOfTagged)
{
  // --master c1 on top of boss's role=master: two masters, an error naming both.
  EXPECT_EQ(run_in_child([] {
              std::string error;
              load(kPlatform, {}, error, "c1");
              return error == "the platform has several master hosts (c1, boss); exactly one is required" ||
                             error == "the platform has several master hosts (boss, c1); exactly one is required"
                         ? 0
                         : 1;
            }),
            0);
}

TEST(Machines, AnOverrideOfAnUnknownHostIsAnError)
{
  EXPECT_EQ(run_in_child([] {
              std::string error;
              load(kPlatform, {{"nope", Role::Storage}}, error);
              return error == "role override names host 'nope', which is not in the platform" ? 0 : 1;
            }),
            0);
}

TEST(Machines, ParseRoleNamesWhereTheBadRoleIs)
{
  EXPECT_EQ(Machines::parse_role("storage", "here"), Role::Storage);
  EXPECT_EQ(Machines::parse_role("compute_node", "here"), Role::ComputeNode);
  try {
    Machines::parse_role("gpu", "host 'h'");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "host 'h': unknown role 'gpu' (expected master, compute_node or storage)");
  }
}

} // namespace
} // namespace datasched::testing
