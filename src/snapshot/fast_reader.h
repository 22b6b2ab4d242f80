// The fast path of parse_snapshot: a hand-written reader for the YAML subset
// that write_snapshot emits (block maps at fixed indents, plain, double-quoted
// and literal-block scalars, one-key flow maps, flow lists), plus the comments
// and free key order of hand-written fixtures. yaml-cpp builds a node tree and
// reads at about 10 MB/s; this reads the same texts straight into a Snapshot.
//
// It gives up (returns false) on anything outside that subset and on anything
// that breaks the contract; parse_snapshot then reads the text with yaml-cpp,
// which loads it or refuses it with a located error. So the fast path never
// accepts what the yaml-cpp path refuses and never reads a text differently:
// tests/unit/snapshot/fast_reader_test.cpp, tests/prop/snapshot_fast_reader_prop_test.cpp
// and tests/fuzz/snapshot_fast_reader_fuzz.cpp compare the two.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "src/snapshot/snapshot.h"
#include "src/snapshot/snapshot_codec.h"

namespace hwaccel {

// True when `text` was read, into `out`; false when the caller must fall back
// (`out` is then unspecified). The size and NUL limits are the caller's.
bool read_snapshot_fast(std::string_view text, Snapshot& out);
// The same, returning npos when read, or about where the reader gave up (for
// tests that say which construct of a fixture left the subset, and for the
// error on a text too large for yaml-cpp). `limit`, when given, is set to the
// message of the limit it stopped at (kMaxSnapshotNodes), or left empty.
//
// With `in_place` (the string `text` views), the text is the caller's to give:
// when a file's contents are a literal block scalar longer than half of the
// text (a 224-CPU /proc/cpuinfo is 446 KB of a 516 KB snapshot), its lines are
// un-indented into the text's own buffer once the whole text has been read,
// and that buffer becomes the file's bytes (moved out of `*in_place`): no
// second allocation of its size, whose fresh pages cost more than the copy
// (docs/performance.md, issue 37). When the reader gives up, `*in_place` is
// left as it was, for the caller's fallback.
std::size_t fast_reader_stop(std::string_view text, Snapshot& out, std::string* limit = nullptr,
                             std::string* in_place = nullptr);

// parse_snapshot without the fast path: the yaml-cpp reader alone, for tests
// and benchmarks that compare the two.
std::optional<SnapshotError> parse_snapshot_with_yaml_cpp(std::string_view text,
                                                          std::string_view file_name,
                                                          Snapshot& out);

}  // namespace hwaccel
