#include "cli/common/hwsim_run_cache.h"

#include <iostream>
#include <memory>

#include "sim/emulate/emulator_plan.h"
#include "sim/materialize.h"
#include "src/host/sha256.h"
#include "src/host/tree_cache_budget.h"
#include "src/host/tree_layers.h"
#include "src/vocabulary/sanitizer.h"

namespace hwaccel::cli {

std::string run_tree_key(std::string_view snapshot_sha256, const std::set<std::string>& hide,
                         const std::string& sleep_program, const sim::ShimHelpers& helpers) {
  const std::string build = program_build_id();
  if (build.empty()) return "";
  Sha256 h;
  // Each part with its length: no two different runs give the same stream.
  auto part = [&](std::string_view what, std::string_view bytes) {
    h.update(what);
    h.update(" " + std::to_string(bytes.size()) + "\n");
    h.update(bytes);
  };
  part("hwsim-run-tree 2 build", build);
  part("sleep", sleep_program);
  part("cat helper", helpers.cat);
  part("sleep helper", helpers.sleep);
  for (const auto& name : hide) part("hide", name);
  part("snapshot sha256", snapshot_sha256);
  return h.hex();
}

TreeCacheDir open_run_tree_cache() {
  std::string why_not;
  const std::string base = default_tree_cache_base(why_not);
  return base.empty() ? TreeCacheDir{"", why_not, ""} : open_tree_cache(base);
}

namespace {

// The tree's plan, split into layers (tree_layers.h); `error` set when there is none.
LayeredTree layered_plan(const std::string& root, const std::function<const Snapshot*()>& snapshot,
                         const std::set<std::string>& hide, const std::string& sleep_program,
                         const sim::ShimHelpers& helpers, bool emulator, bool& ok) {
  ok = false;
  const Snapshot* parsed = snapshot();
  if (!parsed) return {};  // the caller says it
  TreePlan plan = sim::plan_materialize(*parsed, root, hide, sleep_program, helpers);
  if (!plan.error.empty()) return {};  // the caller says it
  if (emulator) sim::plan_emulator(plan, "(bound by the run)", false);
  ok = true;
  return split_tree_layers(std::move(plan), program_build_id());
}

// Each layer of `refs` found in the cache, else stored from `layers` (the plan's,
// when it was made): held in `out`. False when one cannot be had (said).
bool hold_layers(const TreeCacheDir& cache, const std::vector<LayerRef>& refs,
                 const std::vector<TreeLayer>* layers, RunTree& out, bool verbose) {
  for (std::size_t i = 0; i < refs.size(); ++i) {
    const std::string path = cached_tree_path(cache, refs[i].key);
    CachedTree found = find_cached_tree(cache, refs[i].key);
    if (!found.refused.empty())
      std::cerr << "hwsim run: the cached layer " << path << " is refused (" << found.refused
                << "): removed, and written anew\n";
    if (!found.hit && layers) {
      EntryInUse held;
      if (auto why = store_cached_layer(cache, refs[i].key, (*layers)[i].plan, &held);
          why.empty()) {
        if (verbose) std::cerr << "hwsim run: note: a layer is written to the cache: " << path << "\n";
        out.layers.emplace_back(refs[i].at, path);
        out.layers_in_use.push_back(held);
        continue;
      }
      found = find_cached_tree(cache, refs[i].key);  // another run published it first
    }
    if (!found.hit) return false;
    if (verbose) std::cerr << "hwsim run: note: a layer is the cached " << path << "\n";
    out.layers.emplace_back(refs[i].at, path);
    out.layers_in_use.push_back(found.in_use);
  }
  return true;
}

std::vector<LayerRef> refs_of(const std::vector<TreeLayer>& layers) {
  std::vector<LayerRef> refs;
  for (const auto& layer : layers) refs.push_back({layer.key, layer.at});
  return refs;
}

}  // namespace

RunTree cached_run_tree(const TreeCacheDir& cache, const std::string& key,
                        const std::function<const Snapshot*()>& snapshot,
                        const std::set<std::string>& hide, const std::string& sleep_program,
                        const sim::ShimHelpers& helpers, bool emulator, bool verbose) {
  RunTree out;
  if (cache.path.empty()) {
    if (verbose || cache.why_not != "HWSIM_TREE_CACHE=off")
      std::cerr << "hwsim run: note: no tree cache (" << cache.why_not
                << "): the tree is written anew, in memory\n";
    return out;
  }
  const std::string root = cached_tree_path(cache, key);
  CachedTree found = find_cached_tree(cache, key);
  if (!found.refused.empty())
    std::cerr << "hwsim run: the cached tree " << root << " is refused (" << found.refused
              << "): removed, and written anew\n";
  if (found.hit) {
    out = {root, std::move(found.warnings), std::move(found.notes), true, found.in_use, {}, {}};
    if (hold_layers(cache, found.layers, nullptr, out, verbose)) {
      if (verbose) std::cerr << "hwsim run: note: the tree is the cached " << root << "\n";
      return out;
    }
    // A layer went (evicted, or refused): written again from the plan, the tree kept.
    bool ok = false;
    LayeredTree plan = layered_plan(root, snapshot, hide, sleep_program, helpers, emulator, ok);
    out.layers.clear();
    out.layers_in_use.clear();
    if (ok && refs_of(plan.layers) == found.layers &&
        hold_layers(cache, found.layers, &plan.layers, out, verbose))
      return out;
    return {};  // the caller writes the tree anew, in memory
  }
  bool ok = false;
  LayeredTree plan = layered_plan(root, snapshot, hide, sleep_program, helpers, emulator, ok);
  if (!ok) return out;  // the caller says it
  const std::vector<LayerRef> refs = refs_of(plan.layers);
  RunTree layered;
  if (!hold_layers(cache, refs, &plan.layers, layered, verbose)) {
    std::cerr << "hwsim run: note: a layer of the tree cannot be cached: it is written anew, in "
                 "memory\n";
    return out;
  }
  EntryInUse in_use;
  std::string budget_warning;
  const std::uint64_t budget = tree_cache_budget(cache.path, budget_warning);
  if (!budget_warning.empty()) std::cerr << "hwsim run: warning: " << budget_warning << "\n";
  if (auto why = store_cached_tree(cache, key, plan.own, budget, &in_use, refs); !why.empty()) {
    // Another run of the same tree published it first: that one is used.
    if (CachedTree other = find_cached_tree(cache, key); other.hit && other.layers == refs) {
      layered.root = root;
      layered.warnings = std::move(other.warnings);
      layered.notes = std::move(other.notes);
      layered.hit = true;
      layered.in_use = other.in_use;
      return layered;
    }
    std::cerr << "hwsim run: note: the tree cannot be cached (" << why
              << "): it is written anew, in memory\n";
    return out;
  }
  if (verbose) std::cerr << "hwsim run: note: the tree is written to the cache: " << root << "\n";
  layered.root = root;
  layered.warnings = std::move(plan.own.warnings);
  layered.notes = std::move(plan.own.notes);
  layered.in_use = in_use;
  // The plan and the filled snapshot it lends bytes from are not needed again: the
  // command's exit frees them (src/vocabulary/sanitizer.h).
  free_at_exit(std::make_unique<LayeredTree>(std::move(plan)));
  return layered;
}

}  // namespace hwaccel::cli
