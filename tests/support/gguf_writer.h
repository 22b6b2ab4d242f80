// Writes GGUF headers (metadata + tensor infos, no weights) for tests: the
// layout of ggml/docs/gguf.md, little-endian. Counts can be overridden to lie.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "src/plan/gguf.h"

namespace hwaccel::testing {

class GgufWriter {
 public:
  // GGUF value types.
  enum : std::uint32_t { u32 = 4, f32 = 6, str = 8, arr = 9, u64 = 10 };

  void kv_u32(const std::string& key, std::uint32_t v) {
    key_(key, u32);
    put(kv_, v);
  }
  void kv_string(const std::string& key, const std::string& v) {
    key_(key, str);
    string(kv_, v);
  }
  // An array of `n` one-byte strings (a tokenizer's vocabulary, cheaply).
  void kv_tokens(const std::string& key, std::uint64_t n) {
    key_(key, arr);
    put(kv_, std::uint32_t{str});
    put(kv_, n);
    for (std::uint64_t i = 0; i < n; ++i) string(kv_, "t");
  }
  void kv_u32_array(const std::string& key, const std::vector<std::uint32_t>& v) {
    key_(key, arr);
    put(kv_, std::uint32_t{u32});
    put(kv_, std::uint64_t(v.size()));
    for (auto x : v) put(kv_, x);
  }
  void tensor(const std::string& name, const std::vector<std::uint64_t>& shape,
              std::uint32_t type) {
    string(tensors_, name);
    put(tensors_, std::uint32_t(shape.size()));
    for (auto d : shape) put(tensors_, d);
    put(tensors_, type);
    put(tensors_, offset_);
    // As llama.cpp lays the data out: each tensor after the last, padded to
    // the alignment (32). An unknown type gets one block of a byte.
    std::uint64_t bytes = 1;
    if (const auto* t = plan::ggml_type(type)) {
      bytes = t->bytes;
      for (auto d : shape) bytes *= d;
      bytes /= t->block;
    }
    offset_ += (bytes + 31) / 32 * 32;
    ++tensor_count_;
  }
  // A tensor info with the offset given (a lying one).
  void tensor_at(const std::string& name, const std::vector<std::uint64_t>& shape,
                 std::uint32_t type, std::uint64_t offset) {
    const std::uint64_t next = offset_;
    offset_ = offset;
    tensor(name, shape, type);
    offset_ = next;
  }
  // The size of the whole file: the header padded to 32, then the data.
  std::uint64_t file_bytes(std::uint32_t version = 3) const {
    return (bytes(version).size() + 31) / 32 * 32 + offset_;
  }
  std::string bytes(std::uint32_t version = 3) const {
    std::string out = "GGUF";
    put(out, version);
    put(out, lie_tensors_ ? *lie_tensors_ : tensor_count_);
    put(out, lie_keys_ ? *lie_keys_ : kv_count_);
    return out + kv_ + tensors_;
  }
  void lie_tensor_count(std::uint64_t n) { lie_tensors_ = n; }
  void lie_key_count(std::uint64_t n) { lie_keys_ = n; }
  // Raw bytes appended to the metadata (a hand-made malformed value).
  std::string& raw_metadata() { return kv_; }
  void count_raw_key() { ++kv_count_; }

  template <typename T>
  static void put(std::string& out, T v) {
    char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    out.append(b, sizeof(T));
  }
  static void string(std::string& out, const std::string& s) {
    put(out, std::uint64_t(s.size()));
    out += s;
  }

 private:
  void key_(const std::string& key, std::uint32_t type) {
    string(kv_, key);
    put(kv_, type);
    ++kv_count_;
  }
  std::string kv_, tensors_;
  std::uint64_t kv_count_ = 0, tensor_count_ = 0, offset_ = 0;
  std::optional<std::uint64_t> lie_tensors_, lie_keys_;
};

// ggml type ids used by the tests (ggml.h).
enum GgmlTypeId : std::uint32_t {
  kF32 = 0,
  kF16 = 1,
  kQ4_0 = 2,
  kQ8_0 = 8,
  kQ4_K = 12,
  kQ6_K = 14,
  kIQ4_XS = 23,
  kMXFP4 = 39
};

// Llama-3.1-8B as llama.cpp's Q4_K_M writes it: Q6_K for output.weight and,
// on the layers use_more_bits picks (the first and last eighth, every third
// between), for attn_v and ffn_down; F32 norms and rope_freqs.
inline GgufWriter llama31_8b_q4_k_m(bool with_kv_heads = true) {
  GgufWriter w;
  w.kv_string("general.architecture", "llama");
  w.kv_string("general.name", "Meta Llama 3.1 8B Instruct");
  w.kv_u32("general.file_type", 15);  // LLAMA_FTYPE_MOSTLY_Q4_K_M
  w.kv_u32("llama.block_count", 32);
  w.kv_u32("llama.context_length", 131072);
  w.kv_u32("llama.embedding_length", 4096);
  w.kv_u32("llama.feed_forward_length", 14336);
  w.kv_u32("llama.attention.head_count", 32);
  if (with_kv_heads) w.kv_u32("llama.attention.head_count_kv", 8);
  w.kv_u32("llama.rope.dimension_count", 128);
  w.kv_u32("llama.vocab_size", 128256);
  const std::uint64_t h = 4096, kv = 1024, ff = 14336, vocab = 128256;
  const int n = 32;
  w.tensor("rope_freqs.weight", {64}, kF32);
  w.tensor("token_embd.weight", {h, vocab}, kQ4_K);
  for (int i = 0; i < n; ++i) {
    const bool more = i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2;
    const std::string b = "blk." + std::to_string(i) + ".";
    w.tensor(b + "attn_norm.weight", {h}, kF32);
    w.tensor(b + "attn_q.weight", {h, h}, kQ4_K);
    w.tensor(b + "attn_k.weight", {h, kv}, kQ4_K);
    w.tensor(b + "attn_v.weight", {h, kv}, more ? kQ6_K : kQ4_K);
    w.tensor(b + "attn_output.weight", {h, h}, kQ4_K);
    w.tensor(b + "ffn_norm.weight", {h}, kF32);
    w.tensor(b + "ffn_gate.weight", {h, ff}, kQ4_K);
    w.tensor(b + "ffn_up.weight", {h, ff}, kQ4_K);
    w.tensor(b + "ffn_down.weight", {ff, h}, more ? kQ6_K : kQ4_K);
  }
  w.tensor("output_norm.weight", {h}, kF32);
  w.tensor("output.weight", {h, vocab}, kQ6_K);
  return w;
}

}  // namespace hwaccel::testing
