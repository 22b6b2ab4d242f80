// The faults hwsim mutate injects (see mutate.h), in one section per kind of
// fault: tools, files, drivers, free memory.
//
// Why one file past 500 lines: the four sections share one set of helpers (the
// noise and size rules of generated output, the cap on what a fault may add to
// a snapshot) and one dispatcher at the end, apply_fault, that sends each fault
// to its section; each fault is a short function, and a newcomer reads what
// every fault does to a snapshot in one place.
#include "sim/mutate.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <optional>

#include "src/model/number_text.h"
#include "src/registry/reserve.h"
#include "src/snapshot/limits.h"
#include "src/vocabulary/path.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel::sim {

const char* const kNvidiaSmiNoDriver =
    "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure "
    "that the latest NVIDIA driver is installed and running.\n\n";

namespace {

constexpr std::size_t kDefaultGarbageBytes = 256;
constexpr std::size_t kDefaultFloodBytes = std::size_t{64} << 20;
// The most bytes a snapshot's files and tool outputs may hold once a flood or
// garbage fault is applied: half the 512 MiB of snapshot text replay reads,
// which leaves room for base64 (noise grows by a third) and YAML quoting. A
// recorded tool stream holds 16 MiB. "flood:nvidia-smi=1T" once ran into
// std::bad_alloc, and 400M took 4 GB and 17 s (one copy per nvidia-smi run).
constexpr std::size_t kMaxGeneratedBytes = std::size_t{256} << 20;

std::string join(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) out += (out.empty() ? "" : " ") + a;
  return out;
}

bool is_path(const std::string& target) {
  return !target.empty() && target.front() == '/';
}

// Deterministic noise: the same fault always gives the same bytes. Includes
// NULs, high bytes, and no newline, which the parsers must all survive.
std::string noise(std::size_t n, std::uint64_t seed) {
  std::string out(n, '\0');
  std::uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
  for (auto& c : out) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    c = static_cast<char>(x & 0xff);
  }
  return out;
}

std::optional<std::size_t> parse_count(const std::string& text) {
  if (text.empty()) return std::nullopt;
  if (auto bytes = parse_size(text)) return static_cast<std::size_t>(*bytes);
  return std::nullopt;
}

// The byte count a flood or garbage fault generates, or why it is refused.
std::optional<std::size_t> generated_count(const std::string& arg, std::size_t fallback,
                                           std::string& why) {
  auto n = arg.empty() ? std::optional<std::size_t>(fallback) : parse_count(arg);
  if (!n) {
    why = "\"" + arg + "\" is not a byte count";
    return std::nullopt;
  }
  if (*n > kMaxGeneratedBytes) {
    why = "\"" + arg + "\" is more than the " + std::to_string(kMaxGeneratedBytes >> 20) +
          " MiB a fault may generate (a snapshot holds at most " +
          std::to_string(kMaxSnapshotBytes >> 20) + " MiB)";
    return std::nullopt;
  }
  return n;
}

// The bytes of a snapshot's files and tool outputs.
std::size_t payload_bytes(const Snapshot& s) {
  std::size_t total = 0;
  for (const auto& [path, entry] : s.files) total += entry.bytes.size();
  for (const auto& [argv, tool] : s.tools) total += tool.run.out.size() + tool.run.err.size();
  return total;
}

