// model.safetensors.index.json (a sharded Hugging Face checkpoint): its
// weight_map names, for every tensor, the shard file that holds it. Read to
// know which shards to open; a shard name is a bare file name in the same
// directory (never a path). No I/O here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel::plan {

inline constexpr std::uint64_t kMaxSafetensorsIndexBytes = 64ull << 20;

struct SafetensorsIndex {
  std::vector<std::string> shards;          // distinct, sorted
  std::size_t tensors = 0;                  // weight_map entries
  std::optional<std::uint64_t> total_size;  // metadata.total_size, when given
};

struct SafetensorsIndexResult {
  std::optional<SafetensorsIndex> index;
  std::string error;  // FILE: what was expected
};

SafetensorsIndexResult parse_safetensors_index(std::string_view text, const std::string& file);

}  // namespace hwaccel::plan
