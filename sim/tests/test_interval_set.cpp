#include <gtest/gtest.h>

#include "common/fatal.hpp"
#include "model/interval_set.hpp"

using datasched::InputError;
using datasched::IntervalSet;

TEST(IntervalSet, ParsesBatsimStrings)
{
  auto s = IntervalSet::from_string("1 3-5");
  EXPECT_EQ(s.size(), 4);
  EXPECT_EQ(s.elements(), (std::vector<int>{1, 3, 4, 5}));
  EXPECT_EQ(s.to_string(" "), "1 3-5");
  EXPECT_EQ(s.first(), 1);
}

TEST(IntervalSet, MergesAdjacentAndOverlapping)
{
  IntervalSet s;
  s.insert(5, 7);
  s.insert(0, 2);
  s.insert(3);
  s.insert(6, 9);
  EXPECT_EQ(s.to_string(" "), "0-3 5-9");
  EXPECT_EQ(s.size(), 9);
  EXPECT_TRUE(s.contains(9));
  EXPECT_FALSE(s.contains(4));
}

TEST(IntervalSet, RejectsGarbage)
{
  EXPECT_THROW(IntervalSet::from_string("1 x"), InputError);
  EXPECT_THROW(IntervalSet::from_string("5-2"), InputError);
  EXPECT_THROW(IntervalSet::from_string("-3"), InputError);
}
