// GGUF headers (llama.cpp's model files): the metadata and tensor infos that
// come before the weights, read from the first bytes of a file only. Every
// tensor's ggml type and shape give its exact size, for every k-quant and
// i-quant mix. No I/O here: the caller reads the head through the Host.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/plan/model_spec.h"

namespace hwaccel::plan {

// Bounds on a header from a stranger: far beyond real models (DeepSeek-V3 has
// about 1,100 tensors and a 129,280-token vocabulary, its header ~12 MiB).
inline constexpr std::size_t kMaxGgufHeadBytes = 64u << 20;
inline constexpr std::uint64_t kMaxGgufTensors = 1u << 16;
inline constexpr std::uint64_t kMaxGgufKeys = 1u << 16;
inline constexpr std::uint64_t kMaxGgufNameBytes = 1u << 16;

// ggml's block layout of a tensor type: `block` values take `bytes` bytes
// (gguf-py constants.py GGML_QUANT_SIZES; ggml-common.h's block structs).
struct GgmlType {
  std::uint32_t id = 0;
  const char* name = "";
  std::uint32_t block = 1;
  std::uint32_t bytes = 0;
};
const GgmlType* ggml_type(std::uint32_t id);

struct GgufTensor {
  std::string name;
  std::vector<std::uint64_t> shape;
  std::uint32_t type = 0;
  std::uint64_t elements = 0;
  std::uint64_t bytes = 0;
  std::uint64_t offset = 0;  // from the start of the data, a multiple of the alignment
};

struct GgufHeader {
  std::uint32_t version = 0;
  std::string architecture;
  std::string name;  // general.name
  // Scalars of the metadata (integers and floats as double, strings, bools
  // as 0/1); arrays give their length under "KEY#len" and, for integer arrays,
  // their largest element under "KEY#max".
  std::map<std::string, double> numbers;
  std::map<std::string, std::string> strings;
  std::vector<GgufTensor> tensors;
  std::uint64_t weight_bytes = 0;  // sum over the tensors
  std::uint64_t header_bytes = 0;  // where the tensor infos end
  std::uint64_t alignment = 32;    // general.alignment: the data starts at the next multiple
  std::map<std::string, std::uint64_t> bytes_by_type;
};

struct GgufResult {
  std::optional<GgufHeader> header;
  std::string error;       // FILE: at byte N: what was expected
  bool truncated = false;  // the bytes ended inside the header
};

// `bytes`: the first bytes of the file (all of it, or kMaxGgufHeadBytes).
// Refused, with the byte and what was expected: a key or tensor defined
// twice, an alignment that is not a power of two, a tensor offset that is not
// aligned and, given `file_size`, a tensor whose data ends past the file.
GgufResult parse_gguf(std::string_view bytes, const std::string& file,
                      std::optional<std::uint64_t> file_size = std::nullopt);

// The model shape from the metadata (ARCH.block_count, ...) and exact weight
// bytes from the tensors; assumptions printed for what the file does not say.
ModelResult model_from_gguf(const GgufHeader& header, const std::string& file);

}  // namespace hwaccel::plan
