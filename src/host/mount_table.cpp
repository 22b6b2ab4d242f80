#include "src/host/mount_table.h"

#include <algorithm>

namespace hwaccel {
namespace {

// mountinfo escapes space, tab, newline and backslash as \ooo.
std::string unescape(std::string_view s) {
  auto octal = [](char c) { return c >= '0' && c <= '7'; };
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size() && octal(s[i + 1]) && octal(s[i + 2]) && octal(s[i + 3])) {
      out += static_cast<char>((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
      i += 3;
      continue;
    }
    out += s[i];
  }
  return out;
}

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t at = 0;
  while (at < line.size()) {
    while (at < line.size() && line[at] == ' ') ++at;
    std::size_t end = line.find(' ', at);
    if (end == std::string_view::npos) end = line.size();
    if (end > at) out.push_back(line.substr(at, end - at));
    at = end;
  }
  return out;
}

bool under(const std::string& path, const std::string& dir) {
  return path == dir || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
                         path[dir.size()] == '/');
}

bool has_option(const std::string& options, const std::string& name) {
  std::size_t at = 0;
  while (at <= options.size()) {
    std::size_t comma = options.find(',', at);
    if (comma == std::string::npos) comma = options.size();
    if (options.compare(at, comma - at, name) == 0 && comma - at == name.size()) return true;
    at = comma + 1;
  }
  return false;
}

}  // namespace

std::vector<MountLine> mount_lines(std::string_view text) {
  std::vector<MountLine> out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    auto w = words(text.substr(at, end - at));
    at = end + 1;
    // ID PARENT MAJ:MIN ROOT POINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER
    auto dash = std::find(w.begin(), w.end(), std::string_view("-"));
    if (w.size() < 6 || dash == w.end() || dash - w.begin() < 6 || w.end() - dash < 3) continue;
    MountLine m;
    m.root = unescape(w[3]);
    m.mount_point = unescape(w[4]);
    m.options = std::string(w[5]);
    m.fstype = unescape(dash[1]);
    m.source = unescape(dash[2]);
    out.push_back(std::move(m));
  }
  return out;
}

std::vector<std::string> foreign_mounts(const std::vector<MountLine>& lines,
                                        bool (*is_dir)(const std::string&)) {
  std::vector<std::string> out;
  for (const auto& m : lines) {
    const std::string& p = m.mount_point;
    if (p.empty() || p[0] != '/' || p == "/" || under(p, "/proc") || under(p, "/sys") ||
        under(p, "/dev"))
      continue;
    const bool memory = m.fstype == "tmpfs" || m.fstype == "ramfs";
    if ((!under(p, "/etc") && !is_dir(p)) || (memory && has_option(m.options, "ro")))
      out.push_back(p);
  }
  std::sort(out.begin(), out.end(), [](const std::string& a, const std::string& b) {
    return std::count(a.begin(), a.end(), '/') > std::count(b.begin(), b.end(), '/') ||
           (std::count(a.begin(), a.end(), '/') == std::count(b.begin(), b.end(), '/') && a < b);
  });
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace hwaccel
