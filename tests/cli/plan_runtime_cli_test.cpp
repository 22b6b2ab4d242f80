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
  EXPECT_NE(assumed.out.find("\nruntime: llama.cpp (assumed: GGUF quantisation q4_k_m)\n"),
            std::string::npos)
      << assumed.out;
  // llama.cpp's spelling of 16-bit on a GeForce: llama.cpp, said why.
  auto f16 = run_command(
      hw("plan --host fixtures/hosts/rtx4090-amd-igpu.yaml --on cuda:0 --model Llama-3-8B "
         "--quant F16"));
  EXPECT_NE(f16.out.find("\nruntime: llama.cpp (assumed: GGUF quantisation F16 (llama.cpp's "
                         "spelling))\n"),
            std::string::npos)
      << f16.out;
  // fp16 on a datacenter GPU with nothing saying llama.cpp: vLLM, said in --json.
  auto dc = run_command(
      hw("plan --host fixtures/hosts/dgx-h100.yaml --on cuda:0 --model Llama-3-8B --json"));
  EXPECT_NE(dc.out.find("\"runtime\": {\n    \"assumed\": true,\n    "
                        "\"gpu_memory_utilization\": 0.92,\n    \"name\": \"vllm\",\n    "
                        "\"why\": \"the most common runtime on datacenter gpus\"\n  }"),
            std::string::npos)
      << dc.out;
  // An AWQ checkpoint on a GeForce: vLLM (llama.cpp does not run AWQ).
  auto awq = run_command(
      hw("plan --host fixtures/hosts/rtx4090-amd-igpu.yaml --on cuda:0 --model Llama-3-8B "
         "--quant awq"));
  EXPECT_NE(awq.out.find("\nruntime: vllm (assumed: awq-int4 on a consumer gpu (llama.cpp does "
                         "not run it))\n"),
            std::string::npos)
      << awq.out;
  // A named runtime says so.
  auto named = run_command(
      hw("plan --host fixtures/hosts/rtx4090-amd-igpu.yaml --on cuda:0 --model Llama-3-8B "
         "--runtime vllm"));
  EXPECT_NE(named.out.find("\nruntime: vllm (--runtime)\n"), std::string::npos) << named.out;
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

// `cost --runtime`: the named runtime prices every row (and says its
// profile), the instances it cannot run on are listed with the reason, and an
// unknown runtime is refused with the list.
TEST(CostRuntimeCli, ANamedRuntimePricesTheRowsAndRefusesWithTheReason) {
  auto r =
      run_command(hw("cost --model gpt-oss-20B --quant mxfp4 --runtime trt-llm --prompt 2048"));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("runtime: trt-llm (--runtime); prompt tokens priced at a prefill of 2048"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("refused: aws inf2.48xlarge: trt-llm cannot run mxfp4"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("priced by: trt-llm on nvidia-datacenter: fit by"), std::string::npos)
      << r.out;
  // A class the runtime has no profile for says so.
  auto sg = run_command(hw("cost --model gpt-oss-20B --quant mxfp4 --runtime sglang"));
  EXPECT_NE(sg.out.find("priced by: no sglang profile for nvidia-consumer: the perf class's"),
            std::string::npos)
      << sg.out;
  // And a class it has one for names it (issue 34: gpt-oss rows on H100 and B200).
  EXPECT_NE(sg.out.find("priced by: sglang on nvidia-datacenter: "), std::string::npos) << sg.out;
  auto j = run_command(hw("cost --model gpt-oss-20B --quant mxfp4 --runtime trt-llm --json"));
  EXPECT_EQ(j.exit_code, 0) << j.err;
  EXPECT_NE(j.out.find("\"runtime\": \"trt-llm\""), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"usd_per_million_prompt_tokens\""), std::string::npos);
  EXPECT_NE(j.out.find("\"reason\": \"trt-llm cannot run mxfp4 on AWS Inferentia2"),
            std::string::npos)
      << j.out;
  // Hopper runs MXFP4 MoE as W4A16 under TensorRT-LLM: priced so, and said.
  EXPECT_NE(r.out.find("priced as an emulation: trt-llm runs mxfp4 on NVIDIA H100"),
            std::string::npos)
      << r.out;
  auto bad = run_command(hw("cost --model Llama-3-8B --runtime ollama"));
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("llama.cpp,vllm,sglang,trt-llm,mlx"), std::string::npos) << bad.err;
}

