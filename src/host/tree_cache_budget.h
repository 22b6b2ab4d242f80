#pragma once
// How much `hwsim run`'s tree cache may hold (docs/hwsim.md, "The tree cache"):
// a budget in bytes rather than a count of trees, since a GX10's tree takes under
// 1 MB and a 224-CPU DGX's about 60 MB (a page per file in tmpfs): a count either
// holds a whole fixture suite's worth of small trees or fills memory with large ones.
#include <cstdint>
#include <string>

#include "src/host/tree_writer.h"

namespace hwaccel {

// What the cache's folder may hold: `$HWSIM_TREE_CACHE_SIZE` (as --reserve reads
// sizes: src/vocabulary/byte_size.h), else 1 GiB, but never more than half
// of the space left on the folder's file system (tmpfs is memory). A value that
// does not read as a size falls back to the default and says so in `warning`.
std::uint64_t tree_cache_budget(const std::string& cache_path, std::string& warning);

// What a written tree takes: each file's bytes rounded up to whole 4 KiB pages
// (what tmpfs and du count; folders and links take no pages there).
std::uint64_t tree_footprint(const TreePlan& plan);

}  // namespace hwaccel
