// safetensors headers (Hugging Face's weight files): an 8-byte little-endian
// length, then a JSON object of tensor name -> dtype, shape, data_offsets.
// Read from the first bytes of each file only; the weights are never read.
// No I/O here: the caller reads the heads through the Host.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/plan/model_spec.h"

namespace hwaccel::plan {

// The safetensors library refuses headers above 100 MB; so do we.
inline constexpr std::uint64_t kMaxSafetensorsHeaderBytes = 100'000'000;
inline constexpr std::size_t kMaxSafetensorsTensors = 1u << 17;
inline constexpr std::size_t kMaxSafetensorsFiles = 4096;

struct SafetensorsTensor {
  std::string name;
  std::string dtype;  // "BF16", "F8_E4M3", "I32" (GPTQ's packed int4) ...
  std::vector<std::uint64_t> shape;
  std::uint64_t bytes = 0;
};

struct SafetensorsHeader {
  std::vector<SafetensorsTensor> tensors;
  std::uint64_t weight_bytes = 0;
};

struct SafetensorsResult {
  std::optional<SafetensorsHeader> header;
  std::string error;  // FILE: what was expected
  // The header's length (from the first 8 bytes), when `bytes` held only those:
  // read that many more and parse again.
  std::optional<std::uint64_t> need_bytes;
};

// `bytes`: the file's first 8 bytes, or 8 + the header's length.
SafetensorsResult parse_safetensors(std::string_view bytes, const std::string& file);

// The exact bytes of these files' tensors as the spec's file_weights
// ("safetensors:BF16"): embeddings, lm_head and routed experts told apart by name.
void set_safetensors_weights(ModelSpec& spec, const std::vector<SafetensorsTensor>& tensors);

}  // namespace hwaccel::plan
