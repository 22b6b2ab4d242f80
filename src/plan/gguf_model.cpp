// A GGUF header's metadata as a ModelSpec, with the tensors' exact bytes.
#include <algorithm>
#include <cstdio>

#include "src/plan/gguf.h"

namespace hwaccel::plan {

namespace {

constexpr double kMaxDimension = 1e7;  // beyond any real width, layer or head count

struct MetaError {
  std::string what;
};

class Meta {
 public:
  explicit Meta(const GgufHeader& h) : h_(h) {}
  std::string key(const std::string& k) const { return h_.architecture + "." + k; }
  // A whole number from 1 to kMaxDimension: the scalar, or an array's largest
  // element (per-layer counts) with an assumption said.
  std::optional<int> count(const std::string& k, std::vector<std::string>& notes) const {
    const std::string full = key(k);
    double v;
    if (auto it = h_.numbers.find(full); it != h_.numbers.end()) {
      v = it->second;
    } else if (auto mx = h_.numbers.find(full + "#max"); mx != h_.numbers.end()) {
      v = mx->second;
      notes.push_back(full + " differs per layer: its largest value " + shown(v) + " used");
    } else {
      return std::nullopt;
    }
    if (!(v >= 0 && v <= kMaxDimension) || v != static_cast<double>(static_cast<long long>(v)))
      throw MetaError{"key \"" + full + "\": expected a whole number from 0 to 10000000, got " +
                      shown(v)};
    return static_cast<int>(v);
  }
  int required(const std::string& k, std::vector<std::string>& notes) const {
    auto v = count(k, notes);
    if (!v || *v == 0)
      throw MetaError{"key \"" + key(k) + "\": missing (expected a positive whole number)"};
    return *v;
  }

 private:
  static std::string shown(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
  }
  const GgufHeader& h_;
};

// llama.cpp's llama_ftype (general.file_type) names, for the report only.
const char* file_type_name(int t) {
  static const std::pair<int, const char*> names[] = {
      {0, "F32"},      {1, "F16"},      {2, "Q4_0"},       {3, "Q4_1"},    {7, "Q8_0"},
      {8, "Q5_0"},     {9, "Q5_1"},     {10, "Q2_K"},      {11, "Q3_K_S"}, {12, "Q3_K_M"},
      {13, "Q3_K_L"},  {14, "Q4_K_S"},  {15, "Q4_K_M"},    {16, "Q5_K_S"}, {17, "Q5_K_M"},
      {18, "Q6_K"},    {19, "IQ2_XXS"}, {20, "IQ2_XS"},    {21, "Q2_K_S"}, {22, "IQ3_XS"},
      {23, "IQ3_XXS"}, {24, "IQ1_S"},   {25, "IQ4_NL"},    {26, "IQ3_S"},  {27, "IQ3_M"},
      {28, "IQ2_S"},   {29, "IQ2_M"},   {30, "IQ4_XS"},    {31, "IQ1_M"},  {32, "BF16"},
      {36, "TQ1_0"},   {37, "TQ2_0"},   {38, "MXFP4_MOE"},
  };
  for (const auto& [id, name] : names)
    if (id == t) return name;
  return nullptr;
}

std::string gib_text(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / (1024.0 * 1024 * 1024));
  return buf;
}

}  // namespace

