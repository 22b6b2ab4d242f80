// Limits on snapshot files, which come from other people and are untrusted input.
// parse_snapshot refuses a text beyond any of them with a located SnapshotError,
// before yaml-cpp builds a node tree, so that a hostile file costs bounded time
// and memory (docs/reliability.md lists them and how they were measured).
#pragma once

#include <cstddef>
#include <cstdint>

namespace hwaccel {

// The largest snapshot text read at all: checked on the size first, before any
// byte is looked at. Generous: the biggest fixture (eight H100s) is under
// 1 MiB, and a tool run keeps at most 16 MiB per stream (LiveHost), about 22 MiB
// as base64. Loading costs a few times the text in memory (docs/reliability.md).
inline constexpr std::size_t kMaxSnapshotBytes = std::size_t{512} << 20;

// The largest text the yaml-cpp reader is given. yaml-cpp reads a few MB a
// second (a 400 MB scalar took 82 s; it reads each text twice: LimitScan,
// then Load), so a larger text is read only in the form write_snapshot
// emits, by the linear fast reader (fast_reader.h), and refused where it
// leaves that form. Every recorded, synthesized, imported or mutated snapshot
// is in that form; hand-written fixtures are far smaller (the largest is
// under 1 MiB).
inline constexpr std::size_t kMaxYamlCppSnapshotBytes = std::size_t{8} << 20;

// Collections nested deeper than this are refused. A snapshot needs 4 levels
// (files -> path -> {dir: [names]}); yaml-cpp recurses once per level.
inline constexpr int kMaxSnapshotDepth = 256;

// YAML nodes (scalars, lists, maps; keys included) in one snapshot. A file
// entry is two nodes, or four for {dir: [...]} plus one per name. Bounds the
// node tree's memory and the load time (about 1 s per 100,000 nodes on the CI
// machine: docs/reliability.md).
inline constexpr std::size_t kMaxSnapshotNodes = 1'000'000;

// facts.page_size: 0 (not known: a hand-written snapshot) or a page size some
// machine has (4 KiB, 16 KiB, 64 KiB, ...): a power of two from 1 KiB to 1 GiB.
inline constexpr bool valid_page_size(std::int64_t bytes) {
  return bytes == 0 ||
         (bytes >= 1024 && bytes <= (std::int64_t{1} << 30) && (bytes & (bytes - 1)) == 0);
}

}  // namespace hwaccel
