// Inference memory: weights + KV cache + activations/workspace + runtime
// overhead, each kept apart so reports can show them.
#pragma once

#include <string>

#include "src/plan/model_spec.h"
#include "src/plan/quant.h"

namespace hwaccel::plan {

struct Workload {
  int context = 4096;  // tokens per sequence held in the KV cache
  int batch = 1;       // sequences decoded together
  std::string kv = "fp16";
  int prefill_chunk = 512;  // tokens processed per step at prefill (llama.cpp n_ubatch)
  // llama.cpp's flash attention: on, its "auto" default since ggml-org/llama.cpp
  // PR 15434 on every backend the plan runs it on (src/plan/peak_memory.h);
  // off, the f32 KQ scores of one layer sit in its compute buffer.
  bool flash_attention = true;
  // vLLM's gpu_memory_utilization share (src/plan/peak_memory.h); 0: its default.
  double gpu_memory_utilization = 0;
  // --prompt/--gen (0: not given): prefill is estimated at `prompt` tokens and
  // decode at the KV length it averages over, prompt + gen / 2.
  int prompt = 0;
  int gen = 0;
  // The runtime whose profile prices the estimates ("llama.cpp", "vllm", ...);
  // empty: the perf class's figures.
  std::string runtime;
  int decode_context() const { return prompt > 0 || gen > 0 ? prompt + gen / 2 : context; }
};

// CUDA/HIP context, cuBLAS/rocBLAS workspace, allocator slack: per accelerator.
inline constexpr double kRuntimeOverheadBytes = 512.0 * 1024 * 1024;

struct Footprint {
  double weights = 0;
  double kv_cache = 0;
  // Workspace of one prefill chunk + logits; llama.cpp: its compute buffer on
  // a device that holds the output layer (src/plan/peak_memory.h).
  double activations = 0;
  double overhead = 0;  // runtime, per device it runs on (one device here)
  double total() const { return weights + kv_cache + activations + overhead; }
};

// KV bytes one layer holds per sequence at `context` tokens, averaged over
// the layers (sliding windows cap their layers; MLA stores one latent vector).
double kv_bytes_per_layer(const ModelSpec& spec, int context, double element_bytes);
double kv_bytes_total(const ModelSpec& spec, const Workload& w, double element_bytes);
// Activation bytes per device: one prefill chunk in flight + logits; for
// llama.cpp (w.runtime) its compute buffer on the device holding the output.
double activation_bytes(const ModelSpec& spec, const Workload& w);

Footprint footprint(const ModelSpec& spec, const WeightBytes& weights, const Workload& w,
                    double kv_element_bytes);

// "2 x 80 layers x 8 KV heads x 128 x 4096 tokens x 1 x 2 B" (the formula, filled in)
std::string kv_formula(const ModelSpec& spec, const Workload& w, double element_bytes);

}  // namespace hwaccel::plan
