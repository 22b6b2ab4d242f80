// `hwaccel plan --model FILE.gguf` end to end: the header of a file written by
// the test is read (never its weights, which it does not have), planned with
// its exact bytes, and a lying header is refused with the byte it lies at.
#include <gtest/gtest.h>

#include "tests/cli/cli_test_util.h"
#include "tests/support/gguf_writer.h"
#include "tests/support/safetensors_writer.h"

namespace hwaccel::testing {
namespace {

std::string hw(const std::string& args) {
  return "cd " + source_path("") + " && " + bin("hwaccel") + " " + args;
}

TEST(PlanGgufCli, HeaderOnlyFileIsPlannedWithItsExactBytes) {
  std::string dir = make_temp_dir();
  write_text(dir + "/llama.gguf", llama31_8b_q4_k_m().bytes());
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
