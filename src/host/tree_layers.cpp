#include "src/host/tree_layers.h"

#include <algorithm>
#include <cstdint>

#include "src/host/sha256.h"
#include "src/vocabulary/path.h"

namespace hwaccel {
namespace {

bool below(std::string_view path, std::string_view folder) {
  return path.size() > folder.size() + 1 && path.compare(0, folder.size(), folder) == 0 &&
         path[folder.size()] == '/';
}

char kind_letter(PlannedEntry::Kind kind) {
  switch (kind) {
    case PlannedEntry::Kind::dir:
      return 'd';
    case PlannedEntry::Kind::file:
      return 'f';
    case PlannedEntry::Kind::link:
      return 'l';
  }
  return '?';
}

// Cuts `at` out of `plan` when it qualifies (tree_layers.h); false when it does not.
bool cut(TreePlan& plan, std::string_view at, std::string_view salt, std::size_t min_entries,
         TreeLayer& layer) {
  std::size_t inside = 0;
  for (const auto& e : plan.entries) {
    if (e.path == at && e.kind != PlannedEntry::Kind::dir) return false;
    if (below(e.path, at)) ++inside;
  }
  if (inside < min_entries) return false;
  layer.at = std::string(at);
  std::vector<PlannedEntry> own;
  own.reserve(plan.entries.size() - inside + 1);
  layer.plan.entries.reserve(inside + 1);
  bool placeholder = false;
  for (auto& e : plan.entries) {
    if (e.path == at) {
      // The folder itself: its mode on the layer's top, and an empty folder of
      // that mode in the tree (its parent's link count counts it).
      PlannedEntry top = e;
      top.path = std::string(kLayerTop);
      layer.plan.entries.push_back(std::move(top));
      own.push_back(std::move(e));
      placeholder = true;
    } else if (below(e.path, at)) {
      e.path = std::string(kLayerTop) + e.path.substr(at.size());
      layer.plan.entries.push_back(std::move(e));
    } else {
      own.push_back(std::move(e));
    }
  }
  // Where the plan only implies the folder, write_tree makes it as it makes any
  // parent (0755, less the umask): the same here.
  if (!placeholder) own.push_back({PlannedEntry::Kind::dir, std::string(at), "", "", 0755});
  plan.entries = std::move(own);
  layer.plan.keep = plan.keep;  // the bytes its entries lend (tree_writer.h, PlannedBytes)
  layer.key = layer_key(at, salt, layer.plan.entries);
  return true;
}

}  // namespace

std::string layer_key(std::string_view at, std::string_view salt,
                      const std::vector<PlannedEntry>& entries) {
  // Each part with its length (8 bytes, little-endian): no two different layers
  // give the same stream. Gathered in one buffer and hashed in large pieces (a
  // DGX's layer is 12,773 entries: five calls each cost more than their bytes).
  std::string buf;
  buf.reserve(1 << 16);
  Sha256 h;
  auto number = [&](std::uint64_t n) {
    for (int i = 0; i < 8; ++i) buf += static_cast<char>((n >> (8 * i)) & 0xff);
  };
  auto part = [&](std::string_view bytes) {
    number(bytes.size());
    buf.append(bytes);
  };
  part("hwsim-tree-layer 2");
  part(salt);
  part(at);
  for (const PlannedEntry& e : entries) {
    buf += kind_letter(e.kind);
    part(e.path);
    number(e.mode);
    part(e.bytes);
    part(e.target);
    if (buf.size() >= (1 << 16)) {
      h.update(buf);
      buf.clear();
    }
  }
  h.update(buf);
  return h.hex();
}

LayeredTree split_tree_layers(TreePlan plan, std::string_view salt, std::size_t min_entries) {
  LayeredTree out;
  const bool splittable =
      plan.error.empty() &&
      std::all_of(plan.entries.begin(), plan.entries.end(), [](const PlannedEntry& e) {
        return e.path != "/" && is_normal_absolute(e.path);
      });
  if (splittable) {
    for (std::string_view at : kLayerFolders) {
      TreeLayer layer;
      if (cut(plan, at, salt, min_entries, layer)) out.layers.push_back(std::move(layer));
    }
  }
  out.own = std::move(plan);
  return out;
}

}  // namespace hwaccel