// "" when a flood or garbage fault on `runs` tool runs or files keeps the
// snapshot under kMaxGeneratedBytes, else why not; checked before anything is
// allocated (each run gets its own copy of the bytes).
std::string check_generated(const Snapshot& s, const Fault& f, std::size_t runs) {
  if (f.kind != FaultKind::flood && f.kind != FaultKind::garbage) return "";
  std::string why;
  auto n = generated_count(
      f.arg, f.kind == FaultKind::flood ? kDefaultFloodBytes : kDefaultGarbageBytes, why);
  if (!n) return why;
  const std::size_t after = payload_bytes(s) + *n * runs;
  if (after <= kMaxGeneratedBytes) return "";
  return "\"" + (f.arg.empty() ? std::string("the default") : f.arg) + "\" on " +
         std::to_string(runs) + (runs == 1 ? " target" : " targets") +
         " would make the snapshot's files and tool outputs " + std::to_string(after >> 20) +
         " MiB, more than the " + std::to_string(kMaxGeneratedBytes >> 20) +
         " MiB a fault may generate (a snapshot holds at most " +
         std::to_string(kMaxSnapshotBytes >> 20) + " MiB)";
}

// ---- tools ------------------------------------------------------------------

std::vector<ToolEntry*> matching_tools(Snapshot& s, const std::string& target) {
  std::vector<ToolEntry*> found;
  const bool whole_argv = target.find(' ') != std::string::npos;
  for (auto& [argv, tool] : s.tools)
    if (whole_argv ? join(argv) == target : (!argv.empty() && argv.front() == target))
      found.push_back(&tool);
  return found;
}

std::optional<int> parse_signal(const std::string& text) {
  if (text.empty()) return 9;
  static const std::pair<const char*, int> kNames[] = {
      {"HUP", 1}, {"INT", 2},  {"QUIT", 3},  {"ILL", 4},   {"ABRT", 6}, {"BUS", 7},
      {"FPE", 8}, {"KILL", 9}, {"SEGV", 11}, {"PIPE", 13}, {"TERM", 15}};
  std::string name = text.rfind("SIG", 0) == 0 ? text.substr(3) : text;
  for (const auto& [n, v] : kNames)
    if (name == n) return v;
  if (name.find_first_not_of("0123456789") == std::string::npos && name.size() <= 2) {
    int v = std::stoi(name);
    if (v >= 1 && v <= 64) return v;
  }
  return std::nullopt;
}

void fail_run(ToolRun& run, ToolOutcome outcome) {
  run.outcome = outcome;
  run.exit_code = 0;
  run.signal = 0;
  run.out.clear();
  run.err.clear();
  run.truncated = false;
}

std::string apply_to_tool(ToolEntry& tool, const Fault& f, std::uint64_t seed) {
  ToolRun& run = tool.run;
  switch (f.kind) {
    case FaultKind::hang:
      fail_run(run, ToolOutcome::timeout);
      return "";
    case FaultKind::signal: {
      auto sig = parse_signal(f.arg);
      if (!sig) return "signal \"" + f.arg + "\" is not a signal (expected 1-64 or a name: KILL)";
      fail_run(run, ToolOutcome::signal);
      run.signal = *sig;
      return "";
    }
    case FaultKind::exit: {
      auto colon = f.arg.find(':');
      std::string code_text = f.arg.substr(0, colon);
      if (code_text.empty() || code_text.size() > 3 ||
          code_text.find_first_not_of("0123456789") != std::string::npos ||
          std::stoi(code_text) < 1 || std::stoi(code_text) > 255)
        return "exit status \"" + code_text + "\" is not 1-255 (expected exit:TOOL=CODE[:STDERR])";
      fail_run(run, ToolOutcome::exited);
      run.exit_code = std::stoi(code_text);
      if (colon != std::string::npos) run.err = f.arg.substr(colon + 1) + "\n";
      return "";
    }
    case FaultKind::missing:
      fail_run(run, ToolOutcome::not_found);
      return "";
    case FaultKind::denied:
      fail_run(run, ToolOutcome::permission_denied);
      return "";
    case FaultKind::empty:
      fail_run(run, ToolOutcome::exited);
      return "";
    case FaultKind::truncate: {
      auto n = f.arg.empty() ? std::optional<std::size_t>(run.out.size() / 2) : parse_count(f.arg);
      if (!n) return "\"" + f.arg + "\" is not a byte count";
      if (*n < run.out.size()) run.out.resize(*n);
      return "";
    }
    case FaultKind::garbage: {
      std::string why;
      auto n = generated_count(f.arg, kDefaultGarbageBytes, why);
      if (!n) return why;
      run.out = noise(*n, seed);
      return "";
    }
    case FaultKind::flood: {
      std::string why;
      auto n = generated_count(f.arg, kDefaultFloodBytes, why);
      if (!n) return why;
      const std::string unit = run.out.empty() ? std::string(80, 'x') + "\n" : run.out;
      std::string out;
      out.reserve(*n);
      while (out.size() < *n) out += unit;
      out.resize(*n);
      run.out = std::move(out);
      return "";
    }
    default:
      return "fault kind \"" + std::string(to_string(f.kind)) + "\" does not apply to a tool";
  }
}

