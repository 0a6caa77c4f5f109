// finite_number: the one reader of numbers written as text (platform properties, option
// values). The whole text must be one finite number as strtod reads it.
#include <gtest/gtest.h>

#include "common/number_text.hpp"

namespace datasched::testing {
namespace {

TEST(NumberText, AWholeFiniteNumberIsRead)
{
  EXPECT_EQ(finite_number("2e9"), 2e9);
  EXPECT_EQ(finite_number("0.5"), 0.5);
  EXPECT_EQ(finite_number("-3"), -3.0);
  EXPECT_EQ(finite_number("0"), 0.0);
}

TEST(NumberText, AnythingElseIsNothing)
{
  for (const char* text : {"", " ", "abc", "1e9x", "12 GB", "inf", "-inf", "nan", "1e999", "-1e999", "0x"})
    EXPECT_FALSE(finite_number(text).has_value()) << "'" << text << "'";
}

} // namespace
} // namespace datasched::testing
