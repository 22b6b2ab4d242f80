// The runtime assumed without --runtime (runtime.h default_runtime): one test
// per rule, each asserting the runtime and the reason the report prints.
#include <gtest/gtest.h>

#include "src/plan/model_spec.h"
#include "src/plan/planner.h"
#include "src/plan/runtime.h"

namespace hwaccel::plan {
namespace {

const Sku* sku(const char* id) {
  const Sku* s = builtin_catalogue().find(id);
  EXPECT_NE(s, nullptr) << id;
  return s;
}

RuntimeChoice choose(const char* quant, const char* device, std::string model_file = "",
                     std::string typed = "", bool cpu = false) {
  RuntimeInputs in;
  in.quant = find_quant(quant);
  EXPECT_NE(in.quant, nullptr) << quant;
  in.quant_typed = std::move(typed);
  in.model_file = std::move(model_file);
  in.sku = device ? sku(device) : nullptr;
  in.cpu = cpu;
  return default_runtime(in);
}

// Rule 1a: a GGUF model file means llama.cpp, whatever the level and device.
TEST(DefaultRuntime, AGgufFileMeansLlamaCpp) {
  auto c = choose("fp16", "h100-sxm", "gguf");
  EXPECT_EQ(c.runtime, "llama.cpp");
  EXPECT_EQ(c.why, "GGUF model file");
}

// Rule 1b: a GGUF quantisation means llama.cpp, on a datacenter GPU too.
TEST(DefaultRuntime, AGgufQuantisationMeansLlamaCpp) {
  auto c = choose("q4_k_m", "h100-sxm");
  EXPECT_EQ(c.runtime, "llama.cpp");
  EXPECT_EQ(c.why, "GGUF quantisation q4_k_m");
  EXPECT_EQ(choose("q8_0", "apple-m2-ultra").runtime, "llama.cpp");
}

// Rule 1c: llama.cpp's own spelling of 16-bit (F16) is a GGUF level.
TEST(DefaultRuntime, LlamaCppsSpellingOfF16MeansLlamaCpp) {
  auto c = choose("fp16", "rtx-4090", "", "F16");
  EXPECT_EQ(c.runtime, "llama.cpp");
  EXPECT_EQ(c.why, "GGUF quantisation F16 (llama.cpp's spelling)");
  EXPECT_EQ(choose("fp16", "h100-sxm", "", "F16").runtime, "llama.cpp");
}

// Rule 2: a CPU, or a device the catalogue does not know, means llama.cpp.
TEST(DefaultRuntime, ACpuOrAnUnknownDeviceMeansLlamaCpp) {
  EXPECT_EQ(choose("bf16", nullptr, "", "", true).runtime, "llama.cpp");
  auto unknown = choose("bf16", nullptr);
  EXPECT_EQ(unknown.runtime, "llama.cpp");
  EXPECT_EQ(unknown.why, "a device not in the catalogue");
}

// Rule 3: an MLX model on Apple means MLX; fp16 on Apple without one does not.
TEST(DefaultRuntime, AnMlxModelOnAppleMeansMlx) {
  auto c = choose("q4_0", "apple-m3-max", "mlx");
  EXPECT_EQ(c.runtime, "llama.cpp") << "q4_0 names a GGUF level: rule 1 first";
  auto mlx = choose("bf16", "apple-m3-max", "mlx");
  EXPECT_EQ(mlx.runtime, "mlx");
  EXPECT_EQ(mlx.why, "MLX model on Apple");
  EXPECT_EQ(choose("bf16", "apple-m2-ultra", "safetensors").runtime, "mlx");
  auto plain = choose("fp16", "apple-m2-ultra");
  EXPECT_EQ(plain.runtime, "llama.cpp");
  EXPECT_EQ(plain.why, "the most common runtime on Apple GPUs without an MLX model");
}

// Rule 4: a Hugging Face quantisation on a datacenter GPU means vLLM.
TEST(DefaultRuntime, AnFp8OrAwqCheckpointOnADatacenterGpuMeansVllm) {
  auto fp8 = choose("fp8", "h100-sxm", "safetensors");
  EXPECT_EQ(fp8.runtime, "vllm");
  EXPECT_EQ(fp8.why, "fp8 safetensors model on a datacenter gpu");
  EXPECT_EQ(choose("nvfp4", "b200").runtime, "vllm");
  EXPECT_EQ(choose("awq-int4", "a100-80gb").runtime, "vllm");
  EXPECT_EQ(choose("gptq-int4", "mi300x").runtime, "vllm");
  // llama.cpp does not run AWQ: vLLM on a GeForce too, and the reason says so.
  auto awq = choose("awq-int4", "rtx-4090");
  EXPECT_EQ(awq.runtime, "vllm");
  EXPECT_EQ(awq.why, "awq-int4 on a consumer gpu (llama.cpp does not run it)");
}

// Rule 5: otherwise the segment's most common runtime.
TEST(DefaultRuntime, OtherwiseTheSegmentsMostCommonRuntime) {
  auto dc = choose("bf16", "h100-sxm");
  EXPECT_EQ(dc.runtime, "vllm");
  EXPECT_EQ(dc.why, "the most common runtime on datacenter gpus");
  auto geforce = choose("fp16", "rtx-4090");
  EXPECT_EQ(geforce.runtime, "llama.cpp");
  EXPECT_EQ(geforce.why, "the most common runtime on consumer gpus");
  EXPECT_EQ(choose("bf16", "mi300x").runtime, "vllm");
  EXPECT_EQ(choose("bf16", "rx-7900-xtx").runtime, "llama.cpp");
  EXPECT_EQ(choose("bf16", "l40s").runtime, "vllm") << "an L40S is a datacenter card";
}

TEST(DefaultRuntime, TheModelFileKindComesFromWhatWasRead) {
  ModelSpec m;
  EXPECT_EQ(model_file_kind(m), "");
  m.file_weights = FileWeights{};
  m.file_weights->level = "gguf:Q4_K_M";
  EXPECT_EQ(model_file_kind(m), "gguf");
  m.file_weights->level = "safetensors:BF16";
  EXPECT_EQ(model_file_kind(m), "safetensors");
  m.mlx_quantized = true;
  EXPECT_EQ(model_file_kind(m), "mlx");
}

TEST(DefaultRuntime, ThePlanSaysTheRuntimeInOneLine) {
  PlanRequest req;
  req.spec = *builtin_model("Llama-3-8B").spec;
  req.quant = *find_quant("q4_k_m");
  auto r = make_plan(req, synthetic_devices(*sku("rtx-4090"), 1, 0), builtin_catalogue(), false);
  EXPECT_EQ(r.runtime_line(), "runtime: llama.cpp (assumed: GGUF quantisation q4_k_m)");
  req.runtime = "vllm";
  req.quant = *find_quant("bf16");
  r = make_plan(req, synthetic_devices(*sku("rtx-4090"), 1, 0), builtin_catalogue(), false);
  EXPECT_EQ(r.runtime_line(), "runtime: vllm (--runtime)");
}

}  // namespace
}  // namespace hwaccel::plan
