// Batsim's energy properties (model/power_states.hpp) and the energy CSV formats.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "common/fatal.hpp"
#include "export/consumed_energy_csv.hpp"
#include "export/pstate_changes_csv.hpp"
#include "model/power_states.hpp"

using namespace datasched;

TEST(PowerStates, SleepTripletsAreSleepOffOn)
{
  PowerStates p = PowerStates::parse("3:4:5", 6);
  EXPECT_TRUE(p.is(0, PStateKind::Computation));
  EXPECT_TRUE(p.is(2, PStateKind::Computation));
  EXPECT_TRUE(p.is(3, PStateKind::Sleep));
  EXPECT_TRUE(p.is(4, PStateKind::Transition));
  EXPECT_TRUE(p.is(5, PStateKind::Transition));
  EXPECT_EQ(p.sleeps.at(3).switch_off, 4);
  EXPECT_EQ(p.sleeps.at(3).switch_on, 5);
  EXPECT_FALSE(p.exists(6));
}

TEST(PowerStates, TwoSleepPStatesMayShareTransitions)
{
  PowerStates p = PowerStates::parse(" 2:4:5 ,, 3:4:5", 6);
  EXPECT_TRUE(p.is(2, PStateKind::Sleep));
  EXPECT_TRUE(p.is(3, PStateKind::Sleep));
  EXPECT_EQ(p.sleeps.size(), 2u);
}

TEST(PowerStates, NoPropertyMeansEveryPStateComputes)
{
  PowerStates p = PowerStates::parse("", 3);
  for (int i = 0; i < 3; ++i)
    EXPECT_TRUE(p.is(i, PStateKind::Computation));
}

TEST(PowerStates, BadTripletsAreErrors)
{
  for (const char* bad : {"3:4", "3:4:x", "3:4:9", "3:3:5", "-1:4:5", "3:4:5,4:1:2"})
    EXPECT_THROW(PowerStates::parse(bad, 3 + 3), InputError) << bad;
  EXPECT_THROW(PowerStates::parse("0:1:2", 3), InputError); // no computation pstate left
}

TEST(Wattage, ChecksGroupsAndNumbers)
{
  EXPECT_EQ(wattage_per_state_problem("100:120:200, 90:150", 2), "");
  EXPECT_NE(wattage_per_state_problem("100:120:200", 2), "");
  EXPECT_NE(wattage_per_state_problem("100", 1), "");
  EXPECT_NE(wattage_per_state_problem("100:1:2:3", 1), "");
  EXPECT_NE(wattage_per_state_problem("100:abc", 1), "");
  EXPECT_NE(wattage_per_state_problem("100:-5", 1), "");
  EXPECT_NE(wattage_per_state_problem("100:inf", 1), "");
  EXPECT_EQ(wattage_off_problem(" 10 "), "");
  EXPECT_NE(wattage_off_problem("10W"), "");
}

namespace {
std::string read(const std::string& path)
{
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  std::remove(path.c_str());
  return s.str();
}
} // namespace

TEST(EnergyCsv, BatsimFormats)
{
  ConsumedEnergyCsv energy;
  energy.add(3.126, 38012.16L, 's', 12160);
  energy.add(3.126, 38012.16L, 'p', 12165.5L); // no time passed: epower NA
  energy.add(5.126, 40012.16L, 'e', 12160);    // 2000 J in 2 s
  energy.write("test_energy.csv");
  EXPECT_EQ(read("test_energy.csv"), "time,energy,event_type,wattmin,epower\n"
                                     "3.126000,38012.160000,s,12160.000000,12160.000000\n"
                                     "3.126000,38012.160000,p,12165.500000,NA\n"
                                     "5.126000,40012.160000,e,12160.000000,1000.000000\n");
  PStateChangesCsv pstates;
  IntervalSet all;
  all.insert(0, 127);
  pstates.add(0, all, 0);
  IntervalSet some;
  some.insert(3);
  some.insert(5, 7);
  pstates.add(33778.726152, some, -2);
  pstates.write("test_pstates.csv");
  EXPECT_EQ(read("test_pstates.csv"), "time,machine_id,new_pstate\n0,0-127,0\n33778.7,3 5-7,-2\n");
}
