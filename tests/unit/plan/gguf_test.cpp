// GGUF headers: exact bytes from real layouts, and strangers' files that are
// truncated, lie about their counts or claim sizes beyond reason.
#include "src/plan/gguf.h"

#include <gtest/gtest.h>

#include "src/plan/planner.h"
#include "tests/support/gguf_writer.h"

namespace hwaccel::plan {
namespace {

using testing::GgufWriter;
constexpr double kGiB = 1024.0 * 1024 * 1024;

TEST(Gguf, GgmlTypeSizesAreGgmls) {
  // (values per block, bytes per block) from gguf-py's GGML_QUANT_SIZES.
  struct Case {
    std::uint32_t id;
    std::uint32_t block, bytes;
  } cases[] = {{2, 32, 18},    {8, 32, 34},   {10, 256, 84}, {12, 256, 144},
               {14, 256, 210}, {16, 256, 66}, {19, 256, 50}, {23, 256, 136},
               {29, 256, 56},  {30, 1, 2},    {39, 32, 17}};
  for (const auto& c : cases) {
    const GgmlType* t = ggml_type(c.id);
    ASSERT_NE(t, nullptr) << c.id;
    EXPECT_EQ(t->block, c.block) << t->name;
    EXPECT_EQ(t->bytes, c.bytes) << t->name;
  }
  EXPECT_EQ(ggml_type(4), nullptr);  // Q4_2: removed from GGUF
  EXPECT_EQ(ggml_type(1000), nullptr);
}

TEST(Gguf, Llama31_8BQ4KMIsExactToTheByte) {
  auto bytes = testing::llama31_8b_q4_k_m().bytes();
  auto r = parse_gguf(bytes, "m.gguf");
  ASSERT_TRUE(r.header) << r.error;
  EXPECT_EQ(r.header->tensors.size(), 292u);
  EXPECT_EQ(r.header->header_bytes, bytes.size());
  // llama.cpp's tools/quantize/README.md: Llama-3.1-8B Q4_K_M is 4.58 GiB, 4.89 bpw.
  EXPECT_NEAR(r.header->weight_bytes / kGiB, 4.58, 0.005);
  auto m = model_from_gguf(*r.header, "m.gguf");
  ASSERT_TRUE(m.spec) << m.error;
  EXPECT_EQ(m.spec->layers, 32);
  EXPECT_EQ(m.spec->kv_heads, 8);
  EXPECT_EQ(m.spec->head_dim, 128);
  EXPECT_EQ(m.spec->vocab, 128256);
  EXPECT_FALSE(m.spec->tied_embeddings);
  EXPECT_EQ(m.spec->dtype, "q4_k_m");
  auto level = file_quant_level(*m.spec);
  ASSERT_TRUE(level);
  EXPECT_EQ(level->name, "gguf:Q4_K_M");
  EXPECT_NEAR(level->bits, 4.89, 0.005);
  // The planner uses the file's bytes, not the level's average.
  auto cost = model_cost(*m.spec, *level, {});
  EXPECT_DOUBLE_EQ(cost.weights.total, double(r.header->weight_bytes));
  EXPECT_DOUBLE_EQ(cost.weights.head, 4096.0 * 128256 / 256 * 210);
}

TEST(Gguf, MissingKvHeadsIsSaid) {
  auto r = parse_gguf(testing::llama31_8b_q4_k_m(false).bytes(), "m.gguf");
  ASSERT_TRUE(r.header) << r.error;
  auto m = model_from_gguf(*r.header, "m.gguf");
  ASSERT_TRUE(m.spec) << m.error;
  EXPECT_EQ(m.spec->kv_heads, 32);
  ASSERT_FALSE(m.spec->assumptions.empty());
  EXPECT_NE(m.spec->assumptions[0].find("head_count_kv"), std::string::npos);
}

TEST(Gguf, EveryTruncationIsAnErrorThatSaysWhere) {
  GgufWriter w;
  w.kv_string("general.architecture", "llama");
  w.kv_tokens("tokenizer.ggml.tokens", 3);
  w.kv_u32_array("llama.attention.head_count_kv", {8, 8});
  w.tensor("token_embd.weight", {256, 3}, testing::kQ4_K);
  const std::string full = w.bytes();
  ASSERT_TRUE(parse_gguf(full, "t.gguf").header);
  for (std::size_t n = 0; n < full.size(); ++n) {
    auto r = parse_gguf(std::string_view(full).substr(0, n), "t.gguf");
    EXPECT_FALSE(r.header) << n;
    EXPECT_TRUE(r.truncated) << n << ": " << r.error;
    EXPECT_EQ(r.error.rfind("t.gguf: at byte ", 0), 0u) << r.error;
  }
}

TEST(Gguf, LyingCountsAndSizesAreRefusedBeforeAnyAllocation) {
  {
    GgufWriter w;
    w.lie_tensor_count(std::uint64_t{1} << 40);
    auto r = parse_gguf(w.bytes(), "t.gguf");
    EXPECT_NE(r.error.find("tensors (at most"), std::string::npos) << r.error;
  }
  {
    GgufWriter w;
    w.lie_key_count(~std::uint64_t{0});
    EXPECT_NE(parse_gguf(w.bytes(), "t.gguf").error.find("metadata keys"), std::string::npos);
  }
  {
    // A key claiming 2^63 bytes.
    GgufWriter w;
    GgufWriter::put(w.raw_metadata(), std::uint64_t{1} << 63);
    w.count_raw_key();
    auto r = parse_gguf(w.bytes(), "t.gguf");
    EXPECT_NE(r.error.find("a metadata key of"), std::string::npos) << r.error;
  }
  {
    // An array of 2^60 strings in a few bytes.
    GgufWriter w;
    GgufWriter::string(w.raw_metadata(), "tokenizer.ggml.tokens");
    GgufWriter::put(w.raw_metadata(), std::uint32_t{9});
    GgufWriter::put(w.raw_metadata(), std::uint32_t{8});
    GgufWriter::put(w.raw_metadata(), std::uint64_t{1} << 60);
    w.count_raw_key();
    auto r = parse_gguf(w.bytes(), "t.gguf");
    EXPECT_NE(r.error.find("cannot fit"), std::string::npos) << r.error;
  }
  struct Bad {
    std::vector<std::uint64_t> shape;
    std::uint32_t type;
    const char* says;
  } bad[] = {
      {{1, 1, 1, 1, 1}, testing::kF32, "5 dimensions"},
      {{std::uint64_t{1} << 32, std::uint64_t{1} << 32}, testing::kF32, "overflows"},
      {{100}, testing::kQ4_K, "not a whole number of Q4_K blocks"},
      {{32}, 31, "ggml type 31"},
      {{0}, testing::kF32, "a dimension of 0"},
  };
  for (const auto& b : bad) {
    GgufWriter w;
    w.tensor("x", b.shape, b.type);
    auto r = parse_gguf(w.bytes(), "t.gguf");
    EXPECT_FALSE(r.header);
    EXPECT_NE(r.error.find(b.says), std::string::npos) << r.error;
  }
  EXPECT_NE(parse_gguf("GGML....", "t.gguf").error.find("magic"), std::string::npos);
  EXPECT_NE(parse_gguf(GgufWriter().bytes(9), "t.gguf").error.find("version 9"), std::string::npos);
}

TEST(Gguf, AHugeHeaderSaysItIsLargerThanWhatWasRead) {
  // A metadata string of 64 MiB in a head cut at 64 MiB: the header does not
  // end within what was read, and the message names the limit.
  GgufWriter lie;
  GgufWriter::string(lie.raw_metadata(), "k");
  GgufWriter::put(lie.raw_metadata(), std::uint32_t{8});
  GgufWriter::put(lie.raw_metadata(), std::uint64_t{kMaxGgufHeadBytes});
  lie.count_raw_key();
  std::string head = lie.bytes();
  auto short_file = parse_gguf(head, "t.gguf");
  EXPECT_TRUE(short_file.truncated);
  EXPECT_EQ(short_file.error.find("larger than"), std::string::npos) << short_file.error;
  head.resize(kMaxGgufHeadBytes, 'x');
  auto huge = parse_gguf(head, "t.gguf");
  EXPECT_TRUE(huge.truncated);
  EXPECT_NE(huge.error.find("larger than the 64 MiB read"), std::string::npos) << huge.error;
}

TEST(Gguf, MoeExpertsAreCountedApartForDecode) {
  // gpt-oss-20B's layout (ggml-org's MXFP4 GGUF): experts in MXFP4, the rest Q8_0/F32.
  GgufWriter w;
  w.kv_string("general.architecture", "gpt-oss");
  w.kv_u32("gpt-oss.block_count", 24);
  w.kv_u32("gpt-oss.embedding_length", 2880);
  w.kv_u32("gpt-oss.feed_forward_length", 2880);
  w.kv_u32("gpt-oss.expert_feed_forward_length", 2880);
  w.kv_u32("gpt-oss.attention.head_count", 64);
  w.kv_u32("gpt-oss.attention.head_count_kv", 8);
  w.kv_u32("gpt-oss.attention.key_length", 64);
  w.kv_u32("gpt-oss.expert_count", 32);
  w.kv_u32("gpt-oss.expert_used_count", 4);
  w.kv_u32("gpt-oss.vocab_size", 201088);
  w.tensor("token_embd.weight", {2880, 201088}, testing::kQ8_0);
  for (int i = 0; i < 24; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_q.weight", {2880, 4096}, testing::kQ8_0);
    w.tensor(b + "ffn_gate_exps.weight", {2880, 2880, 32}, testing::kMXFP4);
    w.tensor(b + "ffn_up_exps.weight", {2880, 2880, 32}, testing::kMXFP4);
    w.tensor(b + "ffn_down_exps.weight", {2880, 2880, 32}, testing::kMXFP4);
  }
  w.tensor("output.weight", {2880, 201088}, testing::kQ8_0);
  auto r = parse_gguf(w.bytes(), "oss.gguf");
  ASSERT_TRUE(r.header) << r.error;
  auto m = model_from_gguf(*r.header, "oss.gguf");
  ASSERT_TRUE(m.spec) << m.error;
  ASSERT_TRUE(m.spec->file_weights);
  const double experts = 24.0 * 3 * 2880 * 2880 * 32 / 32 * 17;
  EXPECT_DOUBLE_EQ(m.spec->file_weights->experts, experts);
  EXPECT_EQ(m.spec->file_weights->compute, "fp4");  // the bulk is MXFP4
  auto level = file_quant_level(*m.spec);
  auto cost = model_cost(*m.spec, *level, {});
  // One token reads 4 of 32 experts.
  EXPECT_NEAR(cost.weights.per_token,
              cost.weights.total - cost.weights.embedding - experts + experts * 4 / 32, 1);
}

}  // namespace
}  // namespace hwaccel::plan
