#include "sim/tree_import.h"

#include <cctype>
#include <cerrno>
#include <charconv>

#include "src/host/path.h"

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

std::string first_line(std::string_view text) {
  auto end = text.find('\n');
  return std::string(text.substr(0, end));
}

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

const std::string* content_of(const Snapshot& snapshot, const std::string& path) {
  auto it = snapshot.files.find(path);
  if (it == snapshot.files.end() || it->second.kind != FileEntry::Kind::content) return nullptr;
  return &it->second.bytes;
}

// The value of the first "key<blanks>: value" line of /proc/cpuinfo.
std::optional<std::string> cpuinfo_field(std::string_view text, std::string_view key) {
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    if (trim(line.substr(0, colon)) == key) return trim(line.substr(colon + 1));
  }
  return std::nullopt;
}

std::int64_t count_processor_lines(std::string_view text) {
  std::int64_t n = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    auto colon = line.find(':');
    if (colon != std::string_view::npos && trim(line.substr(0, colon)) == "processor") ++n;
  }
  return n;
}

std::string arch_from_cpuinfo(std::string_view text) {
  if (cpuinfo_field(text, "CPU implementer")) return "aarch64";
  if (auto flags = cpuinfo_field(text, "flags")) {
    std::string padded = " " + *flags + " ";
    return padded.find(" lm ") != std::string::npos ? "x86_64" : "i686";
  }
  if (auto cpu = cpuinfo_field(text, "cpu"); cpu && cpu->rfind("POWER", 0) == 0) return "ppc64le";
  if (auto isa = cpuinfo_field(text, "isa"); isa && isa->rfind("rv64", 0) == 0) return "riscv64";
  if (cpuinfo_field(text, "vendor_id") && cpuinfo_field(text, "features")) return "s390x";
  return "";
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
  std::string list = trim(text);
  if (list.empty()) return std::nullopt;
  std::int64_t count = 0;
  std::size_t at = 0;
  while (at <= list.size()) {
    std::size_t end = list.find(',', at);
    if (end == std::string::npos) end = list.size();
    std::string_view range = std::string_view(list).substr(at, end - at);
    auto dash = range.find('-');
    long first = 0, last = 0;
    auto parse = [](std::string_view s, long& v) {
      auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      return ec == std::errc() && p == s.data() + s.size() && v >= 0;
    };
    if (dash == std::string_view::npos) {
      if (!parse(range, first)) return std::nullopt;
      last = first;
    } else if (!parse(range.substr(0, dash), first) || !parse(range.substr(dash + 1), last) ||
               last < first) {
      return std::nullopt;
    }
    count += last - first + 1;
    at = end + 1;
  }
  return count;
}

Facts import_facts(const Snapshot& snapshot, std::vector<std::string>& notes) {
  Facts facts;
  facts.os = snapshot.files.empty() ? "" : "linux";
  const std::string* cpuinfo = content_of(snapshot, "/proc/cpuinfo");
  if (const auto* online = content_of(snapshot, "/sys/devices/system/cpu/online")) {
    if (auto n = count_cpu_list(*online)) facts.cpus = *n;
  }
  if (facts.cpus == 0 && cpuinfo) facts.cpus = count_processor_lines(*cpuinfo);
  if (facts.cpus == 0) notes.push_back("facts.cpus: unknown (no cpu list, no /proc/cpuinfo)");
  if (cpuinfo) facts.arch = arch_from_cpuinfo(*cpuinfo);
  if (facts.arch.empty()) notes.push_back("facts.arch: unknown (give --arch)");
  if (const auto* release = content_of(snapshot, "/proc/sys/kernel/osrelease")) {
    facts.kernel = trim(*release);
  } else if (const auto* version = content_of(snapshot, "/proc/version")) {
    // "Linux version 6.8.0-45-generic (buildd@...) ..."
    std::string line = first_line(*version);
    const std::string prefix = "Linux version ";
    if (line.rfind(prefix, 0) == 0)
      facts.kernel = line.substr(prefix.size(), line.find(' ', prefix.size()) - prefix.size());
  }
  if (facts.kernel.empty()) notes.push_back("facts.kernel: unknown (give --kernel)");
  if (const auto* hostname = content_of(snapshot, "/proc/sys/kernel/hostname"))
    facts.hostname = trim(*hostname);
  return facts;
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
  s.facts.page_size = given.page_size ? given.page_size : 4096;
  for (const auto& note : fact_notes) {
    bool overridden = (note.rfind("facts.arch", 0) == 0 && !given.arch.empty()) ||
                      (note.rfind("facts.kernel", 0) == 0 && !given.kernel.empty()) ||
                      (note.rfind("facts.cpus", 0) == 0 && given.cpus);
    if (!overridden) result.notes.push_back(note);
  }
  if (!given.page_size)
    result.notes.push_back("facts.page_size: assumed 4096 (a tree does not say; give --page-size)");
  s.env = options.env;
  return result;
}

}  // namespace hwaccel::sim
