#include "src/plan/safetensors_index.h"

#include <algorithm>
#include <set>

#include <nlohmann/json.hpp>

#include "src/plan/safetensors.h"

namespace hwaccel::plan {

namespace {

// A shard is a file beside the index: no directory part, no "..", printable.
bool plain_shard_name(const std::string& n) {
  if (n.size() <= 12 || n.size() > 255 || n.substr(n.size() - 12) != ".safetensors") return false;
  if (n.find('/') != std::string::npos || n.find('\\') != std::string::npos || n[0] == '.')
    return false;
  return std::all_of(n.begin(), n.end(),
                     [](char c) { return static_cast<unsigned char>(c) >= 0x20 && c != 0x7f; });
}

}  // namespace

SafetensorsIndexResult parse_safetensors_index(std::string_view text, const std::string& file) {
  SafetensorsIndexResult out;
  if (text.size() > kMaxSafetensorsIndexBytes) {
    out.error = file + ": larger than " + std::to_string(kMaxSafetensorsIndexBytes) + " bytes";
    return out;
  }
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    out.error = file + ": not a JSON object";
    return out;
  }
  auto map = j.find("weight_map");
  if (map == j.end() || !map->is_object()) {
    out.error = file + ": expected \"weight_map\": {TENSOR: SHARD FILE, ...}";
    return out;
  }
  SafetensorsIndex idx;
  std::set<std::string> shards;
  for (auto it = map->begin(); it != map->end(); ++it) {
    if (++idx.tensors > kMaxSafetensorsTensors) {
      out.error = file + ": more than " + std::to_string(kMaxSafetensorsTensors) + " tensors";
      return out;
    }
    if (!it.value().is_string()) {
      out.error = file + ": weight_map \"" + it.key() + "\": expected a shard file name";
      return out;
    }
    std::string shard = it.value().get<std::string>();
    if (!plain_shard_name(shard)) {
      out.error = file + ": weight_map \"" + it.key() + "\": \"" + shard.substr(0, 80) +
                  "\" is not a .safetensors file name beside the index";
      return out;
    }
    if (shards.insert(shard).second && shards.size() > kMaxSafetensorsFiles) {
      out.error = file + ": more than " + std::to_string(kMaxSafetensorsFiles) + " shard files";
      return out;
    }
  }
  if (shards.empty()) {
    out.error = file + ": weight_map is empty";
    return out;
  }
  if (auto meta = j.find("metadata"); meta != j.end() && meta->is_object()) {
    auto ts = meta->find("total_size");
    if (ts != meta->end() && ts->is_number_unsigned()) idx.total_size = ts->get<std::uint64_t>();
  }
  idx.shards.assign(shards.begin(), shards.end());
  out.index = std::move(idx);
  return out;
}

}  // namespace hwaccel::plan
