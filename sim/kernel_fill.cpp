#include "sim/kernel_fill.h"

#include "sim/kernel_fill_parts.h"

#include <algorithm>

namespace hwaccel::sim {

FilledPaths fill_implied(Snapshot& snapshot) {
  FilledPaths filled;
  // A Mac's files are not a Linux kernel's: nothing to fill.
  if (!snapshot.facts.os.empty() && snapshot.facts.os != "linux") return filled;
  Filler f(snapshot, filled);
  fill_proc_identity(f);
  // Once for both: what it reads (/proc/cpuinfo, /proc/meminfo, numa_node files in
  // /sys) the CPU and kfd fills never add (the CPU fill's 12,000 files made a second
  // scan of /sys cost a DGX 3 ms).
  const CpuModel model = cpu_model(f);
  fill_cpu_topology(f, model);
  fill_kfd(f);
  fill_pci(f, model);
  fill_dmi(f);
  return filled;
}

Snapshot with_implied(const Snapshot& snapshot, FilledPaths* filled) {
  Snapshot copy = snapshot;
  FilledPaths made = fill_implied(copy);
  if (filled) *filled = std::move(made);
  return copy;
}

Snapshot with_implied_proc(const Snapshot& snapshot) {
  Snapshot copy = snapshot;
  if (!copy.facts.os.empty() && copy.facts.os != "linux") return copy;
  FilledPaths filled;
  Filler f(copy, filled);
  fill_proc_identity(f);
  return copy;
}

void Filler::file(const std::string& path, std::string bytes, const std::string& from) {
  // One ordered look-up of the path: where it is, or where it goes.
  const auto at = s.files.lower_bound(path);
  if ((at != s.files.end() && at->first == path) || recorded_above(path)) return;
  if (memo_.valid && memo_.dir.starts_with(path) &&
      (memo_.dir.size() == path.size() || memo_.dir[path.size()] == '/'))
    memo_.valid = false;  // a file at the remembered folder or above it
  s.files.emplace_hint(at, path, FileEntry::of_content(std::move(bytes)));
  filled[path] = from;
}

void Filler::link(const std::string& path, std::string target, const std::string& from) {
  if (recorded(path)) return;
  if (memo_.valid && memo_.dir.starts_with(path) &&
      (memo_.dir.size() == path.size() || memo_.dir[path.size()] == '/'))
    memo_.valid = false;
  s.files.emplace(path, FileEntry::of_link(std::move(target)));
  filled[path] = from;
}

// A recorded link or file above `path` decides what is there (the fill never goes
// through one), and so does a recorded listing that does not name the next part.
bool Filler::blocked_above(std::string_view path) const {
  for (auto slash = path.rfind('/'); slash != std::string::npos && slash > 0;
       slash = path.rfind('/', slash - 1)) {
    auto it = s.files.find(std::string(path.substr(0, slash)));
    if (it == s.files.end()) continue;
    if (it->second.kind != FileEntry::Kind::dir) return true;
    auto next = path.substr(slash + 1, path.find('/', slash + 1) - slash - 1);
    const auto& names = it->second.names;
    if (!std::binary_search(names.begin(), names.end(), next)) return true;
  }
  return false;
}

bool Filler::recorded(const std::string& path) const {
  return s.files.count(path) || recorded_above(path);
}

bool Filler::recorded_above(const std::string& path) const {
  const auto slash = path.rfind('/');
  if (!remember_ || slash == std::string::npos || slash == 0) return blocked_above(path);
  const std::string_view dir = std::string_view(path).substr(0, slash);
  if (!memo_.valid || memo_.dir != dir) {
    memo_.dir.assign(dir);
    auto it = s.files.find(memo_.dir);
    memo_.entry = it == s.files.end() ? nullptr : &it->second;
    memo_.above = blocked_above(dir);
    memo_.valid = true;
  }
  if (memo_.above) return true;
  if (!memo_.entry) return false;
  if (memo_.entry->kind != FileEntry::Kind::dir) return true;
  const std::string_view name = std::string_view(path).substr(slash + 1);
  const auto& names = memo_.entry->names;
  return !std::binary_search(names.begin(), names.end(), name);
}

std::optional<std::string> Filler::read(const std::string& path) const {
  auto it = s.files.find(path);
  if (it == s.files.end() || it->second.kind != FileEntry::Kind::content) return std::nullopt;
  return it->second.bytes;
}

// The kernel's identity where programs read it as files (uname(2) itself cannot
// be changed by a namespace), and PID 1's cgroup: a host's init in the root of
// cgroup v2, no container's.
void fill_proc_identity(Filler& f) {
  const std::string& k = f.s.facts.kernel;
  if (!k.empty()) {
    f.file("/proc/sys/kernel/osrelease", k + "\n", "facts.kernel");
    // The kernel's format: "Linux version RELEASE (BUILDER) (COMPILER) VERSION";
    // a snapshot holds only the release.
    f.file("/proc/version",
           "Linux version " + k + " (hwsim@simulated) (compiler not recorded) #1 SMP\n",
           "facts.kernel (builder, compiler and build not recorded)");
    f.file("/proc/sys/kernel/ostype", "Linux\n", "facts.os");
  }
  // lspci falls back to procfs where /sys has no PCI bus: this machine's would show.
  if (!f.recorded("/proc/bus/pci")) {
    f.s.files.emplace("/proc/bus/pci", FileEntry::of_absent());
    f.filled["/proc/bus/pci"] = "absent: the host's PCI devices are the ones in /sys";
  }
  f.file("/proc/1/cgroup", "0::/\n", "no container recorded: PID 1 in cgroup v2's root");
}

}  // namespace hwaccel::sim
