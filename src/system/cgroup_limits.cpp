#include "src/system/cgroup_limits.h"

#include <algorithm>

#include "src/host/tree_facts.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

constexpr std::size_t kMaxLines = 10'000;  // a mount table of a busy host has hundreds
constexpr int kMaxDepth = 64;              // cgroup folders between the process and the root

std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> words;
  std::size_t at = 0;
  while (at < text.size()) {
    while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
    std::size_t end = at;
    while (end < text.size() && text[end] != ' ' && text[end] != '\t') ++end;
    if (end > at) words.emplace_back(text.substr(at, end - at));
    at = end;
  }
  return words;
}

// The kernel writes space, tab, newline and backslash in mount paths as \ooo.
std::string unescape_octal(std::string_view s) {
  auto oct = [](char c) { return c >= '0' && c <= '7'; };
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && s.size() - i > 3 && oct(s[i + 1]) && oct(s[i + 2]) && oct(s[i + 3]) &&
        s[i + 1] <= '3') {
      out += static_cast<char>((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
      i += 3;
      continue;
    }
    out += s[i];
  }
  return out;
}

std::vector<std::string> split_options(std::string_view text) {
  std::vector<std::string> out;
  for (auto piece : split(text, ','))
    if (!piece.empty()) out.emplace_back(piece);
  return out;
}

bool has(const std::vector<std::string>& list, std::string_view word) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

bool under(std::string_view path, std::string_view prefix) {
  if (prefix == "/") return !path.empty() && path.front() == '/';
  return path.substr(0, prefix.size()) == prefix &&
         (path.size() == prefix.size() || path[prefix.size()] == '/');
}

// The folder of the mount that holds cgroup `path`: mount point + the part of
// the path below the mount's root. "" when the path lies outside the mount
// (a cgroup namespace's "/.." paths).
std::string folder_of(const MountEntry& mount, const std::string& path) {
  if (!under(path, mount.root)) return "";
  std::string rest = mount.root == "/" ? path : path.substr(mount.root.size());
  if (rest == "/") rest.clear();
  std::string dir = mount.mount_point == "/" ? rest : mount.mount_point + rest;
  return dir.empty() ? "/" : dir;
}

struct Located {
  std::string dir;       // the process's cgroup folder
  std::string stop;      // the mount point: walks up end there
  bool prefixed = true;  // v1 files carry the "cpuset." prefix (not with noprefix)
  int version = 0;
};

// The mounted folder of a v1 hierarchy that has `controller` (or the old
// cpuset filesystem), for the process's path in it.
std::optional<Located> locate_v1(const std::vector<MountEntry>& mounts,
                                 const std::vector<CgroupMembership>& groups,
                                 const std::string& controller,
                                 const std::optional<std::string>& legacy_path) {
  std::optional<std::string> path;
  for (const auto& g : groups)
    if (has(g.controllers, controller)) path = g.path;
  if (!path) path = legacy_path;
  if (!path) return std::nullopt;
  for (const auto& m : mounts) {
    bool fits = (m.fstype == "cgroup" && has(m.options, controller)) ||
                (controller == "cpuset" && m.fstype == "cpuset");
    if (!fits) continue;
    std::string dir = folder_of(m, *path);
    if (dir.empty()) continue;
    return Located{dir, m.mount_point, m.fstype == "cgroup" && !has(m.options, "noprefix"), 1};
  }
  return std::nullopt;
}

// The process's folder in the unified (v2) hierarchy: its "0::" line of
// /proc/self/cgroup. Without that file (an old gather, hwloc's trees) the
// path of /proc/self/cpuset stands in: on a v2 host the kernel writes there
// the process's cgroup in the unified hierarchy (the nearest one with the
// cpuset controller, whose effective CPUs are the process's own).
std::optional<Located> locate_v2(const std::vector<MountEntry>& mounts,
                                 const std::vector<CgroupMembership>& groups,
                                 const std::optional<std::string>& legacy_path) {
  std::vector<std::string> paths;
  for (const auto& g : groups)
    if (g.hierarchy == "0" && g.controllers.empty()) paths.push_back(g.path);
  if (groups.empty() && legacy_path) paths.push_back(*legacy_path);
  for (const auto& path : paths)
    for (const auto& m : mounts)
      if (m.fstype == "cgroup2")
        if (std::string dir = folder_of(m, path); !dir.empty())
          return Located{dir, m.mount_point, true, 2};
  return std::nullopt;
}

