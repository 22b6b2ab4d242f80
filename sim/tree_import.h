// `hwsim import`: a tree laid out like "/" (an extracted hwloc-gather-topology
// tarball, a copy of /sys and /proc) -> a snapshot. Everything under the tree is
// taken, bounded: regular files up to a size cap (larger ones become
// `{error: EFBIG}`, so a reader sees they exist), links kept as links (never
// followed), device nodes, FIFOs and sockets as `{type: ...}`, empty folders as
// `{dir: []}`, and entries that cannot be read as `{error: E}` with their errno.
// Binary contents are kept (the writer base64-encodes them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/host/tree_source.h"
#include "src/snapshot/snapshot.h"

namespace hwaccel::sim {

struct ImportOptions {
  std::string label;
  // Only paths under these (absolute) prefixes; empty: the whole tree.
  std::vector<std::string> only;
  // Never these prefixes, on top of default_import_excludes().
  std::vector<std::string> exclude;
  std::size_t max_file_bytes = std::size_t{1} << 20;
  std::size_t max_total_bytes = std::size_t{256} << 20;
  std::size_t max_entries = 500'000;
  // Facts the tree cannot tell: given ones win over what import_facts() derives.
  Facts facts;
  std::map<std::string, std::string> env;
};

struct ImportResult {
  Snapshot snapshot;
  std::vector<std::string> notes;  // what was skipped or assumed, for stderr
  std::string error;               // non-empty: the import failed (over a cap, no tree)
  bool hostname_is_label = false;  // the tree has none: facts.hostname is the label
  std::size_t files = 0, links = 0, nodes = 0, errors = 0, bytes = 0;
};

// Paths skipped by default: process folders (/proc/<pid>), and files whose reading
// is pointless or harmful on a live tree (/proc/kcore, /proc/kmsg, tracing).
const std::vector<std::string>& default_import_excludes();

ImportResult import_tree(TreeSource& tree, const ImportOptions& options);

// Facts from the imported files: cpus (/sys/devices/system/cpu/online, else the
// `processor` lines of /proc/cpuinfo), arch (from /proc/cpuinfo's fields), kernel
// (/proc/sys/kernel/osrelease, else /proc/version), hostname
// (/proc/sys/kernel/hostname). Unknown ones stay empty/zero; `notes` says which.
Facts import_facts(const Snapshot& snapshot, std::vector<std::string>& notes);

// "0-3,8,10-11\n" -> 7; nullopt when it is not a CPU list.
std::optional<std::int64_t> count_cpu_list(std::string_view text);

}  // namespace hwaccel::sim
