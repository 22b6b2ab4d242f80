// A model's shape: what the memory and speed estimates need. From a Hugging
// Face config.json (text), the built-in catalogue, or a bare parameter count.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel::plan {

// Exact weight bytes read from a model file's header (GGUF tensor infos):
// planned as they are when no other --quant is asked for.
struct FileWeights {
  std::string level = "gguf";    // the quant level's name in reports
  double total = 0;              // bytes of every tensor
  double elements = 0;           // values of every tensor
  double embedding = 0;          // token_embd.weight
  double head = 0;               // output.weight (0: tied)
  double experts = 0;            // routed experts (*_exps tensors)
  std::string compute = "int8";  // the format the bulk of the bytes computes in
  std::string mix;               // "Q4_K 3.9 GiB, Q6_K 0.6 GiB, ..." (by bytes)
  int tensors = 0;
};

struct ModelSpec {
  std::string name;
  std::string origin;  // "built-in", the config.json path, or "--params 70B"
  int layers = 0;
  int hidden = 0;
  int heads = 0;
  int kv_heads = 0;
  int head_dim = 0;
  int intermediate = 0;  // dense MLP width
  int vocab = 0;
  bool tied_embeddings = false;
  // Mixture of experts (0 experts: dense).
  int experts = 0;
  int experts_per_token = 0;
  int moe_intermediate = 0;  // per expert; 0: same as intermediate
  int shared_experts = 0;
  int dense_layers = 0;  // the first k layers have a dense MLP (DeepSeek first_k_dense_replace)
  // Sliding-window attention on `sliding_layers` of the layers.
  int sliding_window = 0;
  int sliding_layers = 0;
  // Multi-head latent attention (DeepSeek-V2/V3): the KV cache holds one
  // compressed vector of kv_lora_rank + qk_rope_head_dim per token and layer.
  int q_lora_rank = 0;
  int kv_lora_rank = 0;
  int qk_nope_head_dim = 0;
  int qk_rope_head_dim = 0;
  int v_head_dim = 0;
  std::string dtype = "bf16";          // the weights as published
  std::optional<double> params_given;  // --params: the count the user gave
  std::vector<std::string> assumptions;
  std::optional<FileWeights> file_weights;
  // config.json carries MLX's own "quantization" block (group_size, bits), as
  // mlx-community checkpoints do: an MLX model (the runtime assumed on Apple).
  bool mlx_quantized = false;

  bool moe() const { return experts > 0; }
  bool mla() const { return kv_lora_rank > 0; }
};

// Parameters by tensor group; `active` is what one token reads in a decode step.
struct ParamCounts {
  double embedding = 0;       // token embedding table
  double lm_head = 0;         // output projection (0 when tied)
  double attention = 0;       // all layers
  double dense_mlp = 0;       // all dense-MLP layers
  double routed_experts = 0;  // all routed experts of all MoE layers
  double shared_experts = 0;  // shared experts and routers
  double norms = 0;
  double total() const {
    return embedding + lm_head + attention + dense_mlp + routed_experts + shared_experts + norms;
  }
  // Per token: everything but the embedding table (one row) and the routed
  // experts not chosen.
  double active() const;
  double active_fraction_of_experts = 1;  // experts_per_token / experts
};
ParamCounts count_params(const ModelSpec& spec);

struct ModelResult {
  std::optional<ModelSpec> spec;
  std::string error;
};

// config.json text; errors name `file` and the key (or line:col for bad JSON).
ModelResult parse_hf_config(std::string_view text, const std::string& file);
// Built-in catalogue by name, case-insensitive; the error lists the known names.
ModelResult builtin_model(std::string_view name);
std::vector<std::string> builtin_model_names();
// "70B", "7.5b", "500M", "1.2T": a dense Llama-like shape with that many
// parameters, with the assumptions listed.
ModelResult model_from_params(std::string_view text);

std::string describe_shape(const ModelSpec& spec);  // one line for reports

}  // namespace hwaccel::plan
