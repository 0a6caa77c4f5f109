#include <gtest/gtest.h>

#include "common/fatal.hpp"
#include "model/profile.hpp"

using datasched::InputError;
using datasched::Profile;
using datasched::ProfileType;
using nlohmann::json;

TEST(Profile, ParsesEveryBatsimType)
{
  EXPECT_EQ(Profile::from_json("a", json{{"type", "delay"}, {"delay", 3}}, "f").delay, 3);
  auto p = Profile::from_json("b", json{{"type", "parallel"}, {"cpu", {1, 2}}, {"com", {0, 1, 1, 0}}}, "f");
  EXPECT_EQ(p.type, ProfileType::Parallel);
  EXPECT_EQ(p.cpu.size(), 2u);
  auto c = Profile::from_json("c", json{{"type", "composed"}, {"repeat", 2}, {"seq", {"a", "b"}}}, "f");
  EXPECT_EQ(c.repeat, 2);
  EXPECT_EQ(c.sequence.size(), 2u);
  auto pfs = Profile::from_json("d", json{{"type", "parallel_homogeneous_pfs"}, {"bytes_to_read", 5}}, "f");
  EXPECT_EQ(pfs.storage_label, "pfs");
  auto ds = Profile::from_json("e", json{{"type", "data_staging"}, {"nb_bytes", 5}, {"from", "a"}, {"to", "b"}}, "f");
  EXPECT_EQ(ds.to_label, "b");
}

TEST(Profile, ErrorsNameTheProfileAndTheProblem)
{
  try {
    Profile::from_json("bad", json{{"type", "delay"}, {"delay", -1}}, "w.json");
    FAIL() << "expected an error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("w.json: profile 'bad'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("'delay'"), std::string::npos);
  }
  try { // Batsim 4.2.1 refuses a delay of 0 (profiles.cpp: "non-strictly-positive 'delay'")
    Profile::from_json("zero", json{{"type", "delay"}, {"delay", 0}}, "w.json");
    FAIL() << "expected an error for a delay of 0";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "w.json: profile 'zero': field 'delay' must be > 0 (Batsim 4.2.1 refuses a delay of 0)");
  }
  EXPECT_THROW(Profile::from_json("x", json{{"type", "smpi"}}, "f"), InputError);
  EXPECT_THROW(Profile::from_json("x", json{{"type", "parallel"}, {"cpu", {1}}, {"com", {1, 2}}}, "f"), InputError);
  EXPECT_THROW(Profile::from_json("x", json{{"type", "composed"}, {"seq", json::array()}}, "f"), InputError);
}
