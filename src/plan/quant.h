// Quantisation levels with their real bits per weight, which tensors they
// touch, and the format a device computes them in.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/plan/catalogue.h"
#include "src/plan/model_spec.h"

namespace hwaccel::plan {

enum class QuantScope {
  whole_file,  // GGUF: the bpw is the measured average over the whole file
  linear,      // only the linear layers; embeddings, lm_head and norms stay 16-bit
  experts,     // only MoE experts; other tensors at 8.5 bits (as ggml-org's MXFP4 GGUFs)
};

struct QuantLevel {
  std::string name;  // "q4_k_m"
  double bits = 16;  // bits per weight in its scope
  QuantScope scope = QuantScope::whole_file;
  std::string compute;  // format whose peak bounds prefill: bf16, fp8, int8, fp4, fp32
  std::string note;     // what stays in higher precision, where the bpw comes from
};

// In order of quality, best first (fp32 last: no better than bf16 for inference).
const std::vector<QuantLevel>& quant_levels();
const QuantLevel* find_quant(std::string_view name);
// Case-insensitive; also llama.cpp's (Q4_K_M, F16) and Hugging Face's
// (bfloat16, float8_e4m3fn, bnb-4bit) spellings.
std::string quant_names();  // "fp32, bf16, ..."

// Why a device cannot run this level at all (fp8 without FP8 units, nvfp4
// before Blackwell); nullopt when it can. `sku` nullptr: a CPU not in the catalogue.
std::optional<std::string> unsupported_on(const QuantLevel& q, const Sku* sku);

// Weight bytes of the whole model, and of what one decode token reads.
struct WeightBytes {
  double total = 0;
  double per_token = 0;       // batch 1: active experts only, lm_head, one embedding row
  double experts_total = 0;   // routed experts (for batch > 1 expert coverage)
  double per_layer = 0;       // average per transformer layer (for sharding)
  double outside_layers = 0;  // embeddings + lm_head
  double embedding = 0;       // token table (first stage)
  double head = 0;            // lm_head (last stage); the tied table when tied
  double head_read = 0;       // what the output projection reads per token
};
// A spec with file_weights and q named like them: the file's exact bytes.
WeightBytes weight_bytes(const ModelSpec& spec, const ParamCounts& counts, const QuantLevel& q);

// The level of a model file's own weights (exact bytes, average bpw); nullopt
// without file_weights.
std::optional<QuantLevel> file_quant_level(const ModelSpec& spec);

// The format a device runs this level in: the level's own if native, else the
// best native fallback (bf16, fp16, fp32), with a note when it falls back.
std::string compute_format(const QuantLevel& q, const Sku& sku);

// KV cache element size: fp16 2, fp8 1, q8_0 1.0625 (34 bytes per 32).
std::optional<double> kv_bytes_per_element(std::string_view kv);

}  // namespace hwaccel::plan
