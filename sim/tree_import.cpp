#include "sim/tree_import.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>

#include "src/host/tree_facts.h"
#include "src/vocabulary/path.h"

namespace hwaccel::sim {
namespace {

bool under(std::string_view path, std::string_view prefix) {
  if (prefix == "/") return true;
  return path.size() >= prefix.size() && path.compare(0, prefix.size(), prefix) == 0 &&
         (path.size() == prefix.size() || path[prefix.size()] == '/');
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

struct Walker {
  TreeSource& tree;
  const ImportOptions& options;
  ImportResult& result;
  std::vector<std::string> excludes;

  bool excluded(const std::string& path) const {
    // /proc/<pid> and /proc/<pid>/... are other processes: never part of a host.
    if (under(path, "/proc")) {
      auto parts = path_components(path);
      if (parts.size() >= 2 && all_digits(parts[1])) return true;
    }
    for (const auto& prefix : excludes)
      if (under(path, prefix)) return true;
    return false;
  }

  // Whether `path` leads to, or lies under, one of the --only prefixes.
  bool wanted(const std::string& path) const {
    if (options.only.empty()) return true;
    for (const auto& prefix : options.only)
      if (under(path, prefix) || under(prefix, path)) return true;
    return false;
  }
  bool fully_wanted(const std::string& path) const {
    if (options.only.empty()) return true;
    for (const auto& prefix : options.only)
      if (under(path, prefix)) return true;
    return false;
  }

  bool put(const std::string& path, FileEntry entry) {
    if (result.snapshot.files.size() >= options.max_entries) {
      result.error = "more than " + std::to_string(options.max_entries) + " entries (at " + path +
                     "); narrow the import with --only or --exclude";
      return false;
    }
    result.snapshot.files.emplace(path, std::move(entry));
    return true;
  }

  bool error_entry(const std::string& path, const Error& error) {
    ++result.errors;
    return put(path, FileEntry::of_error(error.code));
  }

  // Returns false to stop the whole walk (a cap was hit).
  bool walk_dir(const std::string& dir, int depth) {
    if (depth > 64) {
      result.notes.push_back(dir + ": deeper than 64 folders, not imported");
      return true;
    }
    auto names = tree.list(dir);
    if (!names.ok()) {
      if (dir != "/") return error_entry(dir, names.error());
      result.error = "cannot list the tree's root: " + names.error().message;
      return false;
    }
    bool any = false;
    for (const auto& name : *names) {
      std::string path = join_path(dir, name);
      if (excluded(path) || !wanted(path)) continue;
      any = true;
      if (!walk_entry(path, depth)) return false;
    }
    if (!any && dir != "/" && fully_wanted(dir)) return put(dir, FileEntry::of_dir({}));
    return true;
  }

  bool walk_entry(const std::string& path, int depth) {
    auto node = tree.lstat(path);
    if (!node.ok()) return error_entry(path, node.error());
    switch (node->kind) {
      case FileKind::directory:
        return walk_dir(path, depth + 1);
      case FileKind::symlink: {
        if (!fully_wanted(path)) return true;
        auto target = tree.readlink(path);
        if (!target.ok()) return error_entry(path, target.error());
        ++result.links;
        return put(path, FileEntry::of_link(*target));
      }
      case FileKind::regular:
        if (!fully_wanted(path)) return true;
        return read_file(path);
      default:
        if (!fully_wanted(path)) return true;
        ++result.nodes;
        return put(path, FileEntry::of_node(node->kind));
    }
  }

  bool read_file(const std::string& path) {
    auto read = tree.read(path, options.max_file_bytes);
    if (!read.ok()) return error_entry(path, read.error());
    if (read->truncated) {
      result.notes.push_back(path + ": larger than " + std::to_string(options.max_file_bytes) +
                             " bytes, imported as {error: EFBIG}");
      ++result.errors;
      return put(path, FileEntry::of_error(EFBIG));
    }
    if (result.bytes + read->bytes.size() > options.max_total_bytes) {
      result.error = "more than " + std::to_string(options.max_total_bytes) +
                     " bytes of file contents (at " + path +
                     "); narrow the import with --only or --exclude";
      return false;
    }
    result.bytes += read->bytes.size();
    ++result.files;
    return put(path, FileEntry::of_content(std::move(read->bytes)));
  }
};

const std::string* content_of(const Snapshot& snapshot, const std::string& path) {
  auto it = snapshot.files.find(path);
  if (it == snapshot.files.end() || it->second.kind != FileEntry::Kind::content) return nullptr;
  return &it->second.bytes;
}

// The snapshot's files as a tree: a folder's names are the next components of
// the paths below it (the map is sorted, so they are one range).
TreeFiles snapshot_files(const Snapshot& snapshot) {
  TreeFiles files;
  files.read = [&snapshot](const std::string& path) -> std::optional<std::string> {
    const std::string* bytes = content_of(snapshot, path);
    if (!bytes) return std::nullopt;
    return *bytes;
  };
  files.list = [&snapshot](const std::string& dir) {
    std::vector<std::string> names;
    const std::string prefix = dir == "/" ? "/" : dir + "/";
    auto it = snapshot.files.lower_bound(prefix);
    while (it != snapshot.files.end() && it->first.compare(0, prefix.size(), prefix) == 0) {
      std::string name = it->first.substr(prefix.size());
      name = name.substr(0, name.find('/'));
      if (name.empty()) {
        ++it;
        continue;
      }
      names.push_back(name);
      // Past this name's own entry, or past everything below it ('/' + 1 is '0');
      // a sibling such as "cpu1-x" sorts in between and is met again (deduplicated).
      const std::string base = prefix + name;
      if (it->first == base)
        ++it;
      else
        it = snapshot.files.lower_bound(base + "0");
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
  };
  return files;
}

}  // namespace

const std::vector<std::string>& default_import_excludes() {
  static const std::vector<std::string> excludes = {
      "/proc/kcore",       "/proc/kmsg",        "/proc/kpagecount",
      "/proc/kpageflags",  "/proc/kpagecgroup", "/proc/sysrq-trigger",
      "/proc/thread-self", "/sys/kernel/debug", "/sys/kernel/tracing",
  };
  return excludes;
}

std::optional<std::int64_t> count_cpu_list(std::string_view text) {
  auto cpus = parse_cpu_list(text);
  if (!cpus || cpus->empty()) return std::nullopt;
  return static_cast<std::int64_t>(cpus->size());
}

Facts import_facts(const Snapshot& snapshot, std::vector<std::string>& notes) {
  if (snapshot.files.empty()) return {};
  return facts_from_tree(snapshot_files(snapshot), notes);
}

ImportResult import_tree(TreeSource& tree, const ImportOptions& options) {
  ImportResult result;
  Walker walker{tree, options, result, default_import_excludes()};
  for (const auto& e : options.exclude) walker.excludes.push_back(e);
  auto root = tree.lstat("/");
  if (!root.ok() || root->kind != FileKind::directory) {
    result.error = "the tree's root is not a readable folder" +
                   (root.ok() ? std::string() : ": " + root.error().message);
    return result;
  }
  if (!walker.walk_dir("/", 0)) return result;
  if (result.snapshot.files.empty()) {
    result.error = "nothing to import (the tree is empty, or --only matched nothing)";
    return result;
  }

  Snapshot& s = result.snapshot;
  s.host.label = options.label;
  s.host.origin = "imported";
  s.host.recorder = std::string("hwsim import ") + HWACCEL_VERSION;
  std::vector<std::string> fact_notes;
  Facts derived = import_facts(s, fact_notes);
  const Facts& given = options.facts;
  s.facts.os = given.os.empty() ? derived.os : given.os;
  s.facts.arch = given.arch.empty() ? derived.arch : given.arch;
  s.facts.kernel = given.kernel.empty() ? derived.kernel : given.kernel;
  s.facts.cpus = given.cpus ? given.cpus : derived.cpus;
  s.facts.hostname = given.hostname.empty() ? derived.hostname : given.hostname;
  if (s.facts.hostname.empty()) {
    s.facts.hostname = options.label;
    result.hostname_is_label = true;
  }
  s.facts.page_size = given.page_size     ? given.page_size
                      : derived.page_size ? derived.page_size
                                          : 4096;
  for (const auto& note : fact_notes) {
    bool overridden = (note.rfind("facts.arch", 0) == 0 && !given.arch.empty()) ||
                      (note.rfind("facts.kernel", 0) == 0 && !given.kernel.empty()) ||
                      (note.rfind("facts.cpus", 0) == 0 && given.cpus);
    if (!overridden) result.notes.push_back(note);
  }
  if (!given.page_size && !derived.page_size)
    result.notes.push_back("facts.page_size: assumed 4096 (a tree does not say; give --page-size)");
  s.env = options.env;
  return result;
}

}  // namespace hwaccel::sim
