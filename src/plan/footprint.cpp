#include "src/plan/footprint.h"

#include <algorithm>
#include <sstream>

#include "src/plan/peak_memory.h"

namespace hwaccel::plan {

namespace {

// Elements one layer stores per token.
double kv_elements_per_token(const ModelSpec& m) {
  if (m.mla()) return double(m.kv_lora_rank) + m.qk_rope_head_dim;
  return 2.0 * m.kv_heads * m.head_dim;
}

}  // namespace

double kv_bytes_per_layer(const ModelSpec& m, int context, double element_bytes) {
  if (m.layers == 0) return 0;
  double per_token = kv_elements_per_token(m) * element_bytes;
  int full = m.layers - m.sliding_layers;
  double window_tokens = std::min(context, m.sliding_window);
  double total = per_token * (double(full) * context + double(m.sliding_layers) * window_tokens);
  return total / m.layers;
}

double kv_bytes_total(const ModelSpec& m, const Workload& w, double element_bytes) {
  return kv_bytes_per_layer(m, w.context, element_bytes) * m.layers * w.batch;
}

double activation_bytes(const ModelSpec& m, const Workload& w) {
  // llama.cpp: its compute buffer, which holds this chunk's tensors too (not
  // counted twice).
  if (uses_compute_buffer(w.runtime))
    return llama_cpp_compute_buffer_bytes(m, w.context, w.prefill_chunk, w.flash_attention, true);
  // One prefill chunk in flight: residual, normed input, q/k/v/o, MLP up/gate
  // (per active expert) in 16-bit, plus fp32 logits for the last token of
  // each sequence.
  double tokens = double(std::min(w.context, w.prefill_chunk)) * w.batch;
  double width = m.moe() ? double(m.moe_intermediate > 0 ? m.moe_intermediate : m.intermediate) *
                               m.experts_per_token
                         : m.intermediate;
  double per_token = (4.0 * m.hidden + 2.0 * m.heads * m.head_dim + 2.0 * width) * 2;
  double scores = double(m.heads) * std::min(w.context, w.prefill_chunk) * 4;  // flash tiles
  return tokens * (per_token + scores) + double(w.batch) * m.vocab * 4;
}

Footprint footprint(const ModelSpec& m, const WeightBytes& weights, const Workload& w,
                    double kv_element_bytes) {
  Footprint f;
  f.weights = weights.total;
  f.kv_cache = kv_bytes_total(m, w, kv_element_bytes);
  f.activations = activation_bytes(m, w);
  f.overhead = kRuntimeOverheadBytes;
  return f;
}

std::string kv_formula(const ModelSpec& m, const Workload& w, double element_bytes) {
  std::ostringstream o;
  if (m.mla())
    o << m.layers << " layers x (" << m.kv_lora_rank << " + " << m.qk_rope_head_dim << ") x ";
  else
    o << "2 x " << m.layers << " layers x " << m.kv_heads << " KV heads x " << m.head_dim << " x ";
  o << w.context << " tokens x " << w.batch << " x " << element_bytes << " B";
  if (m.sliding_layers)
    o << "; " << m.sliding_layers << " layers hold only " << std::min(w.context, m.sliding_window)
      << " tokens";
  return o.str();
}

}  // namespace hwaccel::plan
