// Writes safetensors headers for tests: the 8-byte length and the JSON of
// tensor infos, no weights (data_offsets laid end to end, as the library does).
#pragma once

#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace hwaccel::testing {

class SafetensorsWriter {
 public:
  void tensor(const std::string& name, const std::string& dtype,
              const std::vector<std::uint64_t>& shape, std::uint64_t element_bytes) {
    std::uint64_t n = element_bytes;
    for (auto d : shape) n *= d;
    j_[name] = {{"dtype", dtype}, {"shape", shape}, {"data_offsets", {end_, end_ + n}}};
    end_ += n;
  }
  nlohmann::json& json() { return j_; }
  std::string bytes() const {
    std::string body = j_.dump();
    std::uint64_t n = body.size();
    std::string out(8, '\0');
    std::memcpy(out.data(), &n, 8);
    return out + body;
  }

 private:
  nlohmann::json j_ = {{"__metadata__", {{"format", "pt"}}}};
  std::uint64_t end_ = 0;
};

// Meta-Llama-3-8B's tensors (its model.safetensors.index.json), in BF16.
inline SafetensorsWriter llama3_8b_bf16() {
  SafetensorsWriter w;
  const std::uint64_t h = 4096, kv = 1024, ff = 14336, vocab = 128256;
  w.tensor("model.embed_tokens.weight", "BF16", {vocab, h}, 2);
  for (int i = 0; i < 32; ++i) {
    const std::string b = "model.layers." + std::to_string(i) + ".";
    w.tensor(b + "self_attn.q_proj.weight", "BF16", {h, h}, 2);
    w.tensor(b + "self_attn.k_proj.weight", "BF16", {kv, h}, 2);
    w.tensor(b + "self_attn.v_proj.weight", "BF16", {kv, h}, 2);
    w.tensor(b + "self_attn.o_proj.weight", "BF16", {h, h}, 2);
    w.tensor(b + "mlp.gate_proj.weight", "BF16", {ff, h}, 2);
    w.tensor(b + "mlp.up_proj.weight", "BF16", {ff, h}, 2);
    w.tensor(b + "mlp.down_proj.weight", "BF16", {h, ff}, 2);
    w.tensor(b + "input_layernorm.weight", "BF16", {h}, 2);
    w.tensor(b + "post_attention_layernorm.weight", "BF16", {h}, 2);
  }
  w.tensor("model.norm.weight", "BF16", {h}, 2);
  w.tensor("lm_head.weight", "BF16", {vocab, h}, 2);
  return w;
}

}  // namespace hwaccel::testing
