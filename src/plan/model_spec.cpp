#include "src/plan/model_spec.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

namespace hwaccel::plan {

double ParamCounts::active() const {
  return (lm_head > 0 ? lm_head : embedding) + attention + dense_mlp +
         routed_experts * active_fraction_of_experts + shared_experts + norms;
}

ParamCounts count_params(const ModelSpec& m) {
  ParamCounts c;
  double h = m.hidden, L = m.layers;
  c.embedding = double(m.vocab) * h;
  c.lm_head = m.tied_embeddings ? 0 : double(m.vocab) * h;
  double attn = 0;
  if (m.mla()) {
    double qk = m.qk_nope_head_dim + m.qk_rope_head_dim;
    double q = m.q_lora_rank > 0 ? h * m.q_lora_rank + double(m.q_lora_rank) * m.heads * qk
                                 : h * m.heads * qk;
    double kv = h * (m.kv_lora_rank + m.qk_rope_head_dim) +
                double(m.kv_lora_rank) * m.heads * (m.qk_nope_head_dim + m.v_head_dim);
    double o = double(m.heads) * m.v_head_dim * h;
    attn = q + kv + o;
  } else {
    attn = h * m.heads * m.head_dim * 2 + h * m.kv_heads * m.head_dim * 2;
  }
  c.attention = attn * L;
  int moe_layers = m.moe() ? m.layers - m.dense_layers : 0;
  int dense_layers = m.layers - moe_layers;
  c.dense_mlp = 3.0 * h * m.intermediate * dense_layers;
  if (m.moe()) {
    double width = m.moe_intermediate > 0 ? m.moe_intermediate : m.intermediate;
    double expert = 3.0 * h * width;
    c.routed_experts = expert * m.experts * moe_layers;
    c.shared_experts = (expert * m.shared_experts + h * m.experts) * moe_layers;
    c.active_fraction_of_experts = double(m.experts_per_token) / m.experts;
  }
  c.norms = 2.0 * h * L + h;
  if (m.params_given) {
    // Scale every group so the total is the count the user gave.
    double k = *m.params_given / c.total();
    c.embedding *= k, c.lm_head *= k, c.attention *= k, c.dense_mlp *= k, c.norms *= k;
  }
  return c;
}

namespace {

std::string line_col(std::string_view text, std::size_t byte) {
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n')
      ++line, col = 1;
    else
      ++col;
  }
  return std::to_string(line) + ":" + std::to_string(col);
}

struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A value as an error message shows it: a scalar as written (cut to 60
// characters), a list or map by its size. Never dump() a container: that
// recurses once per nesting level, and a config.json nested 200,000 deep under
// a known key overflowed the stack (found by tests/unit/reliability).
std::string shown(const nlohmann::json& v) {
  if (v.is_array()) return "a list of " + std::to_string(v.size()) + " item(s)";
  if (v.is_object()) return "an object with " + std::to_string(v.size()) + " key(s)";
  std::string text = v.dump();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

class ConfigReader {
 public:
  ConfigReader(const nlohmann::json& j, const std::string& file) : j_(j), file_(file) {}
  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw ConfigError(file_ + ": key \"" + key + "\": " + what);
  }
  bool has(const std::string& key) const { return j_.contains(key) && !j_[key].is_null(); }
  int positive(const std::string& key) const {
    if (!has(key)) fail(key, "missing (expected a positive integer)");
    return positive_value(key);
  }
  int positive_or(const std::string& key, int fallback) const {
    return has(key) ? positive_value(key) : fallback;
  }
  int non_negative_or(const std::string& key, int fallback) const {
    if (!has(key)) return fallback;
    const auto& v = j_[key];
    if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() > 1 << 30)
      fail(key, "expected a non-negative integer, got " + shown(v));
    return static_cast<int>(v.get<long long>());
  }
  bool boolean_or(const std::string& key, bool fallback) const {
    if (!has(key)) return fallback;
    if (!j_[key].is_boolean()) fail(key, "expected true or false, got " + shown(j_[key]));
    return j_[key].get<bool>();
  }
  std::string text_or(const std::string& key, std::string fallback) const {
    if (!has(key)) return fallback;
    if (!j_[key].is_string()) fail(key, "expected a string, got " + shown(j_[key]));
    return j_[key].get<std::string>();
  }
  const nlohmann::json& at(const std::string& key) const { return j_[key]; }

 private:
  int positive_value(const std::string& key) const {
    const auto& v = j_[key];
    if (!v.is_number_integer() || v.get<long long>() <= 0 || v.get<long long>() > 1 << 30)
      fail(key, "expected a positive integer, got " + shown(v));
    return static_cast<int>(v.get<long long>());
  }
  const nlohmann::json& j_;
  const std::string& file_;
};

}  // namespace

