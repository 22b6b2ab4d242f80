#include "src/plan/quant.h"

#include <algorithm>

namespace hwaccel::plan {

const std::vector<QuantLevel>& quant_levels() {
  using S = QuantScope;
  static const std::vector<QuantLevel> levels{
      {"bf16", 16, S::whole_file, "bf16", "all tensors 16-bit"},
      {"fp16", 16, S::whole_file, "fp16", "all tensors 16-bit"},
      {"fp8", 8, S::linear, "fp8",
       "linear layers E4M3 with per-channel scales; embeddings, lm_head, norms 16-bit"},
      {"q8_0", 8.5, S::whole_file, "int8",
       "llama.cpp: 34 bytes per 32 weights (tools/quantize/README.md)"},
      {"int8", 8, S::linear, "int8", "W8A8 linear layers; embeddings, lm_head, norms 16-bit"},
      {"q6_k", 6.56, S::whole_file, "int8",
       "llama.cpp average over the file (tools/quantize/README.md, Llama-3.1-8B)"},
      {"q5_k_m", 5.70, S::whole_file, "int8",
       "llama.cpp average over the file (tools/quantize/README.md)"},
      {"q4_k_m", 4.89, S::whole_file, "int8",
       "llama.cpp average over the file, output.weight at q6_k (tools/quantize/README.md)"},
      {"nvfp4", 4.5, S::linear, "fp4",
       "E2M1 + an E4M3 scale per 16 values + FP32 per tensor; embeddings, lm_head 16-bit"},
      {"q4_0", 4.5, S::whole_file, "int8", "llama.cpp: 18 bytes per 32 weights"},
      {"iq4_xs", 4.46, S::whole_file, "int8",
       "llama.cpp average over the file (tools/quantize/README.md)"},
      {"mxfp4", 4.25, S::experts, "fp4",
       "E2M1 + an E8M0 scale per 32 values on MoE experts (all linear layers on a dense model); "
       "the rest at 8.5 bits as in ggml-org GGUFs"},
      {"gptq-int4", 4.16, S::linear, "bf16",
       "int4, group 128: fp16 scale + 4-bit zero per group; embeddings, lm_head 16-bit"},
      {"awq-int4", 4.16, S::linear, "bf16",
       "int4, group 128: fp16 scale + 4-bit zero per group; embeddings, lm_head 16-bit"},
      {"nf4", 4.127, S::linear, "bf16",
       "bitsandbytes NF4 with double quantisation (QLoRA, arXiv 2305.14314); embeddings, lm_head "
       "16-bit"},
      {"q3_k_l", 4.30, S::whole_file, "int8",
       "llama.cpp average over the file (tools/quantize/README.md)"},
      {"q2_k", 3.16, S::whole_file, "int8",
       "llama.cpp average over the file (tools/quantize/README.md)"},
      {"fp32", 32, S::whole_file, "fp32", "all tensors 32-bit"},
  };
  return levels;
}

namespace {

// Other spellings of the levels: llama.cpp's file types (Q4_K_M, F16: matched
// without case), Hugging Face's torch_dtype and quant_method names.
const std::pair<const char*, const char*> kAliases[] = {
    {"f16", "fp16"},           {"float16", "fp16"},
    {"half", "fp16"},          {"bfloat16", "bf16"},
    {"f32", "fp32"},           {"float32", "fp32"},
    {"float", "fp32"},         {"float8", "fp8"},
    {"float8_e4m3fn", "fp8"},  {"fp8_e4m3", "fp8"},
    {"e4m3", "fp8"},           {"fbgemm_fp8", "fp8"},
    {"w8a8-fp8", "fp8"},       {"w8a8", "int8"},
    {"w8a8-int8", "int8"},     {"q4_k", "q4_k_m"},
    {"q5_k", "q5_k_m"},        {"q3_k", "q3_k_l"},
    {"gptq", "gptq-int4"},     {"gptq_int4", "gptq-int4"},
    {"w4a16", "gptq-int4"},    {"awq", "awq-int4"},
    {"awq_int4", "awq-int4"},  {"bnb-4bit", "nf4"},
    {"bnb_4bit", "nf4"},       {"bitsandbytes-4bit", "nf4"},
    {"modelopt_fp4", "nvfp4"}, {"nvfp4a16", "nvfp4"},
    {"mxfp4_moe", "mxfp4"},
};

std::string lowered(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

}  // namespace

const QuantLevel* find_quant(std::string_view name) {
  const std::string n = lowered(name);
  for (const auto& q : quant_levels()) {
    if (q.name == n) return &q;
  }
  for (const auto& [alias, level] : kAliases) {
    if (n == alias) return find_quant(level);
  }
  return nullptr;
}

std::optional<std::string> unsupported_on(const QuantLevel& q, const Sku* sku) {
  // Levels whose weights are stored in a float format the device must
  // compute in: FP8 needs FP8 units (Ada, Hopper, Blackwell, CDNA3, Gaudi 2+),
  // NVFP4 needs FP4 units (Blackwell). The weight-only paths some runtimes
  // have elsewhere (vLLM's FP8 Marlin on Ampere) are priced only when that
  // runtime is named (runtime.h).
  const char* need = q.name == "fp8" ? "fp8" : q.name == "nvfp4" ? "fp4" : nullptr;
  if (!need) return std::nullopt;
  if (sku && sku->is_native(need)) return std::nullopt;
  std::string who = sku ? sku->name : "this CPU";
  std::string native;
  if (sku)
    for (const auto& f : sku->native) native += (native.empty() ? "" : ", ") + f;
  std::string why = who + " has no " + (q.name == "fp8" ? "FP8" : "FP4") + " units";
  if (sku) why += " (native: " + native + ")";
  why += q.name == "fp8"
             ? ": fp8 weights need Ada, Hopper, Blackwell, MI300 or Gaudi 2 and later (on Ampere, "
               "--runtime vllm prices its weight-only FP8 Marlin path); try int8 or q8_0"
             : ": nvfp4 needs Blackwell (sm_100, sm_120, sm_121); try q4_k_m, mxfp4 or a 4-bit "
               "integer level";
  return why;
}

std::string quant_names() {
  std::string out;
  for (const auto& q : quant_levels()) out += (out.empty() ? "" : ", ") + q.name;
  return out;
}

std::optional<QuantLevel> file_quant_level(const ModelSpec& m) {
  if (!m.file_weights) return std::nullopt;
  const auto& f = *m.file_weights;
  QuantLevel q;
  q.name = f.level;
  q.bits = f.elements > 0 ? 8 * f.total / f.elements : 16;
  q.scope = QuantScope::whole_file;
  q.compute = f.compute;
  q.note = "exact, " + std::to_string(f.tensors) + " tensors of the file's header: " + f.mix;
  return q;
}

WeightBytes weight_bytes(const ModelSpec& m, const ParamCounts& c, const QuantLevel& q) {
  if (m.file_weights && q.name == m.file_weights->level) {
    const auto& f = *m.file_weights;
    WeightBytes w;
    w.total = f.total;
    w.embedding = f.embedding;
    w.head = f.head;
    w.head_read = f.head > 0 ? f.head : f.embedding;
    w.outside_layers = f.embedding + f.head;
    const double layers = std::max(0.0, f.total - w.outside_layers);
    w.experts_total = f.experts;
    w.per_layer = m.layers > 0 ? layers / m.layers : 0;
    w.per_token = layers - f.experts + f.experts * c.active_fraction_of_experts + w.head_read;
    return w;
  }
  // Bits for each tensor group under this level.
  double linear_bits = q.bits, edge_bits = q.bits, expert_bits = q.bits, small_bits = q.bits;
  switch (q.scope) {
    case QuantScope::whole_file:
      break;
    case QuantScope::linear:
      edge_bits = 16, small_bits = 16;
      break;
    case QuantScope::experts:
      edge_bits = 8.5, small_bits = 16;
      linear_bits = m.moe() ? 8.5 : q.bits;
      break;
  }
  double b = 1.0 / 8;
  WeightBytes w;
  double experts = c.routed_experts * expert_bits * b;
  double layers = (c.attention + c.dense_mlp + c.shared_experts) * linear_bits * b +
                  c.norms * small_bits * b + experts;
  w.outside_layers = (c.embedding + c.lm_head) * edge_bits * b;
  w.total = layers + w.outside_layers;
  w.experts_total = experts;
  w.per_layer = m.layers > 0 ? layers / m.layers : 0;
  double head = (c.lm_head > 0 ? c.lm_head : c.embedding) * edge_bits * b;
  w.embedding = c.embedding * edge_bits * b;
  w.head = c.lm_head * edge_bits * b;
  w.head_read = head;
  w.per_token = layers - experts + experts * c.active_fraction_of_experts + head;
  return w;
}

std::string compute_format(const QuantLevel& q, const Sku& sku) {
  if (sku.is_native(q.compute)) return q.compute;
  // FP4 without FP4 units: the exact E2M1 -> E4M3 conversion runs at the FP8 rate.
  if (q.compute == "fp4" && sku.is_native("fp8")) return "fp8";
  if (q.compute == "fp4" && sku.is_native("int8")) return "int8";
  for (const char* f : {"bf16", "fp16", "fp32"}) {
    if (sku.is_native(f)) return f;
  }
  return sku.native.empty() ? "fp32" : sku.native.front();
}

std::optional<double> kv_bytes_per_element(std::string_view kv) {
  if (kv == "fp16" || kv == "bf16") return 2.0;
  if (kv == "fp8") return 1.0;
  if (kv == "q8_0") return 34.0 / 32.0;
  return std::nullopt;
}

}  // namespace hwaccel::plan
