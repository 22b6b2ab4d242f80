// parse_integer_in and parse_finite_in: whole text only, range-checked, no
// throw and no undefined behaviour on any input.
#include "src/model/number_text.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

namespace hwaccel {
namespace {

TEST(NumberText, IntegerInRange) {
  EXPECT_EQ(parse_integer_in("0", 0, 10), 0);
  EXPECT_EQ(parse_integer_in("10", 0, 10), 10);
  EXPECT_EQ(parse_integer_in("-3", -5, 5), -3);
  EXPECT_EQ(parse_integer_in("007", 0, 10), 7);
  EXPECT_EQ(parse_integer_in("9223372036854775807", 0, std::numeric_limits<std::int64_t>::max()),
            std::numeric_limits<std::int64_t>::max());
}

TEST(NumberText, IntegerRefusals) {
  for (const std::string bad : {"", "11", "-1", "+1", " 1", "1 ", "1x", "0x1", "1e3", "1.0", "-",
                                "99999999999999999999", "-99999999999999999999"}) {
    EXPECT_FALSE(parse_integer_in(bad, 0, 10)) << "\"" << bad << "\"";
  }
}

TEST(NumberText, FiniteInRange) {
  EXPECT_EQ(parse_finite_in("0.5", 0, 1), 0.5);
  EXPECT_EQ(parse_finite_in("1e-3", 0, 1), 0.001);
  EXPECT_EQ(parse_finite_in("30", 0.001, 86400), 30);
  EXPECT_EQ(parse_finite_in("-0", 0, 1), 0);
}

TEST(NumberText, FiniteRefusals) {
  for (const std::string bad : {"", "nan", "NaN", "-nan", "inf", "-inf", "infinity", "1e400",
                                "1e300", "2", "-0.5", "+0.5", "0x1p-2", " 1", "1 ", "1s", "."}) {
    EXPECT_FALSE(parse_finite_in(bad, 0, 1)) << "\"" << bad << "\"";
  }
}

}  // namespace
}  // namespace hwaccel
