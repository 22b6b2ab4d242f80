// The snapshot model: every answer a machine gave to the probes. The contract
// for its YAML form is docs/snapshot-format.md.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/vocabulary/host_types.h"

namespace hwaccel {

inline constexpr int kSnapshotSchemaMajor = 1;

struct FileEntry {
  enum class Kind {
    content,  // a regular file's exact bytes
    absent,   // looked up and not there (ENOENT)
    error,    // there, but opening it fails with `error_code`
    link,     // a symbolic link to `target`
    dir,      // a directory with exactly `names`
    node,     // a device node or other special file of type `node_type`
  };
  Kind kind = Kind::content;
  std::string bytes;               // content
  int error_code = 0;              // error
  std::string target;              // link
  std::vector<std::string> names;  // dir, sorted
  FileKind node_type = FileKind::char_device;

  static FileEntry of_content(std::string bytes);
  static FileEntry of_absent();
  static FileEntry of_error(int code);
  static FileEntry of_link(std::string target);
  static FileEntry of_dir(std::vector<std::string> names);
  static FileEntry of_node(FileKind type);
  friend bool operator==(const FileEntry&, const FileEntry&) = default;
};

struct ToolEntry {
  std::vector<std::string> argv;
  ToolRun run;
  bool has_ms = false;  // `ms` is optional in the file
  friend bool operator==(const ToolEntry& a, const ToolEntry& b);
};

struct SnapshotInfo {
  std::string label;
  std::string origin = "recorded";  // recorded | synthesized | imported | hand-written
  std::string recorded_at;          // empty when not given
  std::string recorder;
  bool redacted = false;
  friend bool operator==(const SnapshotInfo&, const SnapshotInfo&) = default;
};

struct Snapshot {
  int schema_major = kSnapshotSchemaMajor;
  SnapshotInfo host;
  Facts facts;
  std::map<std::string, std::string> env;
  std::map<std::string, FileEntry> files;               // by normalised absolute path
  std::map<std::vector<std::string>, ToolEntry> tools;  // by exact argv
};

bool operator==(const Facts& a, const Facts& b);
bool operator==(const Snapshot& a, const Snapshot& b);

}  // namespace hwaccel