// /proc/self/cpuset: the cpuset's path, from before cgroups (and beside them).
std::optional<std::string> read_legacy_cpuset(Host& host) {
  auto text = host.read("/proc/self/cpuset");
  if (!text.ok()) return std::nullopt;
  std::string path(trim(*text));
  if (path.empty() || path.front() != '/') return std::nullopt;
  return path;
}

std::string parent_of(const std::string& dir) {
  auto slash = dir.rfind('/');
  return slash == 0 || slash == std::string::npos ? "/" : dir.substr(0, slash);
}

// The first of `names` readable in `dir`, walking up to the mount point (a v2
// cgroup without the cpuset controller has the nearest ancestor's CPUs).
std::optional<std::pair<std::string, std::string>> first_up(Host& host, const Located& at,
                                                            const std::vector<std::string>& names) {
  std::string dir = at.dir;
  for (int depth = 0; depth < kMaxDepth; ++depth) {
    for (const auto& name : names) {
      std::string file = dir == "/" ? "/" + name : dir + "/" + name;
      if (auto text = host.read(file); text.ok()) return std::make_pair(file, *text);
    }
    if (dir == at.stop || dir == "/" || !under(dir, at.stop)) break;
    dir = parent_of(dir);
  }
  return std::nullopt;
}

void read_cpuset(Host& host, const Located& at, CgroupLimits& out) {
  std::vector<std::string> cpus_names, mems_names;
  if (at.version == 2) {
    cpus_names = {"cpuset.cpus.effective"};
    mems_names = {"cpuset.mems.effective"};
  } else if (at.prefixed) {
    cpus_names = {"cpuset.effective_cpus", "cpuset.cpus"};
    mems_names = {"cpuset.effective_mems", "cpuset.mems"};
  } else {
    cpus_names = {"effective_cpus", "cpus"};
    mems_names = {"effective_mems", "mems"};
  }
  if (auto found = first_up(host, at, cpus_names)) {
    if (auto list = parse_cpu_list(found->second)) {
      out.cpus = *list;
      out.cpus_file = found->first;
    } else {
      out.notes.push_back(found->first + ": expected a CPU list such as 0-3,8, got \"" +
                          printable_line(found->second, 40) + "\"");
    }
  }
  if (auto found = first_up(host, at, mems_names)) {
    if (auto list = parse_cpu_list(found->second)) {
      out.mems = *list;
      out.mems_file = found->first;
    } else {
      out.notes.push_back(found->first + ": expected a node list such as 0-1, got \"" +
                          printable_line(found->second, 40) + "\"");
    }
  }
}

// The smallest limit from the process's cgroup up to the mount point: a parent's
// limit (a Slurm job's, above its steps) binds its children too.
void read_memory(Host& host, const Located& at, CgroupLimits& out) {
  const std::string name = at.version == 2 ? "memory.max" : "memory.limit_in_bytes";
  std::string dir = at.dir;
  for (int depth = 0; depth < kMaxDepth; ++depth) {
    std::string file = dir == "/" ? "/" + name : dir + "/" + name;
    if (auto text = host.read(file); text.ok()) {
      auto limit = parse_cgroup_memory_limit(*text);
      std::string_view value = trim(*text);
      if (!limit && value != "max" && !parse_u64(value))
        out.notes.push_back(file + ": expected a byte count or \"max\", got \"" +
                            printable_line(*text, 40) + "\"");
      if (limit && (!out.memory_limit || *limit < *out.memory_limit)) {
        out.memory_limit = limit;
        out.memory_file = file;
      }
    }
    if (dir == at.stop || dir == "/" || !under(dir, at.stop)) break;
    dir = parent_of(dir);
  }
}

std::string file_in(const std::string& dir, const std::string& name) {
  return dir == "/" ? "/" + name : dir + "/" + name;
}