// `train --runtime`: the serving runtimes are refused with the reason, mlx
// on Apple prices mlx-lm (QLoRA on its 4-bit base, no ZeRO), and without it
// the framework assumed is said.
TEST(TrainRuntimeCli, TheFrameworkIsSaidAndServingRuntimesAreRefused) {
  auto plain = run_command(
      hw("train --host fixtures/hosts/dgx-h100.yaml --model Llama-3-8B --method lora --zero 3"));
  EXPECT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_NE(plain.out.find("framework: PyTorch + DeepSpeed ZeRO 3"), std::string::npos)
      << plain.out;
  auto vllm = run_command(
      hw("train --host fixtures/hosts/dgx-h100.yaml --model Llama-3-8B --runtime vllm"));
  EXPECT_EQ(vllm.exit_code, 2);
  EXPECT_NE(vllm.err.find("vllm serves models, it does not train"), std::string::npos) << vllm.err;
  auto mlx = run_command(
      hw("train --host fixtures/hosts/mac-studio-m2-ultra.yaml --model Llama-3-70B --method "
         "qlora --runtime mlx"));
  EXPECT_EQ(mlx.exit_code, 0) << mlx.err;
  EXPECT_NE(mlx.out.find("framework: MLX (mlx-lm)"), std::string::npos) << mlx.out;
  EXPECT_NE(mlx.out.find("4-bit affine base (MLX"), std::string::npos) << mlx.out;
  auto zero = run_command(
      hw("train --host fixtures/hosts/mac-studio-m2-ultra.yaml --model Llama-3-8B --runtime mlx "
         "--zero 2"));
  EXPECT_EQ(zero.exit_code, 2);
  EXPECT_NE(zero.err.find("no ZeRO"), std::string::npos) << zero.err;
  auto off_apple =
      run_command(hw("train --host fixtures/hosts/dgx-h100.yaml --model Llama-3-8B --runtime mlx"));
  EXPECT_EQ(off_apple.exit_code, 2);
  EXPECT_NE(off_apple.err.find("Apple silicon only"), std::string::npos) << off_apple.err;
  auto bad = run_command(
      hw("train --host fixtures/hosts/dgx-h100.yaml --model Llama-3-8B --runtime ollama"));
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("llama.cpp,vllm,sglang,trt-llm,mlx"), std::string::npos) << bad.err;
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

TEST(PlanRuntimeCli, VllmShareAndFlashAttentionAreTheUsersToSet) {
  // vLLM's own flag: the share budgeted, said in the note and in --json.
  auto share = run_command(
      hw("plan --host fixtures/hosts/dgx-h100.yaml --on cuda:0 --model Llama-3-70B --quant fp8 "
         "--runtime vllm --gpu-memory-utilization 0.8 --json"));
  EXPECT_EQ(share.exit_code, 11) << share.err;  // 69.6 GiB does not fit 0.8 x 79.6 GiB
  EXPECT_NE(share.out.find("\"gpu_memory_utilization\": 0.8,"), std::string::npos) << share.out;
  EXPECT_NE(share.out.find("vLLM takes 0.80 of each GPU's memory (gpu_memory_utilization, "
                           "--gpu-memory-utilization)"),
            std::string::npos)
      << share.out;
  auto out_of_range = run_command(
      hw("plan --host fixtures/hosts/dgx-h100.yaml --model Llama-3-8B --gpu-memory-utilization 2"));
  EXPECT_NE(out_of_range.exit_code, 0);
  // llama.cpp's -fa: off puts one layer's f32 scores in the compute buffer.
  std::string base =
      "plan --host fixtures/hosts/rtx4090-amd-igpu.yaml --on cuda:0 --model Llama-3-8B "
      "--quant q8_0 --context 65536";
  auto on = run_command(hw(base));
  auto off = run_command(hw(base + " --flash-attn off"));
  EXPECT_EQ(on.exit_code, 0) << on.out << on.err;
  EXPECT_EQ(off.exit_code, 11) << off.out;
  EXPECT_NE(off.out.find("the compute buffer is the limit"), std::string::npos) << off.out;
  auto bad = run_command(hw(base + " --flash-attn maybe"));
  EXPECT_NE(bad.exit_code, 0);
}

}  // namespace
}  // namespace hwaccel::testing
