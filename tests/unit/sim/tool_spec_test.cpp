#include "sim/tool_spec.h"

#include <gtest/gtest.h>

namespace hwaccel::sim {
namespace {

using Words = std::vector<std::string>;

TEST(ToolSpec, SplitsAtTheLastUnquotedEquals) {
  auto s =
      parse_tool_spec("nvidia-smi --query-gpu=index,name --format=csv,noheader,nounits=caps/q.txt");
  EXPECT_EQ(s.error, "");
  EXPECT_EQ(s.argv,
            (Words{"nvidia-smi", "--query-gpu=index,name", "--format=csv,noheader,nounits"}));
  EXPECT_EQ(s.value, "caps/q.txt");
}

TEST(ToolSpec, QuotesKeepBlanksAndEquals) {
  auto s = parse_tool_spec("sh -c 'echo a=b' \"x \\\"y\\\"\" back\\ slash=out.txt");
  EXPECT_EQ(s.error, "");
  EXPECT_EQ(s.argv, (Words{"sh", "-c", "echo a=b", "x \"y\"", "back slash"}));
  EXPECT_EQ(s.value, "out.txt");
  EXPECT_EQ(parse_tool_spec("nvidia-smi '' =f").argv, (Words{"nvidia-smi", ""}));
}

TEST(ToolSpec, RefusesWhatItCannotSplit) {
  EXPECT_NE(parse_tool_spec("nvidia-smi -L").error, "");
  EXPECT_NE(parse_tool_spec("nvidia-smi -L=").error, "");
  EXPECT_NE(parse_tool_spec("=file").error, "");
  EXPECT_NE(parse_tool_spec("'nvidia-smi=file").error, "");
}

TEST(ToolSpec, QuoteRoundTrips) {
  Words argv{"nvidia-smi", "--format=csv", "it's", "", "a b", "$HOME"};
  std::string error;
  EXPECT_EQ(split_words(shell_join(argv), error), argv);
  EXPECT_EQ(error, "");
  EXPECT_EQ(shell_join({"nvidia-smi", "-L"}), "nvidia-smi -L");
}

}  // namespace
}  // namespace hwaccel::sim
