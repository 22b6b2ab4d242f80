// Internal to sim/kernel_fill*.cpp: the filler and the parts of the kernel's
// tree it fills (sim/kernel_fill.h says what and why).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/kernel_fill.h"
#include "sim/pci_layout.h"

namespace hwaccel::sim {

struct Filler {
  Snapshot& s;
  FilledPaths& filled;
  Filler(Snapshot& snapshot, FilledPaths& f) : s(snapshot), filled(f) {}
  // Adds the file unless the snapshot says what is at `path` (or above it).
  void file(const std::string& path, std::string bytes, const std::string& from);
  void link(const std::string& path, std::string target, const std::string& from);
  bool recorded(const std::string& path) const;
  std::optional<std::string> read(const std::string& path) const;

  // While a fill adds files through file() and link() only (no other change to
  // s.files), recorded() may keep what it found above the last folder it looked
  // in: thousands of files in a few folders each (a CPU's topology and caches).
  void remember_folders(bool on) {
    remember_ = on;
    memo_.valid = false;
  }

 private:
  bool blocked_above(std::string_view path) const;
  // recorded() but for an entry at `path` itself.
  bool recorded_above(const std::string& path) const;
  struct FolderMemo {
    bool valid = false;
    std::string dir;                   // the folder looked in last
    const FileEntry* entry = nullptr;  // what the snapshot records at it
    bool above = false;                // blocked_above(dir)
  };
  bool remember_ = false;
  mutable FolderMemo memo_;
};

// Filler::remember_folders for a scope.
class RememberFolders {
 public:
  explicit RememberFolders(Filler& f) : f_(f) { f_.remember_folders(true); }
  ~RememberFolders() { f_.remember_folders(false); }
  RememberFolders(const RememberFolders&) = delete;
  RememberFolders& operator=(const RememberFolders&) = delete;

 private:
  Filler& f_;
};

// A recorded sysfs hex attribute ("0x10de\n") as a number; -1 when absent or not hex.
long long hex_value(const std::optional<std::string>& text);

// One logical CPU as the kernel numbers it.
struct CpuPlace {
  int socket = 0, core = 0, thread = 0;
  int node = 0;
};

// The machine's CPUs, sockets and NUMA nodes as the snapshot implies them
// (cpuinfo's physical id / core id where recorded; else one socket, no SMT).
struct CpuModel {
  std::vector<CpuPlace> cpus;
  int sockets = 1, nodes = 1, threads_per_core = 1;
  long long mem_kb = 0;   // /proc/meminfo MemTotal
  long long free_kb = 0;  // MemFree
  long long l3_kb = 0;    // cpuinfo "cache size" (x86: the socket's last level)
  std::string source;     // what the numbers come from
};
CpuModel cpu_model(const Filler& f);

// "0-3,8-11" and the kernel's comma-grouped hex mask for a set of CPUs.
std::string cpu_list(const std::vector<int>& cpus);
std::string cpu_mask(const std::vector<int>& cpus, int nr_cpus);

void fill_proc_identity(Filler& f);
// `m`: cpu_model(f) (made before this fill, as fill_pci reads it too).
void fill_cpu_topology(Filler& f, const CpuModel& m);
void fill_pci(Filler& f, const CpuModel& m);
// The PCIe paths the snapshot states between `bdfs` (its recorded nvidia-smi
// topo -m); `in_topology[i]`: bdfs[i] is a row of it.
std::vector<PciRelation> stated_pci_paths(const Filler& f, const std::vector<std::string>& bdfs,
                                          std::vector<bool>& in_topology);
void fill_dmi(Filler& f);
// amdkfd's topology around recorded node properties (sim/kernel_fill_kfd.cpp);
// before fill_pci, which moves the PCI devices it reads.
void fill_kfd(Filler& f);

}  // namespace hwaccel::sim
