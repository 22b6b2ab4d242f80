// The device cgroup: which device nodes this process may open. cgroup v1 lists
// its rules in devices.list ("c 195:0 rw", "a *:* rwm" for everything); the
// NVIDIA container toolkit appends one "c 195:N rw" per GPU it gives a
// container, and Slurm's ConstrainDevices writes the same for a job's GPUs.
// cgroup v2 has no such file: its rules are an eBPF program attached to the
// cgroup, which no file shows, so under v2 the rules are unknown, not open.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/host/host.h"

namespace hwaccel {

// One devices.list line. nullopt major/minor: '*'.
struct DeviceRule {
  char type = 'a';  // 'a' (all), 'b' (block), 'c' (char)
  std::optional<unsigned> major, minor;
  std::string access;  // of "rwm"
};

// Lines that are not "TYPE MAJOR:MINOR ACCESS" are skipped (and counted in `skipped`).
std::vector<DeviceRule> parse_devices_list(std::string_view text, std::size_t* skipped = nullptr);

// True when a rule lets the process open char device major:minor for reading
// and writing (what CUDA needs of /dev/nvidiaN).
bool char_device_allowed(const std::vector<DeviceRule>& rules, unsigned major, unsigned minor);

// The char minors of `major` that rules name one by one with rw access; nullopt
// when a wildcard rule allows every minor of it.
std::optional<std::vector<unsigned>> allowed_char_minors(const std::vector<DeviceRule>& rules,
                                                         unsigned major);

struct DeviceCgroup {
  int version = 0;                // 1: rules read; 2: a v2 cgroup (rules unknown); 0: none found
  std::string path;               // the process's cgroup
  std::string file;               // the devices.list read (v1)
  std::vector<DeviceRule> rules;  // v1 only
  std::string note;               // why the rules are unknown, when they are
};

DeviceCgroup read_device_cgroup(Host& host);

}  // namespace hwaccel