// ---- files ------------------------------------------------------------------

bool is_below(const std::string& path, const std::string& dir) {
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
         (dir == "/" || path[dir.size()] == '/');
}

// Removes `path` and everything below it, and its name from the parent's listing.
bool remove_tree(Snapshot& s, const std::string& path) {
  bool removed = false;
  for (auto it = s.files.lower_bound(path); it != s.files.end();) {
    if (it->first == path || is_below(it->first, path)) {
      it = s.files.erase(it);
      removed = true;
    } else if (it->first.compare(0, path.size(), path) == 0) {
      ++it;  // "/a/bc" sorts between "/a/b" and "/a/b/..."
    } else {
      break;
    }
  }
  auto parent = s.files.find(parent_dir(path));
  if (parent != s.files.end() && parent->second.kind == FileEntry::Kind::dir) {
    auto& names = parent->second.names;
    const std::string name = path.substr(path.rfind('/') + 1);
    auto at = std::find(names.begin(), names.end(), name);
    if (at != names.end()) {
      names.erase(at);
      removed = true;
    }
  }
  return removed;
}

bool has_tree(const Snapshot& s, const std::string& path) {
  auto it = s.files.lower_bound(path);
  for (; it != s.files.end() && it->first.compare(0, path.size(), path) == 0; ++it)
    if (it->first == path || is_below(it->first, path)) return true;
  return false;
}

std::string apply_to_path(Snapshot& s, const std::string& path, const Fault& f,
                          std::uint64_t seed) {
  if (f.kind == FaultKind::gone) {
    if (!remove_tree(s, path)) return "the snapshot holds nothing at or below " + path;
    return "";
  }
  if (f.kind == FaultKind::loop) {
    remove_tree(s, path);
    s.files[path] = FileEntry::of_link(path.substr(path.rfind('/') + 1));
    return "";
  }
  auto it = s.files.find(path);
  if (f.kind == FaultKind::denied) {
    if (it == s.files.end() && !has_tree(s, path)) return "the snapshot holds no " + path;
    remove_tree(s, path);  // a folder that cannot be opened hides what is below it
    s.files[path] = FileEntry::of_error(EACCES);
    return "";
  }
  if (it == s.files.end() || it->second.kind != FileEntry::Kind::content)
    return "the snapshot holds no regular file " + path + " (" + std::string(to_string(f.kind)) +
           " changes a file's bytes)";
  std::string& bytes = it->second.bytes;
  switch (f.kind) {
    case FaultKind::empty:
      bytes.clear();
      return "";
    case FaultKind::truncate: {
      auto n = f.arg.empty() ? std::optional<std::size_t>(bytes.size() / 2) : parse_count(f.arg);
      if (!n) return "\"" + f.arg + "\" is not a byte count";
      if (*n < bytes.size()) bytes.resize(*n);
      return "";
    }
    case FaultKind::garbage: {
      std::string why;
      auto n = generated_count(f.arg, kDefaultGarbageBytes, why);
      if (!n) return why;
      bytes = noise(*n, seed);
      return "";
    }
    default:
      return "fault kind \"" + std::string(to_string(f.kind)) + "\" does not apply to a file";
  }
}

