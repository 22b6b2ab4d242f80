// Every NVIDIA GPU the kernel shows, whatever nvidia-smi says, merged by bus id
// from four places:
//
//   /sys/bus/pci/devices/<bus>        display-class functions of vendor 0x10de;
//                                     a folder with `class` but no vendor/device
//                                     files counts when the nvidia module claims it
//   /proc/driver/nvidia/gpus/<bus>/   one folder per GPU the loaded module holds,
//                                     with or without `information` (POWER9 hosts
//                                     show only `numa_status`)
//   /sys/class/drm/cardN              the card's PCI function and its ids
//   /dev/nvidia<N>                    the module's device nodes (no bus id)
//
// Missing ids come from whichever place has them. The module's own folders and
// nodes mean the driver is loaded, whatever sysfs's driver link says.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/host/host.h"
#include "src/probe/nvidia_gpu_information.h"
#include "src/probe/pci_bus.h"

namespace hwaccel {

inline constexpr const char* kNvidiaProcGpus = "/proc/driver/nvidia/gpus";

// /proc/driver/nvidia/gpus/<bus>/numa_status (nv-procfs.c): "Node: N" and
// "Status: online" lines, then Address/Size once the GPU is open. Node -1 (or
// no Node line) means the GPU's memory is not a NUMA node.
struct NvidiaNumaStatus {
  std::optional<int> node;
  std::string status;  // "online", "offline", "disabled", ... ("" when absent)
};
NvidiaNumaStatus parse_nvidia_numa_status(std::string_view text);

struct KernelGpu {
  std::string address;      // "0000:04:00.0"; "" for a device node with no bus id
  std::string device_node;  // "/dev/nvidia3" when only a node shows it
  std::optional<std::uint16_t> device_id;
  std::string driver;            // sysfs's bound driver ("" none or unknown)
  std::optional<int> numa_node;  // the function's CPU-side node (sysfs)
  bool module_holds = false;     // /proc/driver/nvidia/gpus/<bus> or a /dev node
  std::optional<NvidiaGpuInformation> info;
  std::optional<NvidiaNumaStatus> numa_status;  // the GPU's memory as a NUMA node
  std::vector<std::string> provenance;          // "file:..." of each place that showed it
};

// Sorted by address; device-node-only GPUs last (only when no other place shows
// a GPU: a node cannot be matched to a bus id). `information` files are read
// only when asked: where nvidia-smi answers, they add nothing it did not say.
std::vector<KernelGpu> nvidia_kernel_gpus(Host& host, bool read_information);

}  // namespace hwaccel
