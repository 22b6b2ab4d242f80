#include "sim/ttar.h"

#include <cerrno>
#include <charconv>

#include "src/vocabulary/path.h"

namespace hwaccel::sim {
namespace {

bool starts(std::string_view line, std::string_view prefix) {
  return line.substr(0, prefix.size()) == prefix;
}

std::string decode_line(std::string_view line) {
  std::string out;
  std::size_t at = 0;
  while (at < line.size()) {
    std::size_t hit = line.find("NULLBYTE", at);
    if (hit == std::string_view::npos) hit = line.size();
    out.append(line.substr(at, hit - at));
    if (hit < line.size()) {
      out += '\0';
      hit += 8;
    }
    at = hit;
  }
  return out;
}

}  // namespace

TtarArchive parse_ttar(std::string_view text) {
  TtarArchive archive;
  std::vector<std::string_view> lines;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  auto fail = [&](std::size_t i, const std::string& what) {
    archive.error = "line " + std::to_string(i + 1) + ": " + what;
    archive.entries.clear();
    return archive;
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = lines[i];
    if (line.empty() || line[0] == '#' || starts(line, "Mode: ")) continue;
    if (starts(line, "Directory: ")) {
      archive.entries.push_back({TtarEntry::Kind::dir, std::string(line.substr(11)), "", ""});
      continue;
    }
    if (!starts(line, "Path: ")) return fail(i, "expected Directory:, Path: or a # comment");
    TtarEntry entry;
    entry.path = std::string(line.substr(6));
    if (i + 1 >= lines.size()) return fail(i, "Path: without Lines: or SymlinkTo:");
    std::string_view next = lines[++i];
    if (starts(next, "SymlinkTo: ")) {
      entry.kind = TtarEntry::Kind::link;
      entry.target = std::string(next.substr(11));
    } else if (starts(next, "Lines: ")) {
      std::string_view number = next.substr(7);
      std::size_t count = 0;
      auto [p, ec] = std::from_chars(number.data(), number.data() + number.size(), count);
      if (ec != std::errc() || p != number.data() + number.size())
        return fail(i, "Lines: needs a number");
      if (i + count >= lines.size()) return fail(i, "fewer lines than Lines: says");
      for (std::size_t k = 1; k <= count; ++k) {
        std::string_view content = lines[i + k];
        bool last_without_newline =
            k == count && content.size() >= 3 && content.substr(content.size() - 3) == "EOF";
        if (last_without_newline) content.remove_suffix(3);
        entry.bytes += decode_line(content);
        if (!last_without_newline) entry.bytes += '\n';
      }
      i += count;
    } else {
      return fail(i, "expected Lines: or SymlinkTo: after Path:");
    }
    if (entry.path.empty()) return fail(i, "an empty path");
    archive.entries.push_back(std::move(entry));
  }
  return archive;
}

std::string ttar_common_prefix(const std::vector<TtarEntry>& entries) {
  std::string prefix;
  for (const auto& e : entries) {
    std::string first = e.path.substr(0, e.path.find('/'));
    if (prefix.empty()) prefix = first;
    if (first != prefix) return "";
  }
  return prefix;
}

MemoryTree::MemoryTree(const std::vector<TtarEntry>& entries, std::string_view prefix) {
  nodes_["/"] = Node{};
  for (const auto& e : entries) {
    std::string rel = e.path;
    if (!prefix.empty()) {
      if (rel == prefix) continue;
      if (rel.compare(0, prefix.size(), prefix) != 0 || rel.size() <= prefix.size() ||
          rel[prefix.size()] != '/')
        continue;
      rel = rel.substr(prefix.size());
    }
    auto path = normalize_absolute("/" + rel);
    if (!path || has_dotdot("/" + rel)) continue;
    add(*path, Node{e.kind, e.bytes, e.target});
  }
}

void MemoryTree::add(const std::string& path, Node node) {
  for (std::string p = parent_dir(path); p != "/"; p = parent_dir(p)) nodes_.try_emplace(p, Node{});
  nodes_[path] = std::move(node);
}

Result<TreeNode> MemoryTree::lstat(std::string_view path) {
  auto it = nodes_.find(std::string(path));
  if (it == nodes_.end()) return make_error(ENOENT, path);
  switch (it->second.kind) {
    case TtarEntry::Kind::dir:
      return TreeNode{FileKind::directory, 0};
    case TtarEntry::Kind::link:
      return TreeNode{FileKind::symlink, it->second.target.size()};
    case TtarEntry::Kind::file:
      break;
  }
  return TreeNode{FileKind::regular, it->second.bytes.size()};
}

Result<std::vector<std::string>> MemoryTree::list(std::string_view dir) {
  auto it = nodes_.find(std::string(dir));
  if (it == nodes_.end()) return make_error(ENOENT, dir);
  if (it->second.kind != TtarEntry::Kind::dir) return make_error(ENOTDIR, dir);
  std::string base = dir == "/" ? "/" : std::string(dir) + "/";
  std::vector<std::string> names;
  for (auto child = nodes_.upper_bound(base); child != nodes_.end(); ++child) {
    if (child->first.compare(0, base.size(), base) != 0) break;
    std::string rest = child->first.substr(base.size());
    if (!rest.empty() && rest.find('/') == std::string::npos) names.push_back(rest);
  }
  return names;
}

Result<std::string> MemoryTree::readlink(std::string_view path) {
  auto it = nodes_.find(std::string(path));
  if (it == nodes_.end()) return make_error(ENOENT, path);
  if (it->second.kind != TtarEntry::Kind::link) return make_error(EINVAL, path);
  return it->second.target;
}

Result<CappedRead> MemoryTree::read(std::string_view path, std::size_t cap) {
  auto it = nodes_.find(std::string(path));
  if (it == nodes_.end()) return make_error(ENOENT, path);
  if (it->second.kind == TtarEntry::Kind::dir) return make_error(EISDIR, path);
  if (it->second.kind == TtarEntry::Kind::link) return make_error(ELOOP, path);
  CappedRead out;
  out.bytes = it->second.bytes.substr(0, cap);
  out.truncated = it->second.bytes.size() > cap;
  return out;
}

}  // namespace hwaccel::sim