// ---- drivers ----------------------------------------------------------------

// The PCI devices bound to `driver` (their /sys/bus/pci/devices/ADDR folders).
std::vector<std::string> bound_devices(const Snapshot& s, const std::string& driver) {
  std::vector<std::string> dirs;
  const std::string prefix = "/sys/bus/pci/devices/";
  for (const auto& [path, entry] : s.files) {
    if (entry.kind != FileEntry::Kind::link || path.compare(0, prefix.size(), prefix) != 0)
      continue;
    if (path.size() < 7 || path.compare(path.size() - 7, 7, "/driver") != 0) continue;
    const auto& t = entry.target;
    if (t.size() > driver.size() &&
        t.compare(t.size() - driver.size(), driver.size(), driver) == 0 &&
        t[t.size() - driver.size() - 1] == '/')
      dirs.push_back(parent_dir(path));
  }
  return dirs;
}

// Paths directly in `dir` whose last component starts with `prefix`.
std::vector<std::string> entries_named(const Snapshot& s, const std::string& dir,
                                       const std::string& prefix) {
  std::vector<std::string> found;
  const std::string start = dir + "/" + prefix;
  for (auto it = s.files.lower_bound(start);
       it != s.files.end() && it->first.compare(0, start.size(), start) == 0; ++it) {
    auto rest = it->first.substr(dir.size() + 1);
    auto slash = rest.find('/');
    std::string child = dir + "/" + rest.substr(0, slash);
    if (found.empty() || found.back() != child) found.push_back(child);
  }
  return found;
}

// Attributes every PCI function has whatever driver is bound; the rest of a
// device folder (mem_info_*, drm/, product_name ...) is the driver's.
bool generic_pci_attribute(const std::string& name) {
  static const char* kGeneric[] = {"vendor",
                                   "device",
                                   "class",
                                   "subsystem_vendor",
                                   "subsystem_device",
                                   "numa_node",
                                   "local_cpulist",
                                   "local_cpus",
                                   "revision",
                                   "irq",
                                   "resource",
                                   "config",
                                   "uevent",
                                   "enable",
                                   "modalias",
                                   "iommu_group",
                                   "current_link_speed",
                                   "current_link_width",
                                   "max_link_speed",
                                   "max_link_width"};
  for (const char* g : kGeneric)
    if (name == g) return true;
  return false;
}

void unbind(Snapshot& s, const std::string& dev_dir) {
  std::vector<std::string> doomed;
  for (auto it = s.files.upper_bound(dev_dir); it != s.files.end() && is_below(it->first, dev_dir);
       ++it) {
    auto rest = it->first.substr(dev_dir.size() + 1);
    auto name = rest.substr(0, rest.find('/'));
    if (!generic_pci_attribute(name)) doomed.push_back(dev_dir + "/" + name);
  }
  for (const auto& p : doomed) remove_tree(s, p);
  auto uevent = s.files.find(dev_dir + "/uevent");
  if (uevent != s.files.end() && uevent->second.kind == FileEntry::Kind::content) {
    std::string kept, line;
    for (char c : uevent->second.bytes) {
      line += c;
      if (c != '\n') continue;
      if (line.rfind("DRIVER=", 0) != 0) kept += line;
      line.clear();
    }
    if (line.rfind("DRIVER=", 0) != 0) kept += line;
    uevent->second.bytes = kept;
  }
}

