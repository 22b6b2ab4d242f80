#include "src/report/colour.h"

#include <gtest/gtest.h>

#include <regex>

namespace hwaccel {
namespace {

std::string strip(const std::string& s) {
  return std::regex_replace(s, std::regex("\033\\[[0-9;]*m"), "");
}

const char* kReport =
    "host vm: linux x86_64, kernel 6.1, 2 cpus\n"
    "\n"
    "BACKEND  STATUS       DETAIL\n"
    "cuda     unavailable  tool-not-found: nvidia-smi not found on PATH\n"
    "cpu      ready        1 device\n"
    "  cuda:0 driver-not-found: ready or not\n"
    "\n"
    "warning: cuda: something\n";

TEST(Colour, PaintsStatusWordsAndWarningsOnly) {
  std::string c = colourise_report(kReport);
  EXPECT_NE(c.find("\033[31munavailable\033[0m  tool-not-found"), std::string::npos) << c;
  EXPECT_NE(c.find("\033[32mready\033[0m        1 device"), std::string::npos) << c;
  EXPECT_NE(c.find("\033[33mwarning:\033[0m cuda"), std::string::npos) << c;
  EXPECT_NE(c.find("  cuda:0 driver-not-found: ready or not"), std::string::npos)
      << "a reason line is not a table row";
  EXPECT_EQ(strip(c), kReport) << "colour adds escapes and nothing else";
}

TEST(Colour, OnlyOnATerminalAndNeverWithNoColor) {
  EXPECT_TRUE(colour_wanted(true, std::nullopt));
  EXPECT_FALSE(colour_wanted(false, std::nullopt));
  EXPECT_FALSE(colour_wanted(true, std::string("1")));
  EXPECT_TRUE(colour_wanted(true, std::string("")))
      << "no-color.org: an empty NO_COLOR does not count";
}

}  // namespace
}  // namespace hwaccel
