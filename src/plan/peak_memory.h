// Peak memory where a runtime has one beyond what it holds while serving
// (docs/planning.md, "Peak memory per runtime"):
//  - TensorRT-LLM builds an engine first (trtllm-build). TensorRT's builder
//    needs device buffers for the weights of the layers it times, and writes
//    the engine, whose bulk is the weights, into a GPU buffer of its own
//    (globWriter makeResizableGpuMemory: NVIDIA/TensorRT-LLM issues 346 and
//    772 fail there asking for about the engine's weight bytes); NVIDIA's
//    Torch-TensorRT resource guide gives "up to 2x the model size in GPU
//    memory" for the same builder. So a build peaks at about twice the
//    weights a device will hold, plus the CUDA context: a plan whose runtime
//    fits but whose build does not is refused, and said to be limited by it.
//  - vLLM takes gpu_memory_utilization (default 0.9) of each GPU's total
//    memory and fills what the weights, the profiled activations and its CUDA
//    graphs leave with KV cache: the plan budgets that share.
//  - llama.cpp reserves, on each device, a compute buffer for its worst-case
//    graph: one n_ubatch of tokens against a full KV cache, every output's
//    logits kept (src/llama-context.cpp, graph_reserve(n_tokens, n_seqs,
//    n_tokens) after memory->init_full()). ggml-alloc reuses the buffer from
//    one layer to the next, so it is the largest of a few moments of the
//    graph, not their sum: the rule below, checked against published logs in
//    docs/planning.md.
#pragma once

#include <string>
#include <string_view>

#include "src/plan/devices.h"
#include "src/plan/model_spec.h"

namespace hwaccel::plan {

// vLLM's default --gpu-memory-utilization: 0.9 from vLLM 0.2 (PR 2162
// documents it) through the 0.1x releases the calibration's vLLM rows ran,
// 0.92 since PR 38284 (2026; docs.vllm.ai/en/stable/cli/serve: "Default:
// 0.92"): a plan is for the vLLM a user installs today. `hwaccel plan
// --gpu-memory-utilization F` sets another share, as vLLM's flag does.
inline constexpr double kVllmGpuMemoryUtilization = 0.92;

// Bytes an engine build holds on one device whose engine carries `weights`
// bytes (0 for a runtime without a build step, and on a CPU).
double engine_build_bytes(std::string_view runtime, double weights, double overhead, bool cpu);

// Whether the runtime builds an engine before it serves (TensorRT-LLM).
bool builds_engine(std::string_view runtime);

// The bytes vLLM budgets on an accelerator: its utilisation `share` of the
// total, less whatever of it the reserve must keep free (the free memory
// when detected, else the total, less the reserve), at least 0.
double vllm_budget(const PlanDevice& d, double share = kVllmGpuMemoryUtilization);

// The note said when vLLM's budget is used (`given`: the user set the share).
std::string vllm_budget_note(double share = kVllmGpuMemoryUtilization, bool given = false);

// llama.cpp's defaults in the builds modelled: n_ubatch 512 (common/common.h,
// unchanged since n_ubatch was split from n_batch, ggml-org/llama.cpp PR
// 6017), and flash attention "auto" since PR 15434 (2025-08), which turns it
// on wherever the device holding a layer's KV cache runs FLASH_ATTN_EXT:
// CUDA, HIP, Metal, Vulkan and the CPU all do (see Workload::flash_attention).
inline constexpr int kLlamaCppUbatch = 512;
// The KV cache's cell count is padded to 256 with flash attention, 32
// without (llama_kv_cache_unified::get_padding).
inline constexpr int kLlamaCppKvPaddingFlash = 256;
inline constexpr int kLlamaCppKvPadding = 32;
// The mask's token rows are padded to GGML_KQ_MASK_PAD (64).
inline constexpr int kLlamaCppMaskPadding = 64;
// With the layers split over several GPUs llama.cpp runs them as a pipeline
// and keeps GGML_SCHED_MAX_COPIES (4) copies of every graph input per device
// (ggml-backend.c, sched->n_copies; unslothai/unsloth PR 7637 traced the 4x
// mask to it): the KQ mask is such an input.
inline constexpr int kLlamaCppPipelineCopies = 4;

// The moments of llama.cpp's worst-case graph that can set its compute buffer
// on one device, in bytes; the buffer is the largest.
struct LlamaComputeBuffer {
  // Self-attention of one layer: without flash attention the f32 KQ scores,
  // n_kv x n_ubatch x heads x 4 B (softmax runs in place), with it none;
  // plus the mask (f32, f16 with flash attention; per input copy) and four
  // n_embd x n_ubatch f32 tensors of the residual stream (Q, the attention
  // output, its merged copy, the layer's input): the count that makes the
  // logs where the scores dominate come out to the MiB (docs/planning.md).
  double attention = 0;
  // On the device holding the output layer: the f32 logits of every token of
  // the ubatch, n_vocab x n_ubatch x 4 B, the normed input to it, the mask.
  double output = 0;
  // The MLP of one layer: gate and up (per active expert), n_ff x n_ubatch x
  // 4 B each, the residual stream, the mask. No published log was found in
  // which this moment is the largest: it is read off the graph, not checked.
  double ffn = 0;
  double bytes() const;
  // "attention scores", "output logits" or "FFN": the largest moment.
  std::string limit() const;
};

// llama.cpp's compute buffer on one device that runs layers of `spec` with
// `context` KV cells per sequence and n_ubatch `ubatch`; `holds_output`: the
// device holds the output layer; `input_copies`: kLlamaCppPipelineCopies when
// the layers are split over several GPUs, else 1.
LlamaComputeBuffer llama_cpp_compute_buffer(const ModelSpec& spec, int context, int ubatch,
                                            bool flash_attention, bool holds_output,
                                            int input_copies = 1);
double llama_cpp_compute_buffer_bytes(const ModelSpec& spec, int context, int ubatch,
                                      bool flash_attention, bool holds_output,
                                      int input_copies = 1);

// What sets that buffer, filled in: "the KQ scores of one layer, 32768 KV
// cells x 512 tokens x 32 heads x 4 B (flash attention off)".
std::string llama_cpp_compute_buffer_formula(const ModelSpec& spec, int context, int ubatch,
                                             bool flash_attention, bool holds_output,
                                             int input_copies = 1);

// Whether the runtime's per-device activations are llama.cpp's compute buffer.
bool uses_compute_buffer(std::string_view runtime);

}  // namespace hwaccel::plan