// DRM cards and render nodes whose device link points at one of `devices`.
std::vector<std::string> drm_nodes_of(const Snapshot& s, const std::vector<std::string>& devices) {
  std::vector<std::string> nodes;
  const std::string drm = "/sys/class/drm/";
  for (auto it = s.files.lower_bound(drm);
       it != s.files.end() && it->first.compare(0, drm.size(), drm) == 0; ++it) {
    const auto& [path, entry] = *it;
    auto rest = path.substr(drm.size());
    auto slash = rest.find('/');
    if (slash == std::string::npos || rest.substr(slash) != "/device") continue;
    if (entry.kind != FileEntry::Kind::link) continue;
    auto base = entry.target.substr(entry.target.rfind('/') + 1);
    for (const auto& d : devices)
      if (d.substr(d.rfind('/') + 1) == base) nodes.push_back(rest.substr(0, slash));
  }
  return nodes;
}

std::string unload_nvidia(Snapshot& s, std::vector<std::string>& changes) {
  bool any = false;
  for (const auto& dev : bound_devices(s, "nvidia")) {
    unbind(s, dev);
    any = true;
  }
  for (const char* p : {"/proc/driver/nvidia", "/sys/module/nvidia", "/sys/module/nvidia_uvm",
                        "/sys/module/nvidia_modeset", "/sys/module/nvidia_drm"})
    any |= remove_tree(s, p);
  for (const auto& node : entries_named(s, "/dev", "nvidia")) any |= remove_tree(s, node);
  int runs = 0;
  for (auto& [argv, tool] : s.tools) {
    if (argv.empty() || argv.front() != "nvidia-smi") continue;
    if (tool.run.outcome == ToolOutcome::not_found) continue;  // not installed: stays so
    fail_run(tool.run, ToolOutcome::exited);
    tool.run.exit_code = 9;
    tool.run.out = kNvidiaSmiNoDriver;
    ++runs;
  }
  if (!any && runs == 0) return "the snapshot shows no NVIDIA driver to unload";
  changes.push_back("unload:nvidia: " + std::to_string(runs) + " nvidia-smi runs now fail");
  return "";
}

std::string unload_amdgpu(Snapshot& s) {
  auto devices = bound_devices(s, "amdgpu");
  auto nodes = drm_nodes_of(s, devices);
  bool any = !devices.empty();
  for (const auto& dev : devices) unbind(s, dev);
  for (const auto& n : nodes) {
    remove_tree(s, "/sys/class/drm/" + n);
    remove_tree(s, "/dev/dri/" + n);
  }
  for (const char* p : {"/sys/class/kfd", "/dev/kfd", "/sys/module/amdgpu"})
    any |= remove_tree(s, p);
  if (!any) return "the snapshot shows no amdgpu driver to unload";
  return "";
}

// ---- free memory ------------------------------------------------------------

std::string set_meminfo_available(Snapshot& s, std::uint64_t bytes) {
  auto it = s.files.find("/proc/meminfo");
  if (it == s.files.end() || it->second.kind != FileEntry::Kind::content)
    return "the snapshot holds no /proc/meminfo";
  std::string out, line;
  bool found = false;
  auto flush = [&]() {
    if (line.rfind("MemAvailable:", 0) == 0) {
      // The kernel's layout: the label padded to 16 columns, the number to 8.
      std::string kb = std::to_string(bytes / 1024);
      if (kb.size() < 8) kb.insert(0, 8 - kb.size(), ' ');
      line = "MemAvailable:   " + kb + " kB" + (line.back() == '\n' ? "\n" : "");
      found = true;
    }
    out += line;
    line.clear();
  };
  for (char c : it->second.bytes) {
    line += c;
    if (c == '\n') flush();
  }
  if (!line.empty()) flush();
  if (!found) return "/proc/meminfo has no MemAvailable line";
  it->second.bytes = out;
  return "";
}

