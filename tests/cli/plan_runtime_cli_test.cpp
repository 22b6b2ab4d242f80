// `hwaccel plan --runtime` and sharded checkpoints end to end: the runtime is
// said (named or assumed), a runtime that cannot run on the device refuses it
// with the reason, vLLM's FP8 Marlin path on an A100 is priced and said, and
// a DIR with model.safetensors.index.json reads exactly the shards it names.
#include <gtest/gtest.h>

#include "tests/cli/cli_test_util.h"
#include "tests/support/safetensors_writer.h"

namespace hwaccel::testing {
namespace {

std::string hw(const std::string& args) {
  return "cd " + source_path("") + " && " + bin("hwaccel") + " " + args;
}

TEST(PlanRuntimeCli, TheRuntimeIsSaidAndANamedOneDecides) {
  auto assumed = run_command(
      hw("plan --host fixtures/hosts/rtx4090-amd-igpu.yaml --on cuda:0 --model Llama-3-8B "
         "--quant Q4_K_M"));
  EXPECT_EQ(assumed.exit_code, 0) << assumed.err;
  EXPECT_NE(assumed.out.find("note: runtime: llama.cpp (assumed: q4_k_m is a GGUF format"),
            std::string::npos)
      << assumed.out;
  auto mlx =
      run_command(hw("plan --host fixtures/hosts/dgx-h100.yaml --on cuda:0 --model "
                     "Llama-3-8B --runtime mlx"));
  EXPECT_EQ(mlx.exit_code, 11) << mlx.out;  // does not fit: the device holds nothing
  EXPECT_NE(mlx.out.find("MLX runs on Apple silicon only"), std::string::npos) << mlx.out;
  auto marlin =
      run_command(hw("plan --host fixtures/hosts/dgx-a100.yaml --on cuda:0 --model "
                     "Llama-3-8B --quant fp8 --runtime vllm"));
  EXPECT_EQ(marlin.exit_code, 0) << marlin.out << marlin.err;
  EXPECT_NE(marlin.out.find("priced as an emulation: vllm runs fp8"), std::string::npos)
      << marlin.out;
  auto bad =
      run_command(hw("plan --host fixtures/hosts/cpu-only.yaml --model Llama-3-8B "
                     "--runtime ollama"));
  EXPECT_NE(bad.exit_code, 0);
}

void write_config(const std::string& dir) {
  write_text(dir + "/config.json", R"({"num_hidden_layers": 32, "hidden_size": 4096,
    "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
    "vocab_size": 128256, "tie_word_embeddings": false, "torch_dtype": "bfloat16"})");
}

TEST(PlanRuntimeCli, AnIndexNamesTheShardsThatAreRead) {
  std::string dir = make_temp_dir();
  write_config(dir);
  write_text(dir + "/model-00001-of-00001.safetensors", llama3_8b_bf16().bytes());
  write_text(dir + "/stray.safetensors", "not a safetensors file");  // not in the index
  write_text(dir + "/model.safetensors.index.json",
             R"({"metadata": {"total_size": 16060522496}, "weight_map": {
                 "lm_head.weight": "model-00001-of-00001.safetensors"}})");
  auto r = run_command(hw("plan --host fixtures/hosts/dgx-h100.yaml --on cuda:0 --model " + dir));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("exact, 291 tensors"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("model.safetensors.index.json: 1 shard files read"), std::string::npos)
      << r.out;
}

TEST(PlanRuntimeCli, AnIndexNamingAPathOrAMissingShardIsRefused) {
  std::string dir = make_temp_dir();
  write_config(dir);
  write_text(dir + "/model.safetensors.index.json",
             R"({"weight_map": {"w": "../outside.safetensors"}})");
  auto r = run_command(hw("plan --host fixtures/hosts/cpu-only.yaml --model " + dir));
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_NE(r.err.find("model.safetensors.index.json: weight_map \"w\""), std::string::npos)
      << r.err;
  write_text(dir + "/model.safetensors.index.json", R"({"weight_map": {"w": "gone.safetensors"}})");
  auto missing = run_command(hw("plan --host fixtures/hosts/cpu-only.yaml --model " + dir));
  EXPECT_EQ(missing.exit_code, 4);
  EXPECT_NE(missing.err.find("gone.safetensors"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace hwaccel::testing