// The tightest quota from the process's cgroup up to the mount point: a
// parent's (a pod's, above its containers) binds its children too.
void read_cpu_quota(Host& host, const Located& at, CgroupLimits& out) {
  std::string dir = at.dir;
  for (int depth = 0; depth < kMaxDepth; ++depth) {
    std::optional<CpuQuota> quota;
    std::string file;
    if (at.version == 2) {
      file = file_in(dir, "cpu.max");
      if (auto text = host.read(file); text.ok()) {
        quota = parse_cpu_max(*text);
        if (!quota && trim(*text).substr(0, 4) != "max")
          out.notes.push_back(file + ": expected \"QUOTA PERIOD\" or \"max PERIOD\", got \"" +
                              printable_line(*text, 40) + "\"");
      }
    } else {
      file = file_in(dir, "cpu.cfs_quota_us");
      auto q = host.read(file);
      auto p = host.read(file_in(dir, "cpu.cfs_period_us"));
      // -1 is v1's "no quota"
      if (q.ok() && p.ok() && trim(*q) != "-1")
        quota = parse_cpu_max(std::string(trim(*q)) + " " + std::string(trim(*p)));
    }
    if (quota && (!out.cpu_quota || quota->cpus() < out.cpu_quota->cpus())) {
      out.cpu_quota = quota;
      out.cpu_quota_file = file;
    }
    if (dir == at.stop || dir == "/" || !under(dir, at.stop)) break;
    dir = parent_of(dir);
  }
}

std::vector<MountEntry> read_mounts(Host& host) {
  if (auto text = host.read("/proc/self/mountinfo"); text.ok()) return parse_mountinfo(*text);
  if (auto old = host.read("/proc/mounts"); old.ok()) return parse_proc_mounts(*old);
  return {};
}

std::vector<CgroupMembership> read_groups(Host& host) {
  if (auto text = host.read("/proc/self/cgroup"); text.ok()) return parse_proc_self_cgroup(*text);
  return {};
}

}  // namespace

std::vector<CgroupMembership> parse_proc_self_cgroup(std::string_view text) {
  std::vector<CgroupMembership> out;
  for (auto line : split_lines(text)) {
    if (out.size() >= kMaxLines) break;
    auto first = line.find(':');
    if (first == std::string_view::npos) continue;
    auto second = line.find(':', first + 1);
    if (second == std::string_view::npos) continue;
    CgroupMembership m;
    m.hierarchy = std::string(line.substr(0, first));
    for (auto c : split(line.substr(first + 1, second - first - 1), ','))
      if (!c.empty()) m.controllers.emplace_back(c.substr(0, c.find('=')));  // "name=systemd"
    m.path = std::string(line.substr(second + 1));
    if (m.path.empty() || m.path.front() != '/' || m.hierarchy.empty()) continue;
    out.push_back(std::move(m));
  }
  return out;
}

std::vector<MountEntry> parse_mountinfo(std::string_view text) {
  std::vector<MountEntry> out;
  for (auto line : split_lines(text)) {
    if (out.size() >= kMaxLines) break;
    auto words = split_words(line);
    auto dash = std::find(words.begin(), words.end(), "-");
    // id parent maj:min root mount-point options [optional...] - fstype source super-options
    // After "-": fstype, source, super-options; a source that is empty ("") splits
    // to nothing, so the super-options are read only where they are there.
    if (dash == words.end() || dash - words.begin() < 6 || words.end() - dash < 2) continue;
    MountEntry m;
    m.root = unescape_octal(words[3]);
    m.mount_point = unescape_octal(words[4]);
    m.fstype = *(dash + 1);
    m.options = split_options(words[5]);
    if (words.end() - dash >= 4)
      for (auto& o : split_options(*(dash + 3))) m.options.push_back(std::move(o));
    if (m.root.empty() || m.root.front() != '/' || m.mount_point.empty() ||
        m.mount_point.front() != '/')
      continue;
    out.push_back(std::move(m));
  }
  return out;
}

