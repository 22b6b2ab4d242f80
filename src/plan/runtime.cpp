#include "src/plan/runtime.h"

#include <algorithm>
#include <cmath>

namespace hwaccel::plan {

namespace {

bool among(std::string_view name, std::initializer_list<std::string_view> list) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

// llama.cpp's own formats: a GGUF file level or a block quantisation.
bool gguf_level(const QuantLevel& q) {
  return q.name.rfind("gguf:", 0) == 0 ||
         among(q.name, {"q8_0", "q6_k", "q5_k_m", "q4_k_m", "q4_0", "iq4_xs", "q3_k_l", "q2_k"});
}

bool apple(const Sku* sku) {
  return sku && sku->vendor == "Apple";
}
bool nvidia(const Sku* sku) {
  return sku && sku->vendor == "NVIDIA";
}

// Ampere and later: the Marlin kernels' minimum (sm_80).
bool nvidia_sm80_plus(const Sku* sku) {
  if (!nvidia(sku) || sku->target.rfind("sm_", 0) != 0) return false;
  return std::atoi(sku->target.c_str() + 3) >= 80;
}

}  // namespace

const std::vector<std::string>& runtime_names() {
  static const std::vector<std::string> names{"llama.cpp", "vllm", "sglang", "trt-llm", "mlx"};
  return names;
}

bool is_runtime(std::string_view name) {
  const auto& n = runtime_names();
  return std::find(n.begin(), n.end(), name) != n.end();
}

std::string model_file_kind(const ModelSpec& spec) {
  if (spec.file_weights) {
    const std::string& level = spec.file_weights->level;
    if (level.rfind("gguf", 0) == 0) return "gguf";
    if (spec.mlx_quantized) return "mlx";
    if (level.rfind("safetensors:", 0) == 0) return "safetensors";
  }
  return spec.mlx_quantized ? "mlx" : "";
}

std::string sku_segment(const Sku& sku) {
  if (!sku.segment.empty()) return sku.segment;
  if (sku.perf_class.find("datacenter") != std::string::npos ||
      sku.perf_class == "other-accelerator")
    return "datacenter";
  return "consumer";
}

RuntimeChoice default_runtime(const QuantLevel& q, const Sku* sku, bool cpu) {
  RuntimeInputs in;
  in.quant = &q;
  in.sku = sku;
  in.cpu = cpu;
  return default_runtime(in);
}

RuntimeChoice default_runtime(const RuntimeInputs& in) {
  const QuantLevel& q = *in.quant;
  std::string typed;
  for (char c : in.quant_typed)
    typed += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  // 1. What the user gave says llama.cpp.
  if (in.model_file == "gguf") return {"llama.cpp", "GGUF model file"};
  if (gguf_level(q)) {
    const std::string shown = q.name.rfind("gguf:", 0) == 0 ? q.name.substr(5) : q.name;
    return {"llama.cpp", "GGUF quantisation " + shown};
  }
  if (typed == "f16" || typed == "f32")
    return {"llama.cpp", "GGUF quantisation " + in.quant_typed + " (llama.cpp's spelling)"};
  // 2. No accelerator the catalogue knows.
  if (in.cpu) return {"llama.cpp", "the most common runtime on CPUs"};
  if (!in.sku) return {"llama.cpp", "a device not in the catalogue"};
  const Sku& sku = *in.sku;
  const std::string segment = sku_segment(sku);
  // 3. Apple: an MLX model.
  if (apple(&sku)) {
    if (in.model_file == "mlx") return {"mlx", "MLX model on Apple"};
    if (in.model_file == "safetensors") return {"mlx", "safetensors model on Apple (MLX reads it)"};
    return {"llama.cpp", "the most common runtime on Apple GPUs without an MLX model"};
  }
  // 4. Formats only the Hugging Face runtimes run.
  const bool hf_level = among(q.name, {"fp8", "nvfp4", "awq-int4", "gptq-int4", "int8", "nf4"}) ||
                        q.name.rfind("safetensors:", 0) == 0;
  if (hf_level || in.model_file == "safetensors") {
    const std::string what = q.name.rfind("safetensors:", 0) == 0 ? q.name.substr(12) : q.name;
    const std::string model = in.model_file == "safetensors" ? " safetensors model" : "";
    return {"vllm", what + model + " on a " + segment + " " + sku.type +
                        (segment == "datacenter" ? "" : " (llama.cpp does not run it)")};
  }
  // 5. The segment's most common runtime.
  if (segment == "datacenter")
    return {"vllm", "the most common runtime on datacenter " + sku.type + "s"};
  return {"llama.cpp", "the most common runtime on " + segment + " " + sku.type + "s"};
}

RuntimeSupport runtime_support(std::string_view rt, const QuantLevel& q, const Sku* sku, bool cpu) {
  RuntimeSupport s;
  const std::string who = cpu ? "a CPU" : sku ? sku->name : "this device";
  const std::string name(rt);
  auto refuse = [&](const std::string& why) {
    s.refused = name + " cannot run " + q.name + " on " + who + ": " + why;
    return s;
  };
  if (rt == "mlx" && !apple(sku)) return refuse("MLX runs on Apple silicon only");
  if (rt == "trt-llm" && !nvidia(sku)) return refuse("TensorRT-LLM runs on NVIDIA GPUs only");
  if ((rt == "vllm" || rt == "sglang" || rt == "trt-llm") && apple(sku))
    return refuse("no Metal backend; use mlx or llama.cpp");
  const bool hf_file = q.name.rfind("safetensors:", 0) == 0;
  if (rt == "llama.cpp") {
    if (gguf_level(q) || among(q.name, {"bf16", "fp16", "fp32", "mxfp4"})) {
      if (auto e = emulation(rt, q, sku, cpu)) s.emulation = e->note;
      return s;
    }
    return refuse(
        "llama.cpp reads GGUF files (f16, bf16, q8_0 ... q2_k, mxfp4); convert, e.g. to "
        "q8_0 or q4_k_m");
  }
  if (rt == "mlx") {
    // MLX's affine quantisation (group 64, a scale and a bias per group) is
    // 4.5 and 8.5 bits per weight, the sizes of q4_0 and q8_0.
    if (among(q.name, {"bf16", "fp16", "fp32", "mxfp4", "nvfp4", "q4_0", "q8_0"}) || hf_file) {
      if (auto e = emulation(rt, q, sku, cpu)) s.emulation = e->note;
      return s;
    }
    return refuse(
        "MLX runs bf16, fp16, its 4- and 8-bit affine formats (q4_0, q8_0 sizes), mxfp4 "
        "and nvfp4");
  }
  // vllm, sglang, trt-llm: Hugging Face formats.
  if (gguf_level(q))
    return refuse(
        "GGUF k-quants are llama.cpp's format (vLLM's GGUF loader is experimental and "
        "not modelled); use llama.cpp, or an fp8, int8, awq or gptq checkpoint");
  if (rt == "trt-llm" && q.name == "nf4")
    return refuse("TensorRT-LLM has no bitsandbytes NF4; use awq-int4 or gptq-int4");
  if (auto e = emulation(rt, q, sku, cpu)) {
    s.emulation = e->note;
    return s;
  }
  const char* need = q.name == "fp8" ? "fp8" : q.compute == "fp4" ? "fp4" : nullptr;
  if (need && sku && !sku->is_native(need))
    return refuse(std::string("no ") + (q.name == "fp8" ? "FP8" : "FP4") + " units and no " + name +
                  " weight-only path on this device" +
                  (rt == "trt-llm" && q.name == "mxfp4"
                       ? " (TensorRT-LLM runs MXFP4 MoE as W4A16 on Hopper and natively on "
                         "Blackwell; \"WFP4A16 MoE is unsupported on SM89\", issue 6717)"
                       : ""));
  return s;
}

std::optional<Emulation> emulation(std::string_view rt, const QuantLevel& q, const Sku* sku,
                                   bool cpu) {
  if (!sku || cpu || sku->type == "cpu") return std::nullopt;
  const std::string who = sku->name;
  const std::string name(rt);
  const bool fp4 = q.compute == "fp4";
  const char* need = q.name == "fp8" ? "fp8" : fp4 ? "fp4" : nullptr;
  std::string half = "fp32";  // the device's best 16-bit format
  for (const char* f : {"bf16", "fp16"})
    if (half == "fp32" && sku->is_native(f)) half = f;
  auto weight_only = [&](const std::string& how) {
    return Emulation{half, name + " runs " + q.name + " on " + who + " weight-only (" + how +
                               "): " + q.name + " bytes at decode, " + half +
                               " compute at prefill"};
  };
  if (rt == "llama.cpp") {
    // ggml has no FP4 MMA in the builds measured (native MXFP4 MMA on Blackwell
    // is PR 17906, Dec 2025, experimental): CUDA/HIP's MMQ widens E2M1 to int8
    // against q8_1 activations; Metal, Vulkan and CPUs dequantise to 16 bits.
    if (!fp4) return std::nullopt;
    if ((nvidia(sku) || sku->vendor == "AMD") && sku->is_native("int8"))
      return Emulation{"int8", "llama.cpp runs " + q.name + " on " + who +
                                   " through its int8 kernels (MMQ: E2M1 widened to int8, q8_1 "
                                   "activations): " +
                                   q.name + " bytes at decode, int8 compute at prefill"};
    return Emulation{sku->is_native("fp16") ? "fp16" : half,
                     "llama.cpp dequantises " + q.name + " on " + who + ": " + q.name +
                         " bytes at decode, 16-bit compute at prefill"};
  }
  if (rt == "mlx") {
    // MLX's nvfp4 and mxfp4 modes (ml-explore/mlx PR 2688) have Metal kernels
    // that dequantise: Apple GPUs have no FP4 units.
    if (!fp4) return std::nullopt;
    return Emulation{"fp16", "mlx runs " + q.name + " on " + who +
                                 " through its Metal kernels, dequantised: " + q.name +
                                 " bytes at decode, fp16 compute at prefill"};
  }
  if (!need) return std::nullopt;
  if (sku->is_native(need)) {
    // vLLM's MXFP4 MoE on sm_12x (GB10, RTX 50, RTX PRO 6000) falls back to
    // Marlin (vLLM issues 30135, 43969; CUTLASS MXFP4 needs a source build for
    // sm_121a): bf16 compute despite the FP4 units.
    if (rt == "vllm" && q.name == "mxfp4" && sku->target.rfind("sm_12", 0) == 0)
      return weight_only("Marlin, the MXFP4 MoE backend shipped builds pick on sm_12x");
    return std::nullopt;
  }
  if (rt == "vllm" || rt == "sglang") {
    // Marlin W8A16 / W4A16 (vLLM PRs 17687, 18000; SGLang PR 19652), sm_80+.
    // vLLM's MXFP4 needs sm_80 (vLLM issue 23203) and runs Triton W4A16 on ROCm.
    // On Hopper MXFP4 MoE goes through OpenAI's Triton kernels (matmul_ogs, the
    // path vLLM PR 25488 compares Marlin with), bf16 activations all the same.
    if (q.name == "mxfp4" && sku->target == "sm_90")
      return weight_only("Triton matmul_ogs W4A16 MoE");
    if (nvidia_sm80_plus(sku)) return weight_only("Marlin");
    if (rt == "vllm" && q.name == "mxfp4" && sku->vendor == "AMD")
      return weight_only("Triton W4A16 MoE");
    return std::nullopt;
  }
  if (rt == "trt-llm" && sku->target == "sm_90") {
    // Hopper: MXFP4 MoE as W4A16 (TensorRT-LLM's gpt_oss README support
    // matrix), NVFP4 through its opt-in Marlin backend (PR 13476).
    if (q.name == "mxfp4") return weight_only("W4A16 MoE, TRITON or CUTLASS backend");
    if (q.name == "nvfp4") return weight_only("Marlin, opt-in: moe_config.backend MARLIN");
  }
  return std::nullopt;
}

const RuntimeProfile* runtime_profile(const Catalogue& cat, std::string_view runtime,
                                      const Sku& sku) {
  auto r = cat.runtimes.find(std::string(runtime));
  if (r == cat.runtimes.end()) return nullptr;
  auto p = r->second.find(sku.perf_class);
  return p == r->second.end() ? nullptr : &p->second;
}

std::string activation_format(const RuntimeProfile* profile, const QuantLevel& q, const Sku& sku,
                              std::string_view runtime) {
  if (!profile || profile->activation == "weights") {
    if (auto e = emulation(runtime, q, &sku, false)) return e->compute;
    return compute_format(q, sku);
  }
  if (sku.is_native(profile->activation)) return profile->activation;
  for (const char* f : {"bf16", "fp16", "fp32"})
    if (sku.is_native(f)) return f;
  return compute_format(q, sku);
}

double experts_touched(int experts, int k, double tokens) {
  if (experts <= 0 || k <= 0) return 0;
  if (k >= experts) return experts;
  return experts * (1 - std::pow(1 - double(k) / experts, std::max(0.0, tokens)));
}

}  // namespace hwaccel::plan
