// The facts of a machine told by its files alone: a tree laid out like "/" (an
// hwloc-gather-topology tarball, a copied /sys and /proc) carries no uname or
// sysconf of its own, so `hwsim import` and `hwaccel detect --root` derive the
// architecture, kernel, hostname, page size and CPU count from what it holds.
// Order of trust per fact: docs/probes.md ("Host facts").
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/host/host.h"

namespace hwaccel {

// How the derivation sees the tree: `read` gives a regular file's bytes (nullopt:
// absent or unreadable), `list` the names in a folder (empty when there is none).
// A Host's `read` lends its bytes where it keeps them (Host::read_text).
struct TreeFiles {
  std::function<std::optional<FileText>(const std::string&)> read;
  std::function<std::vector<std::string>(const std::string&)> list;
};

// /proc/hwloc-nofile-info, written by hwloc-gather-topology for what uname and
// sysconf said ("Architecture: aarch64", "OSRelease: ...", "PageSize: 4096").
struct NofileInfo {
  std::string architecture, os_release, hostname;
  std::int64_t page_size = 0;   // 0: not given or not a power of two in [1 KiB, 1 GiB]
  std::int64_t processors = 0;  // FallbackNbProcessors; 0: not given
};
NofileInfo parse_hwloc_nofile_info(std::string_view text);

// The architecture as uname -m would name it, from /proc/cpuinfo (and
// /proc/meminfo, whose HighTotal tells a 32-bit x86 kernel from a 64-bit one on
// a CPU with `lm`); "" when nothing fits. `why` says what decided.
std::string arch_from_cpuinfo(std::string_view cpuinfo, std::string_view meminfo, std::string& why);

// The architecture from /sys alone, for trees without /proc/cpuinfo: ia64 by
// the `attributes` file its kernels put in every CPU cache folder; "" when
// /sys does not tell.
std::string arch_from_sysfs(const TreeFiles& tree, std::string& why);

// "0-3,8,10-11\n" -> {0,1,2,3,8,10,11}; nullopt when it is not a CPU list or
// names a CPU at or above `limit` (a hostile list must not allocate gigabytes).
std::optional<std::vector<int>> parse_cpu_list(std::string_view text, int limit = 65536);

class CpuinfoKeys;  // src/host/cpuinfo_keys.h

// The online CPUs: /sys/devices/system/cpu/online, else the cpuN folders whose
// cpuN/online is not 0, else the `processor` lines of /proc/cpuinfo. Empty when
// none of these is there. `source` names the one used. `cpuinfo`, when given,
// is the tree's /proc/cpuinfo as another reader of the same scan shares it.
std::vector<int> online_cpus(const TreeFiles& tree, std::string& source,
                             CpuinfoKeys* cpuinfo = nullptr);

// Facts from the tree; unknown ones stay empty/zero and `notes` says which
// ("facts.kernel: unknown ...") or where a fact came from when it was a fallback.
// page_size stays 0 when the tree does not say.
Facts facts_from_tree(const TreeFiles& tree, std::vector<std::string>& notes);

// The same through a Host (a LiveHost under --root).
TreeFiles tree_files_of(Host& host);

}  // namespace hwaccel
