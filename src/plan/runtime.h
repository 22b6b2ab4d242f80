// Inference runtimes (llama.cpp, vLLM, SGLang, TensorRT-LLM, MLX): which
// weight formats each runs on which device, the one assumed when none is
// named, and how many routed experts a prefill touches. The speed figures of a
// runtime on a device class are RuntimeProfiles in the catalogue.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/plan/catalogue.h"
#include "src/plan/quant.h"

namespace hwaccel::plan {

// The names --runtime takes, in the catalogue's spelling.
const std::vector<std::string>& runtime_names();
bool is_runtime(std::string_view name);

// The runtime assumed when --runtime is not given, with the reason in a few
// words ("GGUF quantisation q4_k_m"). The rules, first match wins
// (docs/planning.md, "The runtime assumed"):
//  1. a GGUF model file, or a GGUF quantisation (q4_0, q4_k_m, q8_0 ..., or
//     llama.cpp's own spelling F16/F32): llama.cpp;
//  2. a CPU, or a device not in the catalogue: llama.cpp;
//  3. Apple: an MLX model (MLX's quantization block, or safetensors weights,
//     which MLX reads as they are): MLX;
//  4. a quantisation llama.cpp does not run (fp8, nvfp4, awq, gptq, int8, nf4)
//     or safetensors weights, on any other accelerator: vLLM;
//  5. otherwise the most common runtime for the device's segment: vLLM on
//     datacenter parts, llama.cpp on consumer, workstation and embedded ones
//     and on Apple (Ollama and LM Studio run llama.cpp).
struct RuntimeChoice {
  std::string runtime;
  std::string why;
};
struct RuntimeInputs {
  const QuantLevel* quant = nullptr;  // the level planned (required)
  std::string quant_typed;            // --quant as the user typed it; empty: none
  std::string model_file;             // "gguf", "safetensors", "mlx" or "" (built-in, config.json)
  const Sku* sku = nullptr;           // the first accelerator; nullptr: unknown or a CPU
  bool cpu = false;                   // no accelerator: a CPU plans it
};
RuntimeChoice default_runtime(const RuntimeInputs& in);
RuntimeChoice default_runtime(const QuantLevel& q, const Sku* sku, bool cpu);

// The model file's kind for RuntimeInputs::model_file, from what was read.
std::string model_file_kind(const ModelSpec& spec);

// A SKU's market segment: its catalogue `segment`, else "datacenter" for the
// datacenter and other-accelerator perf classes, else "consumer".
std::string sku_segment(const Sku& sku);

// What a runtime does with a level on a device: refused (with the reason), or
// run, possibly through an emulation that is said (vLLM's FP8 Marlin on
// Ampere: fp8 weights, bf16 compute).
struct RuntimeSupport {
  std::optional<std::string> refused;
  std::optional<std::string> emulation;
};
RuntimeSupport runtime_support(std::string_view runtime, const QuantLevel& q, const Sku* sku,
                               bool cpu);

// The profile of `runtime` on the device's class; nullptr when the catalogue
// has none (the perf class's figures are used).
const RuntimeProfile* runtime_profile(const Catalogue& cat, std::string_view runtime,
                                      const Sku& sku);

// How a runtime computes a level its kernels do not run on the device's own
// units: the format the kernels compute in and the line said in the plan
// (llama.cpp's MXFP4 through int8 MMQ; vLLM's and SGLang's FP8/FP4 Marlin
// W8A16/W4A16 on sm_80+; TensorRT-LLM's W4A16 MXFP4 and opt-in NVFP4 Marlin on
// Hopper; MLX's dequantising Metal kernels). nullopt: native, or not run.
struct Emulation {
  std::string compute;  // "bf16", "int8", ...
  std::string note;
};
std::optional<Emulation> emulation(std::string_view runtime, const QuantLevel& q, const Sku* sku,
                                   bool cpu);

// The format a runtime's prefill GEMMs run in on this device: the profile's
// activation format when the device has it (else bf16, fp16, fp32); for
// "weights" and without a profile, the emulation's format where the runtime
// emulates the level (above), else the level's own compute format.
std::string activation_format(const RuntimeProfile* profile, const QuantLevel& q, const Sku& sku,
                              std::string_view runtime = {});

// Expected distinct routed experts a prefill of `tokens` touches per layer
// with top-k routing over `experts`: E * (1 - (1 - k/E)^N).
double experts_touched(int experts, int k, double tokens);

}  // namespace hwaccel::plan
