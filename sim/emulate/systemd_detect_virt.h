#pragma once

#include <string>

#include "sim/emulate/tool_emulator.h"
#include "src/system/system_info.h"

namespace hwaccel::sim {

// systemd-detect-virt (systemd 252, Debian 12) answered from the recorded host:
// on x86 the real tool asks the CPU (CPUID) first, which a namespace cannot
// change, so without this a program under `hwsim run` learns this machine's
// hypervisor on every simulated bare-metal host. Default, -c/--container,
// -v/--vm, -q/--quiet, -r/--chroot, --private-users, --list, -h/--help,
// --version, and the real tool's errors for anything else.
ToolAnswer emulate_systemd_detect_virt(const EmulatedHost& host,
                                       const std::vector<std::string>& argv);

// systemd's name for the VM the recorded host is ("kvm", "amazon", "microsoft",
// ..., "vm-other"), or "none" where it is bare metal or does not say.
std::string systemd_vm_id(const RuntimeEnvironment& env);

// systemd's name for the container, from what it reads: the `container`
// variable (PID 1's environment; the recorder's here), /run/systemd/container,
// /.dockerenv, /run/.containerenv. "none" without any.
std::string systemd_container_id(const Snapshot& snapshot);

}  // namespace hwaccel::sim
