// JSON from untrusted places nested absurdly deep (issue 18, item 13).
// nlohmann parses any depth without recursion and destroys values without it
// too, but copying, comparing or dumping a value recurses once per level: the
// Vulkan probe copied a manifest's library_path and overflowed the stack
// (vulkan_icd_manifests_test.cpp). The manifest reader now refuses such a text
// before parsing (src/probe/json_nesting.h). The other readers of untrusted
// JSON were checked: they only look into values, never copy or dump them, so
// they answer as for any wrong type; these tests keep it so.
#include "src/probe/json_nesting.h"

#include <gtest/gtest.h>

#include "src/probe/apple_system_profiler.h"
#include "src/probe/neuron_ls_json.h"
#include "src/registry/saved_detection.h"

namespace hwaccel {
namespace {

constexpr std::size_t kDeep = 300000;  // 100,000 overflowed a release build's stack

std::string nested(std::size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

TEST(JsonNesting, FindsTheBracketThatOpensOneLevelTooMany) {
  EXPECT_EQ(json_too_deep_at("[[[]]]", 3), std::nullopt);
  EXPECT_EQ(json_too_deep_at("[[[[]]]]", 3), 3u);
  EXPECT_EQ(json_too_deep_at("{\"a\": {\"b\": [1]}}", 2), 12u);
  EXPECT_EQ(json_too_deep_at(nested(kMaxJsonDepth)), std::nullopt);
  EXPECT_EQ(json_too_deep_at(nested(kMaxJsonDepth + 1)), std::size_t(kMaxJsonDepth));
  // Brackets in strings, escaped quotes included, do not count.
  EXPECT_EQ(json_too_deep_at("[\"[[[[\\\"[[[[\", []]", 2), std::nullopt);
  // Closing brackets never make the depth negative: "]]]][[[[" is four deep.
  EXPECT_EQ(json_too_deep_at("]]]][[[[", 3), 7u);
  EXPECT_EQ(json_line_of("a\nb\nc", 4), 3u);
}

TEST(JsonNesting, DeepNeuronLsOutputTakesNothingFromTheDeepPart) {
  EXPECT_TRUE(parse_neuron_ls_json(nested(kDeep)).devices.empty());
  auto out = parse_neuron_ls_json("[{\"neuron_device\": 0, \"connected_to\": " + nested(kDeep) +
                                  ", \"nc_count\": " + nested(kDeep) + "}]");
  ASSERT_EQ(out.devices.size(), 1u);
  EXPECT_TRUE(out.devices[0].connected_to.empty());
  EXPECT_FALSE(out.devices[0].nc_count);
  EXPECT_EQ(out.problems, std::vector<std::string>{"device 0: nc_count is not a count"});
}

TEST(JsonNesting, DeepSystemProfilerOutputIsAProblem) {
  auto out = parse_sp_displays_json("{\"SPDisplaysDataType\": " + nested(kDeep) + "}");
  EXPECT_TRUE(out.gpus.empty());
  EXPECT_EQ(out.problems, std::vector<std::string>{"an SPDisplaysDataType item is not an object"});
}

TEST(JsonNesting, ADeepSavedDetectionIsALocatedError) {
  EXPECT_EQ(detection_from_json_text(nested(kDeep)).error, "document: expected an object");
  auto saved = detection_from_json_text("{\"schema\": \"hwaccel-detect/1\", \"host\": {\"cpus\": " +
                                        nested(kDeep) + "}, \"backends\": [], \"devices\": []}");
  EXPECT_FALSE(saved.detection);
  EXPECT_EQ(saved.error, "host.cpus: expected an integer");
}

}  // namespace
}  // namespace hwaccel
