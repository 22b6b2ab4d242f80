// Faults for the fault matrix: what one backend reads on a snapshot host is
// found by running that backend alone, and each fault rewrites exactly those
// answers (or, for a file that changes between reads, wraps the host).
#pragma once

#include <cerrno>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "src/host/snapshot_host.h"
#include "src/registry/detection.h"

namespace hwaccel {

enum class FaultKind {
  tool_missing,
  tool_hangs,
  tool_killed,
  tool_error_exit,
  empty_output,
  truncated_output,
  binary_garbage,
  huge_output,
  unknown_column,
  files_missing,
  files_eacces,
  symlink_loop,
  file_changes_between_reads,
};

inline std::vector<FaultKind> all_fault_kinds() {
  return {FaultKind::tool_missing,
          FaultKind::tool_hangs,
          FaultKind::tool_killed,
          FaultKind::tool_error_exit,
          FaultKind::empty_output,
          FaultKind::truncated_output,
          FaultKind::binary_garbage,
          FaultKind::huge_output,
          FaultKind::unknown_column,
          FaultKind::files_missing,
          FaultKind::files_eacces,
          FaultKind::symlink_loop,
          FaultKind::file_changes_between_reads};
}

inline std::string fault_name(FaultKind kind) {
  switch (kind) {
    case FaultKind::tool_missing:
      return "tool missing";
    case FaultKind::tool_hangs:
      return "tool hangs (timeout)";
    case FaultKind::tool_killed:
      return "tool killed by SIGKILL";
    case FaultKind::tool_error_exit:
      return "tool exits 1 with its real error text";
    case FaultKind::empty_output:
      return "empty output";
    case FaultKind::truncated_output:
      return "output cut in the middle";
    case FaultKind::binary_garbage:
      return "binary garbage";
    case FaultKind::huge_output:
      return "64 MiB of output (kept: 16 MiB, truncated)";
    case FaultKind::unknown_column:
      return "header with an unknown column";
    case FaultKind::files_missing:
      return "its files missing";
    case FaultKind::files_eacces:
      return "its files EACCES";
    case FaultKind::symlink_loop:
      return "symlink loops in its sysfs";
    case FaultKind::file_changes_between_reads:
      return "a file changes between two reads";
  }
  return "?";
}

// What one backend read: files with content, folders listed, tools run.
struct Touched {
  std::set<std::string> files;
  std::set<std::string> dirs;
  std::set<std::vector<std::string>> tools;
};

// Passes everything through to `inner`, noting what was asked.
class TouchLog : public Host {
 public:
  explicit TouchLog(Host& inner) : inner_(inner) {}
  Result<std::string> read(std::string_view path) override {
    auto r = inner_.read(path);
    std::lock_guard lock(mutex_);
    if (r) touched.files.insert(std::string(path));
    return r;
  }
  Result<std::vector<std::string>> list(std::string_view dir) override {
    auto r = inner_.list(dir);
    std::lock_guard lock(mutex_);
    if (r) touched.dirs.insert(std::string(dir));
    return r;
  }
  Result<std::string> readlink(std::string_view path) override { return inner_.readlink(path); }
  Result<FileKind> stat(std::string_view path) override { return inner_.stat(path); }
  ToolRun run(const std::vector<std::string>& argv, Timeout timeout) override {
    {
      std::lock_guard lock(mutex_);
      touched.tools.insert(argv);
    }
    return inner_.run(argv, timeout);
  }
  std::optional<std::string> env(std::string_view name) override { return inner_.env(name); }
  const Facts& facts() override { return inner_.facts(); }
  std::string now() override { return inner_.now(); }
  bool knows(std::string_view path) override { return inner_.knows(path); }

  Touched touched;

 private:
  Host& inner_;
  std::mutex mutex_;
};

// What `backend` reads and no other backend does, on this snapshot.
inline Touched touched_by_only(const Snapshot& snapshot, const std::string& backend) {
  // Each probe on its own, without detect(): the system scan reads the cpu
  // probe's files too (it counts CPUs and memory), and a file every run reads
  // would otherwise be no backend's.
  std::map<std::string, Touched> by_backend;
  for (const auto& probe : all_probes()) {
    SnapshotHost host(snapshot);
    TouchLog log(host);
    (void)probe->run(log);
    by_backend[probe->name()] = log.touched;
  }
  Touched mine = by_backend[backend];
  for (const auto& [name, t] : by_backend) {
    if (name == backend) continue;
    for (const auto& f : t.files) mine.files.erase(f);
    for (const auto& d : t.dirs) mine.dirs.erase(d);
    for (const auto& a : t.tools) mine.tools.erase(a);
  }
  return mine;
}

// The error a tool really prints when its driver is gone (from the vendors'
// tools and their issue trackers); a generic line for the others.
inline std::string real_error_text(const std::string& tool) {
  if (tool == "nvidia-smi")
    return "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. "
           "Make sure that the latest NVIDIA driver is installed and running.\n\n";
  if (tool == "vulkaninfo")
    return "ERROR: [Loader Message] Code 0 : vkCreateInstance: Found no drivers!\n"
           "Cannot create Vulkan instance.\n"
           "ERROR at ./vulkaninfo/vulkaninfo.h:573:vkCreateInstance failed with "
           "ERROR_INCOMPATIBLE_DRIVER\n";
  if (tool == "neuron-ls") return "failed to discover Neuron devices\n";
  return tool + ": error: device communication failed\n";
}

inline std::string garbage(std::size_t size) {
  std::string out(size, '\0');
  std::uint32_t x = 2463534242u;
  for (auto& c : out) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    c = char(x & 0xff);
  }
  return out;
}

