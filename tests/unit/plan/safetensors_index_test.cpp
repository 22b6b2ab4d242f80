// model.safetensors.index.json: the shards a sharded checkpoint is split
// into, read from weight_map; hostile names (paths, "..") and lying or huge
// indexes refused with the file named.
#include <gtest/gtest.h>

#include "src/plan/safetensors_index.h"

namespace hwaccel::plan {
namespace {

TEST(SafetensorsIndex, ListsEachShardOnce) {
  // The layout of Meta-Llama-3-8B's index (4 shards, metadata.total_size).
  auto r = parse_safetensors_index(
      R"({"metadata": {"total_size": 16060522496}, "weight_map": {
        "lm_head.weight": "model-00004-of-00004.safetensors",
        "model.embed_tokens.weight": "model-00001-of-00004.safetensors",
        "model.layers.0.mlp.down_proj.weight": "model-00001-of-00004.safetensors",
        "model.layers.9.mlp.up_proj.weight": "model-00002-of-00004.safetensors",
        "model.layers.31.mlp.up_proj.weight": "model-00003-of-00004.safetensors"}})",
      "m/model.safetensors.index.json");
  ASSERT_TRUE(r.index) << r.error;
  EXPECT_EQ(r.index->shards,
            (std::vector<std::string>{
                "model-00001-of-00004.safetensors", "model-00002-of-00004.safetensors",
                "model-00003-of-00004.safetensors", "model-00004-of-00004.safetensors"}));
  EXPECT_EQ(r.index->tensors, 5u);
  EXPECT_EQ(r.index->total_size, 16060522496ull);
}

TEST(SafetensorsIndex, RefusesPathsAndLies) {
  const std::string f = "m/model.safetensors.index.json";
  for (const char* bad : {R"({"weight_map": {"a": "../../etc/passwd.safetensors"}})",
                          R"({"weight_map": {"a": "/abs/model.safetensors"}})",
                          R"({"weight_map": {"a": ".hidden.safetensors"}})",
                          R"({"weight_map": {"a": "model.bin"}})", R"({"weight_map": {"a": 7}})"}) {
    auto r = parse_safetensors_index(bad, f);
    EXPECT_FALSE(r.index) << bad;
    EXPECT_EQ(r.error.rfind(f + ": weight_map \"a\"", 0), 0u) << r.error;
  }
  EXPECT_NE(parse_safetensors_index("{\"weight_map\": {}}", f).error.find("empty"),
            std::string::npos);
  EXPECT_NE(parse_safetensors_index("[1, 2]", f).error.find("not a JSON object"),
            std::string::npos);
  EXPECT_NE(parse_safetensors_index("{\"weight_map\": {", f).error.find("not a JSON object"),
            std::string::npos);
  EXPECT_NE(parse_safetensors_index("{}", f).error.find("weight_map"), std::string::npos);
}

TEST(SafetensorsIndex, BoundsHugeIndexes) {
  std::string many = "{\"weight_map\": {";
  for (int i = 0; i < 4097; ++i)
    many += (i ? "," : "") + std::string("\"t") + std::to_string(i) + "\": \"s" +
            std::to_string(i) + ".safetensors\"";
  many += "}}";
  EXPECT_NE(parse_safetensors_index(many, "i").error.find("more than 4096 shard files"),
            std::string::npos);
  std::string huge(kMaxSafetensorsIndexBytes + 1, ' ');
  EXPECT_NE(parse_safetensors_index(huge, "i").error.find("larger than"), std::string::npos);
}

}  // namespace
}  // namespace hwaccel::plan
