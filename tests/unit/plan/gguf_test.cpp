// GGUF headers: exact bytes from real layouts, and strangers' files that are
// truncated, lie about their counts or claim sizes beyond reason.
#include "src/plan/gguf.h"

#include <gtest/gtest.h>

#include "src/plan/planner.h"
#include "tests/support/gguf_writer.h"
#include "tests/support/test_support.h"

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

// Issue 31: what ggml refuses is refused here too, each with the file, the
// byte, the key or tensor and what was expected (it was read as "1 layers").
TEST(Gguf, AKeyDefinedTwiceIsRefusedAtItsByte) {
  GgufWriter w;
  w.kv_string("general.architecture", "llama");
  w.kv_u32("llama.block_count", 32);
  w.kv_u32("llama.block_count", 1);
  auto r = parse_gguf(w.bytes(), "t.gguf");
  EXPECT_FALSE(r.header);
  EXPECT_FALSE(r.truncated);
  // 24 bytes of preamble, the first key (8 + 20 + 4 + 8 + 5), the second (8 + 17 + 4 + 4).
  const std::size_t second = 24 + (8 + 20 + 4 + 8 + 5) + (8 + 17 + 4 + 4);
  EXPECT_EQ(r.error, "t.gguf: at byte " + std::to_string(second) +
                         ": metadata key \"llama.block_count\" is defined twice (expected each "
                         "key once)");
}

TEST(Gguf, ATensorDefinedTwiceIsRefusedAtItsByte) {
  GgufWriter w;
  w.tensor("blk.0.attn_q.weight", {32}, testing::kF32);
  w.tensor("blk.0.attn_q.weight", {32}, testing::kF32);
  auto r = parse_gguf(w.bytes(), "t.gguf");
  EXPECT_FALSE(r.header);
  const std::size_t second = 24 + (8 + 19 + 4 + 8 + 4 + 8);
  EXPECT_EQ(r.error, "t.gguf: at byte " + std::to_string(second) +
                         ": tensor \"blk.0.attn_q.weight\" is defined twice (expected each name "
                         "once)");
}

TEST(Gguf, AnAlignmentThatIsNotAPowerOfTwoIsRefused) {
  for (std::uint32_t bad : {0u, 3u, 48u, 0xffffffffu}) {
    GgufWriter w;
    w.kv_u32("general.alignment", bad);
    w.tensor("x", {32}, testing::kF32);
    auto r = parse_gguf(w.bytes(), "t.gguf");
    EXPECT_FALSE(r.header) << bad;
    // The value's byte: 24 + 8 + 17 + 4.
    EXPECT_EQ(r.error, "t.gguf: at byte 53: general.alignment " + std::to_string(bad) +
                           " (expected a power of two, 32 by default)");
  }
  GgufWriter text;
  text.kv_string("general.alignment", "32");
  EXPECT_NE(parse_gguf(text.bytes(), "t.gguf").error.find("general.alignment is not a number"),
            std::string::npos);
  GgufWriter good;
  good.kv_u32("general.alignment", 64);
  good.tensor_at("x", {32}, testing::kF32, 0);
  good.tensor_at("y", {32}, testing::kF32, 128);
  auto r = parse_gguf(good.bytes(), "t.gguf");
  ASSERT_TRUE(r.header) << r.error;
  EXPECT_EQ(r.header->alignment, 64u);
}

TEST(Gguf, AnOffsetOffTheAlignmentIsRefused) {
  GgufWriter w;
  w.tensor("a", {32}, testing::kF32);
  w.tensor_at("b", {32}, testing::kF32, 130);
  auto r = parse_gguf(w.bytes(), "t.gguf");
  EXPECT_FALSE(r.header);
  // b's offset: 24 + a's info (8 + 1 + 4 + 8 + 4 + 8) + b's name, dimensions, shape, type.
  EXPECT_EQ(r.error, "t.gguf: at byte " + std::to_string(24 + 33 + 8 + 1 + 4 + 8 + 4) +
                         ": tensor \"b\": offset 130 is not a multiple of the alignment 32");
}

TEST(Gguf, DataPastTheFilesEndIsRefused) {
  auto w = testing::llama31_8b_q4_k_m();
  const std::string head = w.bytes();
  const std::uint64_t whole = w.file_bytes();
  auto r = parse_gguf(head, "m.gguf", whole);
  ASSERT_TRUE(r.header) << r.error;
  // One byte short: the last tensor (output.weight) ends past the end.
  r = parse_gguf(head, "m.gguf", whole - 1);
  EXPECT_FALSE(r.header);
  EXPECT_NE(r.error.find(": tensor \"output.weight\": its "), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("end past the file's " + std::to_string(whole - 1) + " bytes"),
            std::string::npos)
      << r.error;
  // A copy of the header alone: the first tensor with bytes is past the end.
  r = parse_gguf(head, "m.gguf", head.size());
  EXPECT_FALSE(r.header);
  EXPECT_NE(r.error.find("rope_freqs.weight"), std::string::npos) << r.error;
  // An offset near 2^64 does not wrap around into the file.
  GgufWriter lie;
  lie.tensor_at("x", {32}, testing::kF32, ~std::uint64_t{0} - 31);
  const std::string lie_head = lie.bytes();
  r = parse_gguf(lie_head, "t.gguf", std::uint64_t{1} << 40);
  EXPECT_FALSE(r.header);
  EXPECT_EQ(r.error.rfind("t.gguf: at byte " + std::to_string(24 + 8 + 1 + 4 + 8 + 4) +
                              ": tensor \"x\": its 128 bytes at offset ",
                          0),
            0u)
      << r.error;
}

// The same cases as whole files, in tests/fuzz/regressions/model_file/ (every
// fuzz run starts from them): each refused, the well-formed one read.
TEST(Gguf, RegressionFilesOfTheFuzzCorpusAreRefused) {
  const struct {
    const char* name;
    const char* says;
  } cases[] = {{"duplicate-key.gguf", "\"llama.block_count\" is defined twice"},
               {"duplicate-tensor.gguf", "\"blk.0.attn_q.weight\" is defined twice"},
               {"alignment-zero.gguf", "general.alignment 0"},
               {"data-past-the-end.gguf", "end past the file's 218 bytes"},
               {"well-formed.gguf", ""}};
  for (const auto& c : cases) {
    auto bytes = testing::slurp(
        testing::source_path(std::string("tests/fuzz/regressions/model_file/") + c.name));
    ASSERT_TRUE(bytes) << c.name;
    auto r = parse_gguf(*bytes, c.name, bytes->size());
    if (*c.says == 0) {
      ASSERT_TRUE(r.header) << r.error;
      EXPECT_EQ(r.header->tensors.size(), 2u);
      continue;
    }
    EXPECT_FALSE(r.header) << c.name;
    EXPECT_NE(r.error.find(c.says), std::string::npos) << r.error;
  }
}

}  // namespace
}  // namespace hwaccel::plan