// A newer tool version with one more column: CSV gets it on every line (the
// header names it, rows carry a value), a table gets it on its header.
inline std::string with_unknown_column(const std::string& out) {
  // JSON (neuron-ls, system_profiler): a key this build does not know.
  auto brace = out.find('{');
  if (brace != std::string::npos && out.find_first_not_of(" \t\r\n[") == brace)
    return out.substr(0, brace + 1) + "\"future_field\": {\"n\": 1}, " + out.substr(brace + 1);
  auto eol = out.find('\n');
  if (eol == std::string::npos) return out;
  if (out.substr(0, eol).find(',') == std::string::npos)
    return out.substr(0, eol) + "  FUTURE_FIELD" + out.substr(eol);
  std::string result;
  std::size_t start = 0;
  bool header = true;
  while (start < out.size()) {
    auto end = out.find('\n', start);
    std::string line = out.substr(start, end == std::string::npos ? end : end - start);
    if (!line.empty()) line += header ? ", future.field [unit]" : ", [N/A]";
    header = false;
    result += line;
    if (end == std::string::npos) break;
    result += '\n';
    start = end + 1;
  }
  return result;
}

// A file whose every second read answers with its digits changed, as a
// counter or a free-memory figure does between two reads.
class FlappingHost : public SnapshotHost {
 public:
  FlappingHost(const Snapshot& s, std::set<std::string> paths)
      : SnapshotHost(s), paths_(std::move(paths)) {}
  Result<std::string> read(std::string_view path) override {
    auto r = SnapshotHost::read(path);
    if (!r || !paths_.count(std::string(path))) return r;
    std::lock_guard lock(mutex_);
    if (++reads_[std::string(path)] % 2 != 0) return r;
    std::string changed = *r;
    for (char& c : changed)
      if (c >= '0' && c <= '9') c = char('0' + (c - '0' + 7) % 10);
    return changed;
  }

 private:
  std::set<std::string> paths_;
  std::map<std::string, int> reads_;
  std::mutex mutex_;
};

inline ToolRun ended(ToolOutcome outcome) {
  ToolRun r;
  r.outcome = outcome;
  return r;
}

inline Detection detect_with_fault(const Snapshot& base, const Touched& mine, FaultKind fault) {
  Snapshot s = base;
  auto each_tool = [&](auto change) {
    for (const auto& argv : mine.tools) {
      auto it = s.tools.find(argv);
      if (it == s.tools.end()) continue;  // the backend found no such tool anyway
      change(it->second.run, argv[0]);
    }
  };
  switch (fault) {
    case FaultKind::tool_missing:
      each_tool([](ToolRun& r, const std::string&) { r = ended(ToolOutcome::not_found); });
      break;
    case FaultKind::tool_hangs:
      each_tool([](ToolRun& r, const std::string&) {
        r = ended(ToolOutcome::timeout);
        r.ms = 5000;
      });
      break;
    case FaultKind::tool_killed:
      each_tool([](ToolRun& r, const std::string&) {
        r = ended(ToolOutcome::signal);
        r.signal = 9;
      });
      break;
    case FaultKind::tool_error_exit:
      each_tool([](ToolRun& r, const std::string& tool) {
        r = ended(ToolOutcome::exited);
        r.exit_code = 1;
        r.err = real_error_text(tool);
      });
      break;
    case FaultKind::empty_output:
      each_tool([](ToolRun& r, const std::string&) { r.out.clear(); });
      break;
    case FaultKind::truncated_output:
      each_tool([](ToolRun& r, const std::string&) { r.out.resize(r.out.size() / 2); });
      break;
    case FaultKind::binary_garbage:
      each_tool([](ToolRun& r, const std::string&) { r.out = garbage(4096); });
      break;
    case FaultKind::huge_output:
      each_tool([](ToolRun& r, const std::string&) {
        std::string line = r.out.empty() ? std::string("x\n") : r.out;
        std::string big;
        while (big.size() < (16u << 20)) big += line;
        big.resize(16u << 20);
        r.out = std::move(big);
        r.truncated = true;
      });
      break;
    case FaultKind::unknown_column:
      each_tool([](ToolRun& r, const std::string&) { r.out = with_unknown_column(r.out); });
      break;
    case FaultKind::files_missing:
      for (const auto& f : mine.files) s.files[f] = FileEntry::of_absent();
      for (const auto& d : mine.dirs) s.files[d] = FileEntry::of_absent();
      break;
    case FaultKind::files_eacces:
      for (const auto& f : mine.files) s.files[f] = FileEntry::of_error(EACCES);
      for (const auto& d : mine.dirs) s.files[d] = FileEntry::of_error(EACCES);
      break;
    case FaultKind::symlink_loop:
      // Each file a link to itself, and each folder gains a child linking
      // back to it (a cycle for anything that walks down).
      for (const auto& f : mine.files) s.files[f] = FileEntry::of_link(f);
      for (const auto& d : mine.dirs) {
        auto it = s.files.find(d);
        if (it != s.files.end() && it->second.kind == FileEntry::Kind::dir) {
          it->second.names.push_back("zz-loop");
          std::sort(it->second.names.begin(), it->second.names.end());
        }
        s.files[d + "/zz-loop"] = FileEntry::of_link(d);
      }
      break;
    case FaultKind::file_changes_between_reads: {
      FlappingHost host(s, mine.files);
      return detect(host);
    }
  }
  SnapshotHost host(s);
  return detect(host);
}

}  // namespace hwaccel
