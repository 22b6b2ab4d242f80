#include "src/snapshot/snapshot.h"

#include <tuple>
#include <utility>

namespace hwaccel {

FileEntry FileEntry::of_content(std::string bytes) {
  FileEntry e;
  e.kind = Kind::content;
  e.bytes = std::move(bytes);
  return e;
}

FileEntry FileEntry::of_absent() {
  FileEntry e;
  e.kind = Kind::absent;
  return e;
}

FileEntry FileEntry::of_error(int code) {
  FileEntry e;
  e.kind = Kind::error;
  e.error_code = code;
  return e;
}

FileEntry FileEntry::of_link(std::string target) {
  FileEntry e;
  e.kind = Kind::link;
  e.target = std::move(target);
  return e;
}

FileEntry FileEntry::of_dir(std::vector<std::string> names) {
  FileEntry e;
  e.kind = Kind::dir;
  e.names = std::move(names);
  return e;
}

FileEntry FileEntry::of_node(FileKind type) {
  FileEntry e;
  e.kind = Kind::node;
  e.node_type = type;
  return e;
}

bool operator==(const ToolEntry& a, const ToolEntry& b) {
  auto key = [](const ToolEntry& t) {
    return std::tie(t.argv, t.run.outcome, t.run.exit_code, t.run.signal, t.run.out, t.run.err,
                    t.run.truncated, t.has_ms);
  };
  return key(a) == key(b) && (!a.has_ms || a.run.ms == b.run.ms);
}

bool operator==(const Facts& a, const Facts& b) {
  return std::tie(a.os, a.arch, a.kernel, a.page_size, a.cpus, a.hostname) ==
         std::tie(b.os, b.arch, b.kernel, b.page_size, b.cpus, b.hostname);
}

bool operator==(const Snapshot& a, const Snapshot& b) {
  return a.schema_major == b.schema_major && a.host == b.host && a.facts == b.facts &&
         a.env == b.env && a.files == b.files && a.tools == b.tools;
}

}  // namespace hwaccel
