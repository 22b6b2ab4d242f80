// The YAML form of a snapshot (docs/snapshot-format.md). Saving is
// deterministic: load -> save -> load -> save gives identical bytes.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "src/snapshot/snapshot.h"

namespace hwaccel {

// A contract violation, located: "host.yaml:12:3: files: path "proc" is relative ...".
struct SnapshotError {
  std::string file;
  int line = 0;    // 1-based; 0 when not known
  int column = 0;  // 1-based; 0 when not known
  std::string message;

  std::string to_string() const;
};

// Parses `text` (the content of `file_name`, used in errors only).
std::optional<SnapshotError> parse_snapshot(std::string_view text, std::string_view file_name,
                                            Snapshot& out);
// The same, given the text to keep: a file's contents longer than half of it
// may take over its buffer (fast_reader.h: fast_reader_stop's `in_place`), so
// `text` is left unspecified when the snapshot loads (as it was when refused).
std::optional<SnapshotError> parse_snapshot_in_place(std::string& text, std::string_view file_name,
                                                     Snapshot& out);

std::string write_snapshot(const Snapshot& snapshot);

}  // namespace hwaccel