ModelResult parse_hf_config(std::string_view text, const std::string& file) {
  ModelResult result;
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    result.error = file + ":" + line_col(text, e.byte == 0 ? 0 : e.byte - 1) +
                   ": not valid JSON (expected a Hugging Face config.json)";
    return result;
  } catch (const nlohmann::json::exception& e) {
    // out_of_range 406: a number beyond a double ("1e999"), which parse_error
    // does not cover (found by tests/fuzz/model_config_fuzz.cpp).
    std::string what = e.what();
    if (auto bracket = what.find("] ");
        what.rfind("[json.exception", 0) == 0 && bracket != std::string::npos)
      what = what.substr(bracket + 2);
    result.error = file + ": not valid JSON: " + what + " (expected a Hugging Face config.json)";
    return result;
  }
  if (!j.is_object()) {
    result.error = file + ": expected a JSON object (a Hugging Face config.json)";
    return result;
  }
  // Multimodal configs keep the language model under text_config.
  if (j.contains("text_config") && j["text_config"].is_object() &&
      !j.contains("num_hidden_layers")) {
    j = j["text_config"];
  }
  try {
    ConfigReader r(j, file);
    ModelSpec m;
    m.origin = file;
    m.name = r.text_or("_name_or_path", "");
    std::string type = r.text_or("model_type", "");
    if (m.name.empty()) m.name = type.empty() ? file : type;
    m.layers = r.positive("num_hidden_layers");
    m.hidden = r.positive("hidden_size");
    m.heads = r.positive("num_attention_heads");
    m.kv_heads = r.positive_or("num_key_value_heads", m.heads);
    if (!r.has("num_key_value_heads") && !r.has("kv_lora_rank"))
      m.assumptions.push_back("no num_key_value_heads: full multi-head attention assumed (" +
                              std::to_string(m.heads) +
                              " KV heads, as transformers does); a GQA model needs the key");
    if (m.heads % m.kv_heads != 0)
      r.fail("num_key_value_heads",
             "must divide num_attention_heads (" + std::to_string(m.heads) + ")");
    m.head_dim = r.positive_or("head_dim", m.hidden / m.heads);
    if (m.head_dim == 0)  // more heads than hidden_size gave heads of width 0
      r.fail("head_dim",
             "missing, and hidden_size / num_attention_heads is 0 (expected a "
             "positive integer)");
    m.vocab = r.positive("vocab_size");
    m.tied_embeddings = r.boolean_or("tie_word_embeddings", false);
    if (!r.has("tie_word_embeddings"))
      m.assumptions.push_back(
          "no tie_word_embeddings: an untied lm_head assumed (its own vocab x hidden weights; "
          "transformers' default depends on model_type: false for Llama, true for Gemma)");
    m.experts = r.non_negative_or("num_local_experts", 0);
    if (m.experts == 0) m.experts = r.non_negative_or("num_experts", 0);
    if (m.experts == 0) m.experts = r.non_negative_or("n_routed_experts", 0);
    if (m.experts > 0) {
      m.experts_per_token = r.positive("num_experts_per_tok");
      if (m.experts_per_token > m.experts)
        r.fail("num_experts_per_tok", "more than the " + std::to_string(m.experts) + " experts");
      m.moe_intermediate = r.non_negative_or("moe_intermediate_size", 0);
      m.shared_experts = r.non_negative_or("n_shared_experts", 0);
      m.dense_layers = r.non_negative_or("first_k_dense_replace", 0);
      if (m.dense_layers > m.layers) r.fail("first_k_dense_replace", "more than num_hidden_layers");
    }
    if (m.experts > 0 && m.moe_intermediate > 0 && m.dense_layers == 0)
      m.intermediate = r.positive_or("intermediate_size", m.moe_intermediate);
    else
      m.intermediate = r.positive("intermediate_size");
    m.kv_lora_rank = r.non_negative_or("kv_lora_rank", 0);
    if (m.mla()) {
      m.q_lora_rank = r.non_negative_or("q_lora_rank", 0);
      m.qk_nope_head_dim = r.positive("qk_nope_head_dim");
      m.qk_rope_head_dim = r.positive("qk_rope_head_dim");
      m.v_head_dim = r.positive("v_head_dim");
    }
    // Sliding windows: layer_types when given; else by model type.
    int window = r.non_negative_or("sliding_window", 0);
    bool use_window = r.boolean_or("use_sliding_window", true);
    if (window > 0 && use_window) {
      m.sliding_window = window;
      if (r.has("layer_types")) {
        const auto& types = r.at("layer_types");
        if (!types.is_array()) r.fail("layer_types", "expected an array of strings");
        int n = 0;
        for (const auto& t : types) {
          if (!t.is_string()) r.fail("layer_types", "expected an array of strings");
          if (t.get<std::string>() == "sliding_attention") ++n;
        }
        m.sliding_layers = n;
      } else if (type == "gemma2") {
        m.sliding_layers = m.layers / 2;
        m.assumptions.push_back("gemma2: sliding window on every other layer");
      } else {
        m.sliding_layers = m.layers;
        m.assumptions.push_back("sliding_window " + std::to_string(window) +
                                " applied to every layer (no layer_types in the config)");
      }
    }
    std::string dtype = r.text_or("torch_dtype", r.text_or("dtype", "bfloat16"));
    m.dtype = dtype == "float32" ? "fp32" : dtype == "float16" ? "fp16" : "bf16";
    // MLX writes "quantization" (Hugging Face writes "quantization_config").
    if (j.contains("quantization") && j["quantization"].is_object() &&
        j["quantization"].contains("bits") && j["quantization"].contains("group_size"))
      m.mlx_quantized = true;
    result.spec = std::move(m);
  } catch (const ConfigError& e) {
    result.error = e.what();
  } catch (const nlohmann::json::exception& e) {
    result.error = file + ": " + e.what();
  }
  return result;
}

