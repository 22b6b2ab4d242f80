#include "cli/common/hwsim_run_cache.h"

#include <iostream>
#include <memory>

#include "sim/emulate/emulator_plan.h"
#include "sim/materialize.h"
#include "src/host/heap_pages.h"
#include "src/host/sha256.h"
#include "src/host/tree_cache_budget.h"
#include "src/vocabulary/sanitizer.h"

namespace hwaccel::cli {
namespace {

// What the heap grows by at once before a tree is planned: more than a DGX H100's
// filled snapshot and plan (about 12 MB; perf stat's page faults x 4 KiB).
constexpr std::size_t kPlanHeapBytes = std::size_t{16} << 20;

}  // namespace

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
    out = {root, std::move(found.warnings), std::move(found.notes), true, found.in_use};
    if (verbose) std::cerr << "hwsim run: note: the tree is the cached " << root << "\n";
    return out;
  }
  const Snapshot* parsed = snapshot();
  if (!parsed) return out;  // the caller says it
  // The plan and the filled snapshot (12 MB for a DGX, kept to the exit) in huge
  // pages where the kernel allows: 4,000 fewer page faults (src/host/heap_pages.h).
  prefer_huge_heap_pages(kPlanHeapBytes);
  TreePlan plan = sim::plan_materialize(*parsed, root, hide, sleep_program, helpers);
  if (!plan.error.empty()) return out;  // the caller says it
  if (emulator) sim::plan_emulator(plan, "(bound by the run)", false);
  EntryInUse in_use;
  std::string budget_warning;
  const std::uint64_t budget = tree_cache_budget(cache.path, budget_warning);
  if (!budget_warning.empty()) std::cerr << "hwsim run: warning: " << budget_warning << "\n";
  if (auto why = store_cached_tree(cache, key, plan, budget, &in_use); !why.empty()) {
    // Another run of the same tree published it first: that one is used.
    if (CachedTree other = find_cached_tree(cache, key); other.hit)
      return {root, std::move(other.warnings), std::move(other.notes), true, other.in_use};
    std::cerr << "hwsim run: note: the tree cannot be cached (" << why
              << "): it is written anew, in memory\n";
    return out;
  }
  if (verbose) std::cerr << "hwsim run: note: the tree is written to the cache: " << root << "\n";
  RunTree written{root, std::move(plan.warnings), std::move(plan.notes), false, in_use};
  // The plan and the filled snapshot it lends bytes from are not needed again: the
  // command's exit frees them (src/vocabulary/sanitizer.h).
  free_at_exit(std::make_unique<TreePlan>(std::move(plan)));
  return written;
}

}  // namespace hwaccel::cli
