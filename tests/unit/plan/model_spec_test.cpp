#include "src/plan/model_spec.h"

#include <gtest/gtest.h>

#include "src/plan/footprint.h"

namespace hwaccel::plan {
namespace {

TEST(ModelSpec, Llama3_70BCountsMatchThePublishedSize) {
  auto m = builtin_model("Llama-3-70B");
  ASSERT_TRUE(m.spec);
  auto c = count_params(*m.spec);
  EXPECT_NEAR(c.total() / 1e9, 70.55, 0.05);
  // 320 KiB of fp16 KV per token.
  Workload w;
  w.context = 1;
  EXPECT_DOUBLE_EQ(kv_bytes_total(*m.spec, w, 2.0), 320.0 * 1024);
}

TEST(ModelSpec, MoeAndMlaCounts) {
  auto mix = count_params(*builtin_model("mixtral-8x7b").spec);
  EXPECT_NEAR(mix.total() / 1e9, 46.7, 0.1);
  // Mistral's 12.9 B active includes the embedding table, which a token reads one row of.
  EXPECT_NEAR(mix.active() / 1e9, 12.75, 0.05);
  auto ds = builtin_model("DeepSeek-V3").spec;
  auto c = count_params(*ds);
  EXPECT_NEAR(c.total() / 1e9, 671, 2);
  EXPECT_NEAR(c.active() / 1e9, 37.5, 1.5);
  Workload w;
  w.context = 1;
  // MLA: 61 layers x (512 + 64) x 2 bytes per token.
  EXPECT_DOUBLE_EQ(kv_bytes_total(*ds, w, 2.0), 61.0 * 576 * 2);
  auto oss = count_params(*builtin_model("gpt-oss-120B").spec);
  EXPECT_NEAR(oss.total() / 1e9, 116.8, 1.0);
  EXPECT_NEAR(oss.active() / 1e9, 5.1, 0.3);
}

TEST(ModelSpec, SlidingWindowCapsTheKvCache) {
  auto m = *builtin_model("Mistral-7B").spec;
  Workload w;
  w.context = 32768;
  double capped = kv_bytes_total(m, w, 2.0);
  w.context = 4096;
  EXPECT_DOUBLE_EQ(capped, kv_bytes_total(m, w, 2.0));
}

TEST(ModelSpec, HfConfig) {
  const char* text = R"({"model_type": "llama", "num_hidden_layers": 32, "hidden_size": 4096,
    "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
    "vocab_size": 128256, "tie_word_embeddings": false, "torch_dtype": "bfloat16"})";
  auto r = parse_hf_config(text, "cfg/config.json");
  ASSERT_TRUE(r.spec) << r.error;
  EXPECT_EQ(r.spec->head_dim, 128);
  EXPECT_NEAR(count_params(*r.spec).total() / 1e9, 8.03, 0.01);
}

TEST(ModelSpec, HfConfigLayerTypes) {
  const char* text = R"({"num_hidden_layers": 4, "hidden_size": 256, "num_attention_heads": 4,
    "intermediate_size": 512, "vocab_size": 1000, "sliding_window": 128,
    "layer_types": ["sliding_attention", "full_attention", "sliding_attention", "full_attention"]})";
  auto r = parse_hf_config(text, "c.json");
  ASSERT_TRUE(r.spec) << r.error;
  EXPECT_EQ(r.spec->sliding_layers, 2);
  EXPECT_EQ(r.spec->sliding_window, 128);
}

TEST(ModelSpec, BadConfigNamesFileAndKey) {
  auto r = parse_hf_config(R"({"num_hidden_layers": "many"})", "m/config.json");
  ASSERT_FALSE(r.spec);
  EXPECT_EQ(r.error,
            "m/config.json: key \"num_hidden_layers\": expected a positive integer, got \"many\"");
  auto missing = parse_hf_config(R"({"num_hidden_layers": 2})", "c.json");
  EXPECT_EQ(missing.error, "c.json: key \"hidden_size\": missing (expected a positive integer)");
  auto syntax = parse_hf_config("{\n  \"a\": ,\n}", "c.json");
  EXPECT_EQ(syntax.error.rfind("c.json:2:", 0), 0u) << syntax.error;
}

TEST(ModelSpec, UnknownNameListsKnownNames) {
  auto r = builtin_model("Llama-9-1T");
  ASSERT_FALSE(r.spec);
  EXPECT_NE(r.error.find("unknown model \"Llama-9-1T\"; known: Llama-2-7B"), std::string::npos);
  EXPECT_NE(r.error.find("DeepSeek-V3"), std::string::npos);
}

TEST(ModelSpec, BareParameterCount) {
  auto r = model_from_params("70B");
  ASSERT_TRUE(r.spec) << r.error;
  EXPECT_NEAR(count_params(*r.spec).total(), 70e9, 1e6);
  EXPECT_FALSE(r.spec->assumptions.empty());
  EXPECT_FALSE(model_from_params("lots").spec);
  EXPECT_FALSE(model_from_params("-3B").spec);
}

}  // namespace
}  // namespace hwaccel::plan
