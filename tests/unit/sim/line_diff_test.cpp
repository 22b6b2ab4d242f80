#include "sim/line_diff.h"

#include <gtest/gtest.h>

namespace hwaccel::sim {
namespace {

TEST(LineDiff, EqualTextsGiveNothing) {
  EXPECT_EQ(unified_diff("a\nb\n", "a\nb\n", "x", "y"), "");
}

TEST(LineDiff, AChangedLineWithContextAsDiffPrintsIt) {
  EXPECT_EQ(unified_diff("1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3\n4\nfive\n6\n7\n8\n", "a", "b"),
            "--- a\n+++ b\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
}

TEST(LineDiff, InsertionsDeletionsAndTwoHunks) {
  std::string a, b;
  for (int i = 0; i < 20; ++i) a += std::to_string(i) + "\n";
  b = a;
  b.replace(b.find("2\n"), 2, "");            // line 2 removed
  b.replace(b.find("17\n"), 3, "17\nnew\n");  // a line added after 17
  const auto d = unified_diff(a, b, "a", "b");
  EXPECT_NE(d.find("@@ -1,6 +1,5 @@\n 0\n 1\n-2\n 3\n 4\n 5\n"), std::string::npos) << d;
  EXPECT_NE(d.find("@@ -16,5 +15,6 @@\n 15\n 16\n 17\n+new\n 18\n 19\n"), std::string::npos) << d;
}

TEST(LineDiff, AMissingFinalNewlineIsShown) {
  EXPECT_NE(unified_diff("a\n", "a", "x", "y").find("\\ No newline at end of file"),
            std::string::npos);
}

}  // namespace
}  // namespace hwaccel::sim
