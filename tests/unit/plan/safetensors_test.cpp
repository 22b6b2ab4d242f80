// safetensors headers: Llama-3-8B's layout to the byte, and headers that lie.
#include "src/plan/safetensors.h"

#include <gtest/gtest.h>

#include "src/plan/quant.h"
#include "tests/support/safetensors_writer.h"

namespace hwaccel::plan {
namespace {

TEST(Safetensors, Llama3_8BIsTheIndexTotalSize) {
  auto bytes = testing::llama3_8b_bf16().bytes();
  auto first = parse_safetensors(bytes.substr(0, 8), "m.safetensors");
  ASSERT_TRUE(first.need_bytes) << first.error;
  EXPECT_EQ(*first.need_bytes + 8, bytes.size());
  auto r = parse_safetensors(bytes, "m.safetensors");
  ASSERT_TRUE(r.header) << r.error;
  EXPECT_EQ(r.header->tensors.size(), 291u);
  // Meta-Llama-3-8B's model.safetensors.index.json: "total_size": 16060522496.
  EXPECT_EQ(r.header->weight_bytes, 16060522496u);
  ModelSpec m = *builtin_model("Llama-3-8B").spec;
  set_safetensors_weights(m, r.header->tensors);
  auto level = file_quant_level(m);
  ASSERT_TRUE(level);
  EXPECT_EQ(level->name, "safetensors:BF16");
  EXPECT_EQ(level->compute, "bf16");
  auto w = weight_bytes(m, count_params(m), *level);
  EXPECT_DOUBLE_EQ(w.total, 16060522496.0);
  EXPECT_DOUBLE_EQ(w.head, 128256.0 * 4096 * 2);
}

TEST(Safetensors, LyingHeadersAreRefused) {
  auto error = [](const std::string& bytes) {
    return parse_safetensors(bytes, "m.safetensors").error;
  };
  EXPECT_NE(error("1234").find("too short"), std::string::npos);
  std::string huge(8, '\xff');
  EXPECT_NE(error(huge).find("header length"), std::string::npos);
  auto w = testing::llama3_8b_bf16();
  std::string cut = w.bytes();
  cut.resize(cut.size() - 10);
  EXPECT_NE(error(cut).find("ends inside"), std::string::npos);
  struct Case {
    nlohmann::json tensor;
    const char* says;
  } cases[] = {
      {{{"dtype", "Q4"}, {"shape", {2}}, {"data_offsets", {0, 2}}}, "not a safetensors dtype"},
      {{{"dtype", "F32"}, {"shape", {2}}, {"data_offsets", {0, 4}}}, "do not span its 8 bytes"},
      {{{"dtype", "F32"}, {"shape", {1ull << 40, 1ull << 40}}, {"data_offsets", {0, 0}}},
       "overflows"},
      {{{"dtype", "F32"}, {"shape", {-1}}, {"data_offsets", {0, 0}}}, "whole numbers"},
      {{{"dtype", "F32"}}, "expected {"},
  };
  for (const auto& c : cases) {
    testing::SafetensorsWriter bad;
    bad.json()["x"] = c.tensor;
    EXPECT_NE(error(bad.bytes()).find(c.says), std::string::npos) << error(bad.bytes());
  }
  std::string not_json = std::string("\x04\0\0\0\0\0\0\0", 8) + "[1] ";
  EXPECT_NE(error(not_json).find("not a JSON object"), std::string::npos);
}

}  // namespace
}  // namespace hwaccel::plan