std::vector<std::string> split_csv_row(const std::string& line) {
  std::vector<std::string> cells;
  std::size_t start = 0;
  while (true) {
    auto comma = line.find(',', start);
    std::string cell = line.substr(start, comma == std::string::npos ? comma : comma - start);
    auto b = cell.find_first_not_of(' ');
    cells.push_back(b == std::string::npos ? "" : cell.substr(b));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return cells;
}

// Rewrites memory.free (and memory.used) of GPU `index` (-1: every GPU) in every
// nvidia-smi query that prints them.
std::string set_cuda_free(Snapshot& s, int index, std::uint64_t bytes) {
  const std::uint64_t mib = bytes >> 20;
  int changed = 0;
  for (auto& [argv, tool] : s.tools) {
    if (argv.empty() || argv.front() != "nvidia-smi" || !tool.run.ok()) continue;
    std::string& out = tool.run.out;
    auto nl = out.find('\n');
    if (nl == std::string::npos) continue;
    auto header = split_csv_row(out.substr(0, nl));
    int col_index = -1, col_total = -1, col_used = -1, col_free = -1;
    for (std::size_t c = 0; c < header.size(); ++c) {
      const auto& h = header[c];
      if (h == "index") col_index = int(c);
      if (h.rfind("memory.total", 0) == 0) col_total = int(c);
      if (h.rfind("memory.used", 0) == 0) col_used = int(c);
      if (h.rfind("memory.free", 0) == 0) col_free = int(c);
    }
    if (col_free < 0) continue;
    const bool units = header[col_free].find("[MiB]") != std::string::npos;
    std::string rebuilt = out.substr(0, nl + 1);
    std::size_t pos = nl + 1;
    int row = 0;
    while (pos < out.size()) {
      auto end = out.find('\n', pos);
      std::string line = out.substr(pos, end == std::string::npos ? end : end - pos);
      pos = end == std::string::npos ? out.size() : end + 1;
      auto cells = split_csv_row(line);
      // The index as the snapshot prints it; -1 (no GPU) when it is not a small
      // whole number (atoi overflowed on a 20-digit index).
      int gpu = row;
      if (col_index >= 0 && col_index < int(cells.size())) {
        auto n = parse_integer_in(trim(cells[col_index]), 0, 1 << 20);
        gpu = n ? int(*n) : -1;
      }
      ++row;
      if (cells.size() == header.size() && (index < 0 || gpu == index) &&
          cells[col_free].find("N/A") == std::string::npos) {
        std::uint64_t total =
            col_total >= 0 ? std::strtoull(cells[col_total].c_str(), nullptr, 10) : mib;
        std::uint64_t free_mib = std::min(mib, total);
        cells[col_free] = std::to_string(free_mib) + (units ? " MiB" : "");
        if (col_used >= 0) {
          std::uint64_t used = std::strtoull(cells[col_used].c_str(), nullptr, 10);
          std::uint64_t was_free =
              std::strtoull(split_csv_row(line)[col_free].c_str(), nullptr, 10);
          used += was_free > free_mib ? was_free - free_mib : 0;
          cells[col_used] = std::to_string(std::min(used, total)) + (units ? " MiB" : "");
        }
        line.clear();
        for (std::size_t c = 0; c < cells.size(); ++c) line += (c ? ", " : "") + cells[c];
        ++changed;
      }
      rebuilt += line + (end == std::string::npos ? "" : "\n");
    }
    out = rebuilt;
  }
  if (changed == 0)
    return index < 0 ? "no nvidia-smi query in the snapshot reports memory.free"
                     : "no nvidia-smi query row for GPU " + std::to_string(index) +
                           " reports memory.free";
  return "";
}

// AMD: free = vram_total - vram_used, so raise mem_info_vram_used.
std::string set_rocm_free(Snapshot& s, int index, std::uint64_t bytes) {
  std::vector<std::string> totals;
  for (const auto& [path, entry] : s.files)
    if (path.size() > 20 && path.compare(path.size() - 20, 20, "/mem_info_vram_total") == 0 &&
        entry.kind == FileEntry::Kind::content)
      totals.push_back(path);
  if (index >= int(totals.size()))
    return "the snapshot has " + std::to_string(totals.size()) + " AMD GPUs with VRAM, no " +
           std::to_string(index);
  if (totals.empty()) return "the snapshot has no AMD GPU with mem_info_vram_total";
  for (int i = 0; i < int(totals.size()); ++i) {
    if (index >= 0 && i != index) continue;
    std::uint64_t total = std::strtoull(s.files[totals[i]].bytes.c_str(), nullptr, 10);
    std::string used_path = parent_dir(totals[i]) + "/mem_info_vram_used";
    std::uint64_t used = total - std::min(bytes, total);
    s.files[used_path] = FileEntry::of_content(std::to_string(used) + "\n");
  }
  return "";
}

std::string apply_free(Snapshot& s, const Fault& f) {
  auto bytes = parse_size(f.arg);
  if (!bytes) return "\"" + f.arg + "\" is not a size (expected e.g. 512M, 2GiB, 1073741824)";
  std::string family = f.target.substr(0, f.target.find(':'));
  int index = -1;
  if (auto colon = f.target.find(':'); colon != std::string::npos) {
    auto n = f.target.substr(colon + 1);
    if (n.empty() || n.size() > 4 || n.find_first_not_of("0123456789") != std::string::npos)
      return "\"" + n + "\" is not a device index";
    index = std::stoi(n);
  }
  if (family == "host" && index < 0) return set_meminfo_available(s, *bytes);
  if (family == "cuda") return set_cuda_free(s, index, *bytes);
  if (family == "rocm") return set_rocm_free(s, index, *bytes);
  return "free: unknown target \"" + f.target + "\" (expected host, cuda[:N] or rocm[:N])";
}

}  // namespace

