#include "src/report/json_yaml.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <regex>
#include <string>
#include <vector>

namespace hwaccel {
namespace {

TEST(JsonYaml, KeepsStructureAndQuotesWhatWouldReadAsOtherTypes) {
  nlohmann::json doc = {{"schema", "hwaccel-detect/1"},
                        {"driver", "580.95.05"},
                        {"cc", "12.1"},
                        {"vendor_id", "0x10de"},
                        {"bus", "0000:18:00.0"},
                        {"word", "yes"},
                        {"free", nullptr},
                        {"count", 8},
                        {"list", {1, "two"}}};
  std::string y = json_to_yaml(doc);
  EXPECT_NE(y.find("cc: \"12.1\""), std::string::npos) << y;
  EXPECT_NE(y.find("vendor_id: \"0x10de\""), std::string::npos) << y;
  EXPECT_NE(y.find("word: \"yes\""), std::string::npos) << y;
  EXPECT_NE(y.find("bus: \"0000:18:00.0\""), std::string::npos) << y;
  EXPECT_NE(y.find("schema: hwaccel-detect/1"), std::string::npos) << y;
  YAML::Node back = YAML::Load(y);
  EXPECT_EQ(back["driver"].as<std::string>(), "580.95.05");
  EXPECT_EQ(back["count"].as<int>(), 8);
  EXPECT_TRUE(back["free"].IsNull());
  EXPECT_EQ(back["list"][1].as<std::string>(), "two");
}

// The quoting rule was a std::regex; it is plain scanning now (libstdc++'s engine
// recurses per character). The regex stays here as the oracle for short strings.
bool yaml_quotes(const std::string& value) {
  std::string y = json_to_yaml(nlohmann::json{{"k", value}});
  return y.rfind("k: \"", 0) == 0;
}

TEST(JsonYaml, QuotesExactlyWhatTheOldNumberPatternMatched) {
  const std::regex number(
      R"([-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)?|0x[0-9a-fA-F_]+|0o?[0-7_]+|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)|[0-9:]+(\.[0-9]*)?)");
  std::vector<std::string> words = {"1",
                                    "12.1",
                                    "+1.5e3",
                                    "-.5",
                                    "1e",
                                    "1e+",
                                    "1_000",
                                    "1.",
                                    ".",
                                    "0x10de",
                                    "0x",
                                    "0xg",
                                    "0o17",
                                    "0o",
                                    "017",
                                    "08",
                                    "0_7",
                                    ".inf",
                                    "-.Inf",
                                    "+.INF",
                                    ".nan",
                                    "-.nan",
                                    "1:30",
                                    "1:30.5",
                                    "12:",
                                    ":",
                                    "1.2.3",
                                    "580.95",
                                    "a1",
                                    "1a",
                                    "0000:18:00.0",
                                    "-",
                                    "+",
                                    "e5",
                                    "1E5",
                                    "0x1_f",
                                    "1__2.3_",
                                    ".5e-2",
                                    "9" + std::string(60, '9')};
  // Every string of up to three characters from the alphabet that matters.
  const std::string alphabet = "0179x.+-e_:o";
  for (char a : alphabet) {
    words.push_back(std::string(1, a));
    for (char b : alphabet) {
      words.push_back(std::string{a, b});
      for (char c : alphabet) words.push_back(std::string{a, b, c});
    }
  }
  // yaml-cpp quotes some strings of its own accord ("-", "0x:"): the same either way.
  auto emitter_quotes = [](const std::string& w) {
    YAML::Emitter out;
    out << w;
    return std::string(out.c_str()) != w;
  };
  for (const auto& w : words)
    EXPECT_EQ(yaml_quotes(w), std::regex_match(w, number) || emitter_quotes(w)) << w;
}

TEST(JsonYaml, AHugeNumericTokenIsQuotedWithoutRecursion) {
  // 2 MB of digits (a name a snapshot could carry): the regex overflowed the stack.
  std::string digits(2'000'000, '7');
  EXPECT_TRUE(yaml_quotes(digits));
  EXPECT_TRUE(yaml_quotes(std::string(2'000'000, '1') + "." + std::string(10, '2')));
  EXPECT_FALSE(yaml_quotes(std::string(2'000'000, '1') + "x"));
}

}  // namespace
}  // namespace hwaccel
