// What this process may use, as its cgroup says: the CPUs and NUMA nodes of its
// cpuset, its CPU quota and its memory limit (cgroup v1 cpuset.cpus /
// cpu.cfs_quota_us / memory.limit_in_bytes, v2 cpuset.cpus.effective / cpu.max /
// memory.max). Inside a container, a Kubernetes pod or
// a Slurm job step these are less than the host's. The cgroup is found through
// /proc/self/cgroup (or the older /proc/self/cpuset) and the mount table
// (/proc/self/mountinfo, else /proc/mounts). Order of trust: docs/probes.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/host/host.h"

namespace hwaccel {

// One line of /proc/self/cgroup: "4:cpuset:/slurm/uid_1/job_2", "0::/user.slice".
struct CgroupMembership {
  std::string hierarchy;                 // "0" for cgroup v2
  std::vector<std::string> controllers;  // empty for v2 (and for v1 named hierarchies)
  std::string path;
};
std::vector<CgroupMembership> parse_proc_self_cgroup(std::string_view text);

// One mounted filesystem, as far as the cgroup reader needs it.
struct MountEntry {
  std::string root;                  // the mount's root inside its filesystem ("/" in /proc/mounts)
  std::string mount_point;           // octal escapes (\040) decoded
  std::string fstype;                // cgroup | cgroup2 | cpuset (the pre-cgroup cpuset fs) | ...
  std::vector<std::string> options;  // mount and super options together: "cpuset", "noprefix"
};
std::vector<MountEntry> parse_mountinfo(std::string_view text);
std::vector<MountEntry> parse_proc_mounts(std::string_view text);

// memory.max / memory.limit_in_bytes: bytes, or nullopt for "max", for v1's
// "no limit" (at or above 2^62) and for text that is not a number.
std::optional<std::uint64_t> parse_cgroup_memory_limit(std::string_view text);

// CPU time per period: v2 cpu.max "400000 100000" (4 CPUs' worth), v1
// cpu.cfs_quota_us / cpu.cfs_period_us. The process may run on every CPU of its
// cpuset, but for quota/period CPUs' time only: a CPU count for thread pools.
struct CpuQuota {
  std::uint64_t quota_us = 0, period_us = 0;
  double cpus() const { return double(quota_us) / double(period_us); }
  int whole_cpus() const;  // ceil(quota / period), at least 1
};
// "400000 100000" -> quota; "max 100000" (no limit) and text that is not two
// positive numbers -> nullopt. A lone number is a quota with the default
// 100000 us period (v2 accepts writing it so; v1 reads its files one by one).
std::optional<CpuQuota> parse_cpu_max(std::string_view text);

struct CgroupLimits {
  int version = 0;   // 1 or 2; 0: no cgroup found (not Linux, or an old recording)
  std::string path;  // the process's cgroup ("/system.slice/slurmstepd.scope/job_1/step_0")
  std::optional<std::vector<int>> cpus;           // allowed CPUs; nullopt: unknown or not limited
  std::optional<std::vector<int>> mems;           // allowed NUMA nodes; nullopt: likewise
  std::optional<std::uint64_t> memory_limit;      // bytes; nullopt: no limit found
  std::optional<CpuQuota> cpu_quota;              // the tightest on the way up; nullopt: none
  std::string cpus_file, mems_file, memory_file;  // where each limit was read
  std::string cpu_quota_file;                     // cpu.max, or v1's cpu.cfs_quota_us
  std::vector<std::string> notes;                 // what could not be read, and why
};

CgroupLimits read_cgroup_limits(Host& host);

// Where the process's cgroup for one controller ("devices") lives: the v1
// hierarchy that has it, else the v2 unified hierarchy. version 0: not found.
struct CgroupFolder {
  int version = 0;
  std::string dir;   // the mounted folder ("/sys/fs/cgroup/devices/kubepods/pod1/c1")
  std::string path;  // the process's cgroup path in that hierarchy
};
CgroupFolder locate_cgroup_folder(Host& host, const std::string& controller);

}  // namespace hwaccel
