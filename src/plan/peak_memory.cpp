#include "src/plan/peak_memory.h"

#include <algorithm>
#include <cstdio>

namespace hwaccel::plan {

bool builds_engine(std::string_view runtime) {
  return runtime == "trt-llm";
}

double engine_build_bytes(std::string_view runtime, double weights, double overhead, bool cpu) {
  if (cpu || !builds_engine(runtime)) return 0;
  // The checkpoint's weights the builder times with, and the engine it
  // writes (about the same bytes), at once; plus the CUDA context. Tactic
  // workspace is not counted: TensorRT skips a tactic it has no memory for.
  return 2 * weights + overhead;
}

double vllm_budget(const PlanDevice& d, double utilization) {
  double share = d.total_bytes * utilization;
  double may_take = (d.free_bytes ? *d.free_bytes : d.total_bytes) - d.reserve_bytes;
  return std::max(0.0, std::min(share, may_take));
}

namespace {

long long llama_round_up(long long n, long long multiple) {
  return (n + multiple - 1) / multiple * multiple;
}

}  // namespace

double LlamaComputeBuffer::bytes() const {
  return std::max({attention, output, ffn});
}

std::string LlamaComputeBuffer::limit() const {
  double b = bytes();
  if (b == attention) return "attention scores";
  if (b == output) return "output logits";
  return "FFN";
}

LlamaComputeBuffer llama_cpp_compute_buffer(const ModelSpec& m, int context, int ubatch,
                                            bool flash_attention, bool holds_output,
                                            int input_copies) {
  LlamaComputeBuffer b;
  if (context <= 0 || ubatch <= 0) return b;
  // The worst case reserved: min(n_ctx, n_ubatch) tokens, all of them outputs,
  // against every KV cell (llama-context.cpp, graph_reserve after init_full).
  double tokens = std::min(context, ubatch);
  // Layers with a sliding window see only the window; when every layer has
  // one, that is what the scores span.
  int kv_cells = m.sliding_layers > 0 && m.sliding_layers >= m.layers && m.sliding_window > 0
                     ? std::min(context, m.sliding_window)
                     : context;
  double n_kv = double(
      llama_round_up(kv_cells, flash_attention ? kLlamaCppKvPaddingFlash : kLlamaCppKvPadding));
  double mask_rows = double(llama_round_up(static_cast<long long>(tokens), kLlamaCppMaskPadding));
  double mask = n_kv * mask_rows * (flash_attention ? 2 : 4) * std::max(1, input_copies);
  double residual = double(m.hidden) * tokens * 4;  // one n_embd x n_ubatch f32 tensor
  double scores = flash_attention ? 0 : n_kv * tokens * m.heads * 4;
  b.attention = scores + mask + 4 * residual;
  if (holds_output) b.output = double(m.vocab) * tokens * 4 + residual + mask;
  double width = m.moe() ? double(m.moe_intermediate > 0 ? m.moe_intermediate : m.intermediate) *
                               m.experts_per_token
                         : m.intermediate;
  b.ffn = 2 * width * tokens * 4 + 2 * residual + mask;
  return b;
}

double llama_cpp_compute_buffer_bytes(const ModelSpec& m, int context, int ubatch,
                                      bool flash_attention, bool holds_output, int input_copies) {
  return llama_cpp_compute_buffer(m, context, ubatch, flash_attention, holds_output, input_copies)
      .bytes();
}

std::string llama_cpp_compute_buffer_formula(const ModelSpec& m, int context, int ubatch,
                                             bool flash_attention, bool holds_output,
                                             int input_copies) {
  auto b =
      llama_cpp_compute_buffer(m, context, ubatch, flash_attention, holds_output, input_copies);
  int tokens = std::min(context, ubatch);
  std::string fa = flash_attention ? "flash attention on" : "flash attention off";
  std::string t = std::to_string(tokens) + " tokens";
  if (b.limit() == "attention scores") {
    if (flash_attention)
      return "the attention of one layer, its KQ mask and residual stream at " + t + " (" + fa +
             ")";
    return "the KQ scores of one layer, " + std::to_string(context) + " KV cells x " + t + " x " +
           std::to_string(m.heads) + " heads x 4 B (" + fa + ")";
  }
  if (b.limit() == "output logits")
    return "the output logits, " + std::to_string(m.vocab) + " vocab x " + t + " x 4 B (" + fa +
           ")";
  return "the MLP of one layer, 2 x its width x " + t + " x 4 B (" + fa + ")";
}

bool uses_compute_buffer(std::string_view runtime) {
  return runtime == "llama.cpp";
}

std::string vllm_budget_note(double share, bool given) {
  char buf[360];
  std::snprintf(buf, sizeof buf,
                "vLLM takes %.2f of each GPU's memory (gpu_memory_utilization, %s) and "
                "fills what the weights, activations and CUDA graphs leave with KV cache: the "
                "plan budgets that share, less any of it the reserve keeps free",
                share, given ? "--gpu-memory-utilization" : "its default");
  return buf;
}

}  // namespace hwaccel::plan
