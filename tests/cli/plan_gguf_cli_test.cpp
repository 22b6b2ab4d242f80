// `hwaccel plan --model FILE.gguf` end to end: the header of a file written by
// the test is read (never its weights: the file is sparse, its data holes),
// planned with its exact bytes, and a lying header is refused with the byte it
// lies at.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/cli/cli_test_util.h"
#include "tests/support/gguf_writer.h"
#include "tests/support/safetensors_writer.h"

namespace hwaccel::testing {
namespace {

std::string hw(const std::string& args) {
  return "cd " + source_path("") + " && " + bin("hwaccel") + " " + args;
}

// The header, then a hole as long as the data it places (no disk is used).
void write_sparse_gguf(const std::string& path, const GgufWriter& w) {
  write_text(path, w.bytes());
  std::filesystem::resize_file(path, w.file_bytes());
}

TEST(PlanGgufCli, HeaderOnlyFileIsPlannedWithItsExactBytes) {
  std::string dir = make_temp_dir();
  write_sparse_gguf(dir + "/llama.gguf", llama31_8b_q4_k_m());
  auto r = run_command(hw("plan --host fixtures/hosts/rtx4090-amd-igpu.yaml --on cuda:0 --model " +
                          dir + "/llama.gguf --prompt 512 --gen 128"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("request: weights gguf:Q4_K_M (4.89 bpw; exact, 292 tensors"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("weights      4.6 GiB"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("context 640"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("at the prompt's 512"), std::string::npos) << r.out;
}

TEST(PlanGgufCli, LyingHeaderIsRefusedWithTheByte) {
  std::string dir = make_temp_dir();
  GgufWriter w;
  w.lie_tensor_count(std::uint64_t{1} << 40);
  write_text(dir + "/lie.gguf", w.bytes());
  auto r = run_command(hw("plan --host fixtures/hosts/cpu-only.yaml --model " + dir + "/lie.gguf"));
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_EQ(r.err, "error: " + dir + "/lie.gguf: at byte 24: 1099511627776 tensors (at most " +
                       "65536)\n");
}

// Issue 31: each was planned as "1 layers"; now refused naming the file, the
// byte and what was expected.
TEST(PlanGgufCli, DuplicatesBadAlignmentAndDataPastTheEndAreRefused) {
  std::string dir = make_temp_dir();
  GgufWriter twice = llama31_8b_q4_k_m();
  twice.kv_u32("llama.block_count", 1);
  write_sparse_gguf(dir + "/twice.gguf", twice);
  GgufWriter tensor_twice = llama31_8b_q4_k_m();
  tensor_twice.tensor("output.weight", {4096, 128256}, kQ6_K);
  write_sparse_gguf(dir + "/tensor-twice.gguf", tensor_twice);
  GgufWriter align;
  align.kv_string("general.architecture", "llama");
  align.kv_u32("general.alignment", 0);
  align.tensor("x", {32}, kF32);
  write_sparse_gguf(dir + "/align.gguf", align);
  write_text(dir + "/header-only.gguf", llama31_8b_q4_k_m().bytes());
  const struct {
    const char* file;
    const char* says;
  } cases[] = {
      {"twice.gguf", ": metadata key \"llama.block_count\" is defined twice"},
      {"tensor-twice.gguf", ": tensor \"output.weight\" is defined twice"},
      {"align.gguf", ": general.alignment 0 (expected a power of two"},
      {"header-only.gguf", ": tensor \"rope_freqs.weight\": its 256 bytes at offset 0"},
  };
  for (const auto& c : cases) {
    const std::string file = dir + "/" + c.file;
    auto r = run_command(hw("plan --host fixtures/hosts/cpu-only.yaml --model " + file));
    EXPECT_EQ(r.exit_code, 4) << c.file << ": " << r.out;
    EXPECT_EQ(r.err.rfind("error: " + file + ": at byte ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("layers"), std::string::npos) << r.out;
  }
}

TEST(PlanGgufCli, SafetensorsDirectoryIsPlannedWithItsExactBytes) {
  std::string dir = make_temp_dir();
  write_text(dir + "/config.json", R"({"num_hidden_layers": 32, "hidden_size": 4096,
    "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
    "vocab_size": 128256, "tie_word_embeddings": false, "torch_dtype": "bfloat16"})");
  write_text(dir + "/model-00001-of-00001.safetensors", llama3_8b_bf16().bytes());
  auto r = run_command(hw("plan --host fixtures/hosts/dgx-h100.yaml --on cuda:0 --model " + dir));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("request: weights safetensors:BF16 (16.00 bpw; exact, 291 tensors"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("weights      15.0 GiB"), std::string::npos) << r.out;
}

TEST(PlanGgufCli, PromptAndGenLongerThanContextIsAUsageError) {
  auto r =
      run_command(hw("plan --host fixtures/hosts/cpu-only.yaml --model Llama-3-8B --context "
                     "100 --prompt 512"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "error: --context 100 cannot hold --prompt 512 + --gen 128 = 640 tokens\n");
}

}  // namespace
}  // namespace hwaccel::testing
