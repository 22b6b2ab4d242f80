// libFuzzer target: the runtime environment's readers: /proc/1/cgroup and the
// cpuinfo hypervisor flag; this process's cgroup (/proc/self/cgroup, mountinfo,
// /proc/mounts, memory limits, CPU quotas, CPU lists, devices.list); and a tree's facts
// (/proc/hwloc-nofile-info, the architecture from cpuinfo, node meminfo).
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "src/host/tree_facts.h"
#include "src/system/cgroup_devices.h"
#include "src/system/cgroup_limits.h"
#include "src/system/host_resources.h"
#include "src/system/runtime_env.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)hwaccel::parse_proc1_cgroup(text);
  (void)hwaccel::cpuinfo_hypervisor_flag(text);
  (void)hwaccel::parse_proc_self_cgroup(text);
  (void)hwaccel::parse_mountinfo(text);
  (void)hwaccel::parse_proc_mounts(text);
  (void)hwaccel::parse_cgroup_memory_limit(text);
  (void)hwaccel::parse_cpu_max(text);
  auto rules = hwaccel::parse_devices_list(text);
  (void)hwaccel::char_device_allowed(rules, 195, 3);
  (void)hwaccel::allowed_char_minors(rules, 195);
  (void)hwaccel::parse_cpu_list(text);
  (void)hwaccel::parse_hwloc_nofile_info(text);
  (void)hwaccel::parse_node_meminfo_total(text);
  std::string why;
  auto half = text.substr(0, text.size() / 2);
  (void)hwaccel::arch_from_cpuinfo(half, text.substr(half.size()), why);
  return 0;
}