MutateResult apply_fault(Snapshot& s, const Fault& f) {
  MutateResult result;
  const std::uint64_t seed = std::hash<std::string>{}(f.text);
  std::string error;
  if (f.kind == FaultKind::unload) {
    if (f.target == "nvidia")
      error = unload_nvidia(s, result.changes);
    else if (f.target == "amdgpu")
      error = unload_amdgpu(s);
    else
      error = "unknown driver \"" + f.target + "\" (expected nvidia or amdgpu)";
  } else if (f.kind == FaultKind::free) {
    error = apply_free(s, f);
  } else if (is_path(f.target)) {
    auto normal = normalize_absolute(f.target);
    if (!normal || has_dotdot(f.target))
      error = "\"" + f.target + "\" is not a normalised absolute path";
    else if (error = check_generated(s, f, 1); error.empty())
      error = apply_to_path(s, *normal, f, seed);
  } else if (f.kind == FaultKind::gone || f.kind == FaultKind::loop) {
    error = "fault kind \"" + std::string(to_string(f.kind)) +
            "\" needs an absolute path (missing:TOOL takes a tool off PATH)";
  } else {
    auto tools = matching_tools(s, f.target);
    if (tools.empty()) error = "the snapshot holds no run of \"" + f.target + "\"";
    if (error.empty()) error = check_generated(s, f, tools.size());
    for (auto* tool : tools) {
      if (!error.empty()) break;
      error = apply_to_tool(*tool, f, seed);
      if (!error.empty()) break;
      tool->has_ms = tool->has_ms || f.kind == FaultKind::hang;
      if (f.kind == FaultKind::hang) tool->run.ms = 5000;
    }
    if (error.empty())
      result.changes.push_back(f.text + ": " + std::to_string(tools.size()) + " tool runs");
  }
  if (!error.empty()) result.errors.push_back("--fault " + f.text + ": " + error);
  return result;
}

MutateResult apply_faults(Snapshot& s, const std::vector<Fault>& faults) {
  MutateResult all;
  for (const auto& f : faults) {
    auto r = apply_fault(s, f);
    all.errors.insert(all.errors.end(), r.errors.begin(), r.errors.end());
    all.changes.insert(all.changes.end(), r.changes.begin(), r.changes.end());
  }
  return all;
}

}  // namespace hwaccel::sim