ModelResult model_from_gguf(const GgufHeader& h, const std::string& file) {
  ModelResult out;
  if (h.architecture.empty()) {
    out.error = file + ": no general.architecture in the GGUF metadata";
    return out;
  }
  try {
    Meta meta(h);
    ModelSpec m;
    auto& notes = m.assumptions;
    m.origin = file;
    m.name = h.name.empty() ? h.architecture : h.name;
    m.layers = meta.required("block_count", notes);
    m.hidden = meta.required("embedding_length", notes);
    m.heads = meta.required("attention.head_count", notes);
    auto kv = meta.count("attention.head_count_kv", notes);
    if (!kv || *kv == 0) {
      notes.push_back("no " + meta.key("attention.head_count_kv") +
                      ": full multi-head attention assumed (" + std::to_string(m.heads) +
                      " KV heads, as llama.cpp does)");
      kv = m.heads;
    }
    m.kv_heads = *kv;
    if (m.heads % m.kv_heads != 0)
      throw MetaError{"key \"" + meta.key("attention.head_count_kv") +
                      "\": must divide the head count " + std::to_string(m.heads)};
    m.head_dim = meta.count("attention.key_length", notes).value_or(m.hidden / m.heads);
    if (m.head_dim == 0) throw MetaError{"the head width is 0 (embedding_length < head_count)"};
    m.experts = meta.count("expert_count", notes).value_or(0);
    if (m.experts > 0) {
      m.experts_per_token = meta.required("expert_used_count", notes);
      if (m.experts_per_token > m.experts)
        throw MetaError{"key \"" + meta.key("expert_used_count") + "\": more than the " +
                        std::to_string(m.experts) + " experts"};
      m.moe_intermediate = meta.count("expert_feed_forward_length", notes).value_or(0);
      m.shared_experts = meta.count("expert_shared_count", notes).value_or(0);
      m.dense_layers =
          std::min(m.layers, meta.count("leading_dense_block_count", notes).value_or(0));
    }
    auto ff = meta.count("feed_forward_length", notes);
    if (!ff || *ff == 0) {
      if (m.moe_intermediate == 0)
        throw MetaError{"key \"" + meta.key("feed_forward_length") + "\": missing"};
      ff = m.moe_intermediate;
    }
    m.intermediate = *ff;
    // MLA (deepseek2): the latent's rank; key_length is nope + rope.
    m.kv_lora_rank = meta.count("attention.kv_lora_rank", notes).value_or(0);
    if (m.mla()) {
      m.q_lora_rank = meta.count("attention.q_lora_rank", notes).value_or(0);
      m.qk_rope_head_dim = meta.required("rope.dimension_count", notes);
      m.qk_nope_head_dim = std::max(1, m.head_dim - m.qk_rope_head_dim);
      m.v_head_dim = meta.count("attention.value_length", notes).value_or(m.head_dim);
    }
    int vocab = meta.count("vocab_size", notes).value_or(0);
    const GgufTensor* embd = nullptr;
    const GgufTensor* head = nullptr;
    FileWeights fw;
    std::map<std::string, double> by_type(h.bytes_by_type.begin(), h.bytes_by_type.end());
    for (const auto& t : h.tensors) {
      if (t.name == "token_embd.weight") embd = &t;
      if (t.name == "output.weight") head = &t;
      if (t.name.find("_exps") != std::string::npos) fw.experts += double(t.bytes);
      fw.elements += double(t.elements);
    }
    if (vocab == 0 && h.numbers.count("tokenizer.ggml.tokens#len"))
      vocab = static_cast<int>(std::min(kMaxDimension, h.numbers.at("tokenizer.ggml.tokens#len")));
    if (vocab == 0 && embd && embd->shape.size() == 2 && embd->shape[1] <= kMaxDimension)
      vocab = static_cast<int>(embd->shape[1]);
    if (vocab == 0) throw MetaError{"no vocabulary size (no vocab_size, tokens or token_embd)"};
    m.vocab = vocab;
    m.tied_embeddings = head == nullptr;
    if (m.tied_embeddings)
      notes.push_back("no output.weight tensor: the lm_head is tied to token_embd.weight");
    if (auto w = meta.count("attention.sliding_window", notes); w && *w > 0) {
      m.sliding_window = *w;
      m.sliding_layers = h.architecture == "gemma2" ? m.layers / 2 : m.layers;
      notes.push_back(meta.key("attention.sliding_window") + " " + std::to_string(*w) +
                      (h.architecture == "gemma2" ? " on every other layer (gemma2)"
                                                  : " applied to every layer (the file has no "
                                                    "per-layer pattern)"));
    }
    fw.total = double(h.weight_bytes);
    fw.embedding = embd ? double(embd->bytes) : 0;
    fw.head = head ? double(head->bytes) : 0;
    fw.tensors = static_cast<int>(h.tensors.size());
    // The mix by bytes, largest first; the bulk decides the compute format.
    std::vector<std::pair<double, std::string>> mix;
    for (const auto& [name, bytes] : by_type) mix.emplace_back(bytes, name);
    std::sort(mix.begin(), mix.end(), [](auto& a, auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    for (const auto& [bytes, name] : mix)
      fw.mix += (fw.mix.empty() ? "" : ", ") + name + " " + gib_text(bytes);
    const std::string bulk = mix.empty() ? "F16" : mix.front().second;
    fw.compute = bulk == "F32" || bulk == "F64"       ? "fp32"
                 : bulk == "F16"                      ? "fp16"
                 : bulk == "BF16"                     ? "bf16"
                 : bulk == "MXFP4" || bulk == "NVFP4" ? "fp4"
                                                      : "int8";
    auto ft = h.numbers.find("general.file_type");
    const char* ft_name = ft != h.numbers.end() && ft->second >= 0 && ft->second < 1000
                              ? file_type_name(int(ft->second))
                              : nullptr;
    fw.level = std::string("gguf") + (ft_name ? std::string(":") + ft_name : "");
    m.dtype = fw.compute == "fp32" ? "fp32" : fw.compute == "fp16" ? "fp16" : "bf16";
    if (ft_name) {
      std::string lower = ft_name;
      for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
      if (lower == "mxfp4_moe") lower = "mxfp4";
      m.dtype = lower;  // suggestions stay at or below the file's precision
    }
    m.file_weights = fw;
    out.spec = std::move(m);
  } catch (const MetaError& e) {
    out.error = file + ": " + e.what;
  }
  return out;
}

}  // namespace hwaccel::plan
