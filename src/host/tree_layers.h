// `hwsim run`'s trees in layers (docs/hwsim.md, "The tree cache"): the big
// subtree that variants of one machine have in common, a DGX H100's CPU topology
// (12,773 of its 14,285 files under /sys/devices/system/cpu, 57 a CPU), is cut
// out of the planned tree into a layer of its own, named by the SHA-256 of its
// planned entries. The tree cache stores a layer once and every tree whose layer
// has that name uses it: a snapshot from `hwsim mutate` or `hwsim synth` that
// differs from one already run in a GPU writes only the rest (about a tenth).
// A run mounts each layer on its folder of the tree (an empty folder there); the
// command sees the same paths, types, modes, bytes, links and link counts as in
// a tree written whole.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "src/host/tree_writer.h"

namespace hwaccel {

// The folder of a layer's entry that holds the subtree (the entry itself is the
// cache's private 0700 folder; this one carries the subtree's own mode).
inline constexpr std::string_view kLayerTop = "/tree";

// The subtrees cut out when big enough (only the CPU topology: the rest of a
// DGX's tree is 1,512 files, less than a layer's mount is worth).
inline constexpr std::string_view kLayerFolders[] = {"/sys/devices/system/cpu"};

// A subtree is a layer only from this many entries on: a small one costs its
// run a mount and its cache a seal for a write of a few milliseconds.
inline constexpr std::size_t kMinLayerEntries = 1024;

struct TreeLayer {
  std::string at;   // the tree's folder it goes on ("/sys/devices/system/cpu")
  std::string key;  // SHA-256 hex of its entries (layer_key)
  TreePlan plan;    // its entries, below kLayerTop instead of `at`
};

struct LayeredTree {
  TreePlan own;                   // the rest; an empty folder at each layer's place
  std::vector<TreeLayer> layers;  // in kLayerFolders' order
};

// Splits `plan` (its notes and warnings stay with `own`). A subtree is left in
// `own` when it has fewer than `min_entries` entries, when the plan names its
// folder as anything but a folder, or when an entry reaches it by a path that
// is not plain ("//", "/./", a trailing "/": write_tree would put it under
// the layer's place, where the layer hides it). A plan with an error is not
// split. `salt` goes into every key (hwsim's build id: a layer written by
// another build is never used).
LayeredTree split_tree_layers(TreePlan plan, std::string_view salt,
                              std::size_t min_entries = kMinLayerEntries);

// SHA-256 over a layer's folder, `salt`, and its entries (kind, path below the
// folder, mode, bytes, link target) in the plan's order (the planner's, which
// follows the snapshot's sorted paths).
std::string layer_key(std::string_view at, std::string_view salt,
                      const std::vector<PlannedEntry>& entries);

}  // namespace hwaccel