namespace {

ModelSpec dense(std::string name, int L, int h, int heads, int kv, int hd, int inter, int vocab,
                bool tied = false) {
  ModelSpec m;
  m.name = std::move(name);
  m.origin = "built-in";
  m.layers = L, m.hidden = h, m.heads = heads, m.kv_heads = kv, m.head_dim = hd;
  m.intermediate = inter, m.vocab = vocab, m.tied_embeddings = tied;
  return m;
}

ModelSpec moe(ModelSpec m, int experts, int per_token, int expert_width = 0) {
  m.experts = experts, m.experts_per_token = per_token, m.moe_intermediate = expert_width;
  return m;
}

ModelSpec sliding(ModelSpec m, int window, int layers) {
  m.sliding_window = window, m.sliding_layers = layers;
  return m;
}

// Shapes from each model's config.json on Hugging Face.
const std::vector<ModelSpec>& builtins() {
  static const std::vector<ModelSpec> all = [] {
    std::vector<ModelSpec> v;
    v.push_back(dense("Llama-2-7B", 32, 4096, 32, 32, 128, 11008, 32000));
    v.push_back(dense("Llama-2-13B", 40, 5120, 40, 40, 128, 13824, 32000));
    v.push_back(dense("Llama-2-70B", 80, 8192, 64, 8, 128, 28672, 32000));
    v.push_back(dense("Llama-3-8B", 32, 4096, 32, 8, 128, 14336, 128256));
    v.push_back(dense("Llama-3-70B", 80, 8192, 64, 8, 128, 28672, 128256));
    v.push_back(dense("Llama-3.1-8B", 32, 4096, 32, 8, 128, 14336, 128256));
    v.push_back(dense("Llama-3.1-70B", 80, 8192, 64, 8, 128, 28672, 128256));
    v.push_back(dense("Llama-3.1-405B", 126, 16384, 128, 8, 128, 53248, 128256));
    v.push_back(sliding(dense("Mistral-7B", 32, 4096, 32, 8, 128, 14336, 32000), 4096, 32));
    v.push_back(moe(dense("Mixtral-8x7B", 32, 4096, 32, 8, 128, 14336, 32000), 8, 2));
    v.push_back(moe(dense("Mixtral-8x22B", 56, 6144, 48, 8, 128, 16384, 32768), 8, 2));
    v.push_back(dense("Qwen2.5-7B", 28, 3584, 28, 4, 128, 18944, 152064));
    v.push_back(dense("Qwen2.5-72B", 80, 8192, 64, 8, 128, 29568, 152064));
    v.push_back(moe(dense("Qwen3-30B-A3B", 48, 2048, 32, 4, 128, 6144, 151936), 128, 8, 768));
    {
      auto m = moe(dense("gpt-oss-120B", 36, 2880, 64, 8, 64, 2880, 201088), 128, 4);
      m = sliding(m, 128, 18);
      m.dtype = "mxfp4";
      v.push_back(m);
      auto s = moe(dense("gpt-oss-20B", 24, 2880, 64, 8, 64, 2880, 201088), 32, 4);
      s = sliding(s, 128, 12);
      s.dtype = "mxfp4";
      v.push_back(s);
    }
    {
      auto m = moe(dense("DeepSeek-V3", 61, 7168, 128, 128, 128, 18432, 129280), 256, 8, 2048);
      m.shared_experts = 1, m.dense_layers = 3;
      m.q_lora_rank = 1536, m.kv_lora_rank = 512, m.qk_nope_head_dim = 128;
      m.qk_rope_head_dim = 64, m.v_head_dim = 128;
      m.dtype = "fp8";
      m.assumptions.push_back("DeepSeek-V3: the multi-token-prediction module is not counted");
      v.push_back(m);
    }
    v.push_back(sliding(dense("Gemma-2-9B", 42, 3584, 16, 8, 256, 14336, 256000, true), 4096, 21));
    v.push_back(
        sliding(dense("Gemma-2-27B", 46, 4608, 32, 16, 128, 36864, 256000, true), 4096, 23));
    v.push_back(dense("Phi-3-mini", 32, 3072, 32, 32, 96, 8192, 32064));
    v.push_back(dense("Phi-4", 40, 5120, 40, 10, 128, 17920, 100352));
    // Small models: the calibration's decode floors are pinned by them.
    v.push_back(dense("TinyLlama-1.1B", 22, 2048, 32, 4, 64, 5632, 32000));
    v.push_back(dense("Llama-3.2-3B", 28, 3072, 24, 8, 128, 8192, 128256, true));
    v.push_back(dense("Qwen3-0.6B", 28, 1024, 16, 8, 128, 3072, 151936, true));
    v.push_back(dense("Qwen3-4B", 36, 2560, 32, 8, 128, 9728, 151936, true));
    return v;
  }();
  return all;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::vector<std::string> builtin_model_names() {
  std::vector<std::string> names;
  for (const auto& m : builtins()) names.push_back(m.name);
  return names;
}

ModelResult builtin_model(std::string_view name) {
  ModelResult r;
  for (const auto& m : builtins()) {
    if (lower(m.name) == lower(name)) {
      r.spec = m;
      return r;
    }
  }
  r.error = "unknown model \"" + std::string(name) + "\"; known:";
  for (const auto& n : builtin_model_names()) r.error += " " + n;
  r.error += " (or --model path/config.json, or --params 70B)";
  return r;
}

ModelResult model_from_params(std::string_view text) {
  ModelResult r;
  std::string t(text);
  double scale = 1;
  if (!t.empty()) {
    char u = static_cast<char>(std::toupper(static_cast<unsigned char>(t.back())));
    if (u == 'T') scale = 1e12;
    if (u == 'B') scale = 1e9;
    if (u == 'M') scale = 1e6;
    if (scale != 1) t.pop_back();
  }
  double value = 0;
  std::size_t used = 0;
  try {
    value = std::stod(t, &used);
  } catch (...) {
    used = 0;
  }
  if (t.empty() || used != t.size() || !(value > 0) || value * scale < 1e6 ||
      value * scale > 1e13) {
    r.error =
        "--params \"" + std::string(text) + "\": expected a count like 70B, 7.5B, 500M or 1.2T";
    return r;
  }
  double p = value * scale;
  // A Llama-3-like dense shape: 128-wide heads, 8 KV heads, MLP 3.5x hidden.
  int layers = p < 4e9 ? 28 : p < 12e9 ? 32 : p < 40e9 ? 48 : p < 150e9 ? 80 : 126;
  double per_layer = p * 0.97 / layers;  // most parameters sit in the layers
  // per layer ~ h^2 (2 + 2*8*128/h) + 3 * 3.5 h^2 = 12.5 h^2 (GQA term small)
  int hidden = static_cast<int>(std::lround(std::sqrt(per_layer / 12.75) / 128.0)) * 128;
  if (hidden < 1024) hidden = 1024;
  ModelSpec m =
      dense("params-" + std::string(text), layers, hidden, hidden / 128, std::min(8, hidden / 128),
            128, static_cast<int>(hidden * 3.5 / 256) * 256, 128256);
  m.origin = "--params " + std::string(text);
  m.params_given = p;
  m.assumptions.push_back("--params: a dense Llama-3-like decoder (" + std::to_string(layers) +
                          " layers, hidden " + std::to_string(hidden) + ", " +
                          std::to_string(m.heads) + " heads of 128, " + std::to_string(m.kv_heads) +
                          " KV heads, MLP " + std::to_string(m.intermediate) +
                          ", vocab 128256), scaled to exactly the given count");
  m.assumptions.push_back("--params: bf16 weights as published; no MoE, no sliding window");
  r.spec = m;
  return r;
}

std::string describe_shape(const ModelSpec& m) {
  std::ostringstream o;
  o << m.layers << " layers, hidden " << m.hidden << ", " << m.heads << " heads";
  if (m.mla())
    o << " (MLA: KV rank " << m.kv_lora_rank << " + rope " << m.qk_rope_head_dim << ")";
  else
    o << " / " << m.kv_heads << " KV heads x " << m.head_dim;
  o << ", MLP " << m.intermediate << ", vocab " << m.vocab;
  if (m.tied_embeddings) o << " (tied)";
  if (m.moe()) {
    o << ", MoE " << m.experts << " experts, " << m.experts_per_token << " per token";
    if (m.moe_intermediate) o << " (width " << m.moe_intermediate << ")";
    if (m.shared_experts) o << " + " << m.shared_experts << " shared";
    if (m.dense_layers) o << ", first " << m.dense_layers << " layers dense";
  }
  if (m.sliding_layers)
    o << ", sliding window " << m.sliding_window << " on " << m.sliding_layers << " layers";
  return o.str();
}

}  // namespace hwaccel::plan