std::vector<MountEntry> parse_proc_mounts(std::string_view text) {
  std::vector<MountEntry> out;
  for (auto line : split_lines(text)) {
    if (out.size() >= kMaxLines) break;
    auto words = split_words(line);
    if (words.size() < 4) continue;
    MountEntry m;
    m.root = "/";
    m.mount_point = unescape_octal(words[1]);
    m.fstype = words[2];
    m.options = split_options(words[3]);
    if (m.mount_point.empty() || m.mount_point.front() != '/') continue;
    out.push_back(std::move(m));
  }
  return out;
}

int CpuQuota::whole_cpus() const {
  return int(std::max<std::uint64_t>(1, (quota_us + period_us - 1) / period_us));
}

std::optional<CpuQuota> parse_cpu_max(std::string_view text) {
  auto words = split_words(trim(text));
  if (words.empty() || words.size() > 2) return std::nullopt;
  auto quota = parse_u64(words[0]);
  auto period = words.size() == 2 ? parse_u64(words[1]) : std::optional<std::uint64_t>(100000);
  // The kernel bounds the period to 1 ms-1 s and the quota to at least 1 ms.
  constexpr std::uint64_t kMaxQuota = std::uint64_t{1} << 40;
  if (!quota || !period || *quota == 0 || *period == 0 || *quota > kMaxQuota || *period > 1'000'000)
    return std::nullopt;
  return CpuQuota{*quota, *period};
}

std::optional<std::uint64_t> parse_cgroup_memory_limit(std::string_view text) {
  auto v = parse_u64(trim(text));
  // v1 writes "no limit" as the largest page-aligned signed value (9223372036854771712).
  if (!v || *v >= (std::uint64_t{1} << 62)) return std::nullopt;
  return v;
}

CgroupLimits read_cgroup_limits(Host& host) {
  CgroupLimits out;
  // Under `hwsim run` this process is inside a simulated host whose /proc/self
  // is never covered: its cgroup is the real machine's, not the simulated one's.
  if (host.env("HWSIM_ROOT")) return out;
  const std::vector<MountEntry> mounts = read_mounts(host);
  if (mounts.empty()) return out;

  const std::vector<CgroupMembership> groups = read_groups(host);
  const std::optional<std::string> legacy = read_legacy_cpuset(host);

  auto v2 = locate_v2(mounts, groups, legacy);
  auto cpuset = locate_v1(mounts, groups, "cpuset", legacy);
  auto memory = locate_v1(mounts, groups, "memory", std::nullopt);
  auto cpu = locate_v1(mounts, groups, "cpu", std::nullopt);
  if (!cpuset) cpuset = v2;
  if (!memory) memory = v2;
  if (!cpu) cpu = v2;
  if (cpuset) read_cpuset(host, *cpuset, out);
  if (memory) read_memory(host, *memory, out);
  if (cpu) read_cpu_quota(host, *cpu, out);
  const auto& main = cpuset && (out.cpus || out.mems) ? cpuset : memory ? memory : cpuset;
  if (main) {
    out.version = main->version;
    for (const auto& g : groups)
      if ((main->version == 2 && g.hierarchy == "0") ||
          (main->version == 1 && (has(g.controllers, "cpuset") || has(g.controllers, "memory"))))
        out.path = g.path;
    if (out.path.empty() && legacy) out.path = *legacy;
  }
  return out;
}

CgroupFolder locate_cgroup_folder(Host& host, const std::string& controller) {
  CgroupFolder out;
  if (host.env("HWSIM_ROOT")) return out;  // as read_cgroup_limits: the real machine's
  const std::vector<MountEntry> mounts = read_mounts(host);
  if (mounts.empty()) return out;
  const std::vector<CgroupMembership> groups = read_groups(host);
  const std::optional<std::string> legacy = read_legacy_cpuset(host);
  auto at = locate_v1(mounts, groups, controller, std::nullopt);
  if (!at) at = locate_v2(mounts, groups, legacy);
  if (!at) return out;
  out.version = at->version;
  out.dir = at->dir;
  for (const auto& g : groups)
    if ((at->version == 2 && g.hierarchy == "0") ||
        (at->version == 1 && has(g.controllers, controller)))
      out.path = g.path;
  if (out.path.empty() && at->version == 2 && groups.empty() && legacy) out.path = *legacy;
  return out;
}

}  // namespace hwaccel
