// The runtime environment: container (Docker, Podman, ...), Kubernetes, cloud
// instance and VM, from markers that need no privileges:
//   /.dockerenv (Docker), /run/.containerenv (Podman), /proc/1/cgroup paths
//   (/docker/, docker-*.scope, libpod-, /kubepods, cri-containerd-, /lxc),
//   the `container` environment variable (Podman, systemd-nspawn);
//   KUBERNETES_SERVICE_HOST and /var/run/secrets/kubernetes.io/serviceaccount;
//   DMI (/sys/class/dmi/id/{sys_vendor,product_name,board_vendor,bios_vendor,
//   chassis_asset_tag}) for the cloud and hypervisor; the x86 "hypervisor" CPU flag.
// Serials and UUIDs in DMI are never read.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/host/host.h"
#include "src/system/system_info.h"

namespace hwaccel {

// Azure's chassis asset tag (the same on every Azure VM; Hyper-V elsewhere has another).
inline constexpr const char* kAzureAssetTag = "7783-7084-3265-9085-8269-3286-77";

struct CgroupHints {
  std::string container;  // docker | podman | containerd | cri-o | lxc | ""
  bool kubernetes = false;
  std::string evidence;  // the telling part of the line: "/kubepods.slice/"
};
// /proc/1/cgroup (v1 "N:controllers:/path" lines, v2 "0::/path").
CgroupHints parse_proc1_cgroup(std::string_view text);

// true when /proc/cpuinfo's first "flags" line has the "hypervisor" flag, false
// when it has a flags line without it, nullopt without a flags line (arm64).
std::optional<bool> cpuinfo_hypervisor_flag(std::string_view text);

struct DmiFields {
  std::string sys_vendor, product_name, board_vendor, bios_vendor, chassis_asset_tag;
};
struct DmiClass {
  std::string cloud;                    // aws | gcp | azure | oci | alibaba | ""
  std::string instance_type;            // AWS: product_name
  std::optional<bool> virtual_machine;  // what DMI alone says; nullopt: it does not say
  std::string hypervisor;
  std::string evidence;  // "sys_vendor \"Amazon EC2\""
};
// Pure: what DMI's vendor and product strings tell (trimmed values expected).
DmiClass classify_dmi(const DmiFields& dmi);

RuntimeEnvironment detect_runtime_environment(Host& host, std::vector<Warning>& warnings);

// "docker container in kubernetes, aws p5.48xlarge VM"; "bare metal"; "unknown".
std::string runtime_environment_text(const RuntimeEnvironment& env);

}  // namespace hwaccel
