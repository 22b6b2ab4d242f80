// Limits on snapshot files, which come from other people and are untrusted input.
// parse_snapshot refuses a text beyond any of them with a located SnapshotError,
// before yaml-cpp builds a node tree, so that a hostile file costs bounded time
// and memory (docs/reliability.md lists them and how they were measured).
#pragma once

#include <cstddef>

namespace hwaccel {

// The largest snapshot text read at all: checked on the size first, before any
// byte is looked at. Generous: the biggest fixture (eight H100s) is under
// 1 MiB, and a tool run keeps at most 16 MiB per stream (LiveHost), about 22 MiB
// as base64. Loading costs a few times the text in memory (docs/reliability.md).
inline constexpr std::size_t kMaxSnapshotBytes = std::size_t{512} << 20;

// Collections nested deeper than this are refused. A snapshot needs 4 levels
// (files -> path -> {dir: [names]}); yaml-cpp recurses once per level.
inline constexpr int kMaxSnapshotDepth = 256;

// YAML nodes (scalars, lists, maps; keys included) in one snapshot. A file
// entry is two nodes, or four for {dir: [...]} plus one per name. Bounds the
// node tree's memory and the load time (about 1 s per 100,000 nodes on the CI
// machine: docs/reliability.md).
inline constexpr std::size_t kMaxSnapshotNodes = 1'000'000;

}  // namespace hwaccel
