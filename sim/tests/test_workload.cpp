#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "common/fatal.hpp"
#include "model/workload.hpp"

using datasched::InputError;
using datasched::Workloads;

namespace {
std::string write_temp(const std::string& content)
{
  char name[] = "/tmp/datasched-test-XXXXXX";
  int fd      = mkstemp(name);
  close(fd);
  std::ofstream(name) << content;
  return name;
}

std::string load_error(const std::string& content)
{
  auto path = write_temp(content);
  Workloads w;
  try {
    w.load_file("w0", path);
  } catch (const InputError& e) {
    std::remove(path.c_str());
    return e.what();
  }
  std::remove(path.c_str());
  return "";
}
} // namespace

TEST(Workload, LoadsJobsWithFullIds)
{
  auto path = write_temp(R"({"jobs":[{"id":3,"subtime":1,"res":2,"profile":"d"}],
                             "profiles":{"d":{"type":"delay","delay":1}}})");
  Workloads w;
  w.load_file("w0", path);
  std::remove(path.c_str());
  auto* job = w.find_job("w0!3");
  ASSERT_NE(job, nullptr);
  EXPECT_EQ(job->number, "3");
  EXPECT_EQ(job->walltime, -1);
  EXPECT_EQ(nlohmann::json::parse(job->description)["id"], "w0!3");
}

TEST(Workload, MalformedJsonNamesLine)
{
  auto msg = load_error("{\n\"jobs\": [\n  {,}\n]}");
  EXPECT_NE(msg.find("line 3"), std::string::npos) << msg;
}

TEST(Workload, SemanticErrorsNameTheJob)
{
  const std::string profiles = R"("profiles":{"d":{"type":"delay","delay":1}})";
  EXPECT_NE(load_error(R"({"jobs":[{"id":1,"subtime":0,"res":1,"profile":"zz"}],)" + profiles + "}").find("w0!1"),
            std::string::npos);
  EXPECT_NE(
      load_error(R"({"jobs":[{"id":1,"subtime":0,"res":1,"profile":"d"},{"id":1,"subtime":0,"res":1,"profile":"d"}],)" +
                 profiles + "}")
          .find("duplicate"),
      std::string::npos);
  EXPECT_NE(load_error(R"({"jobs":[{"id":1,"subtime":0,"res":0,"profile":"d"}],)" + profiles + "}").find("'res'"),
            std::string::npos);
  EXPECT_NE(load_error(R"({"jobs":[{"id":1,"subtime":0,"res":1,"walltime":0,"profile":"d"}],)" + profiles + "}")
                .find("walltime"),
            std::string::npos);
  EXPECT_NE(load_error(R"({"jobs":[],"profiles":{"c":{"type":"composed","seq":["c"]}}})").find("cycle"),
            std::string::npos);
}

TEST(Workload, LargestProfileCountsComposedStepsRecursively)
{
  // inner = 1000 x [d, d] = 2,000 steps; outer = 10,000 x [inner, d] = 10,000 x 2,001 = 20,010,000
  auto path = write_temp(R"({"jobs":[],
    "profiles":{"d":{"type":"delay","delay":1},
                "inner":{"type":"composed","repeat":1000,"seq":["d","d"]},
                "outer":{"type":"composed","repeat":10000,"seq":["inner","d"]}}})");
  Workloads w;
  const auto& loaded = w.load_file("w0", path);
  std::remove(path.c_str());
  const datasched::RunCost largest = w.largest_profile(loaded);
  EXPECT_DOUBLE_EQ(largest.events, 20010000.0);
  EXPECT_NE(largest.what.find("'outer'"), std::string::npos) << largest.what;
  EXPECT_THROW(datasched::check_run_cost("w.json", "repeat", largest, false), InputError);
}

TEST(Workload, LargestProfileOfPlainProfilesIsOneStep)
{
  auto path = write_temp(R"({"jobs":[],"profiles":{"d":{"type":"delay","delay":1},
                                                   "c":{"type":"composed","seq":["d","d","d"]}}})");
  Workloads w;
  const auto& loaded = w.load_file("w0", path);
  std::remove(path.c_str());
  EXPECT_DOUBLE_EQ(w.largest_profile(loaded).events, 3.0); // repeat defaults to 1
}
