// The CUDA backend, through NVML (hwaccel-nvml, cuda_nvml_path.h) when it
// answers, else nvidia-smi, and the PCI bus:
//
//   0. hwaccel-nvml                       when the kernel shows an NVIDIA GPU and
//                                         the host can answer the run: replaces 1,
//                                         2, 4 and 4b.
//
//   1. nvidia-smi --query-gpu=<cuda_query_fields()> --format=csv   (always)
//      an old driver that rejects a field is asked again without it. 2, 3 and 4
//      start together with it (Host::run_many) where the kernel's GPUs say they
//      will be wanted; an answer not wanted after all is dropped.
//   2. nvidia-smi -L                      when 1 listed GPUs: MIG instances.
//   3. nvidia-smi topo -m                 when 1 listed more than one GPU: links,
//                                         CPU and NUMA affinity.
//   4. nvidia-smi --query-gpu=pci.bus_id,addressing_mode --format=csv
//                                         when a GPU reports memory of its own and
//                                         the driver is 580 or newer or coherence
//                                         is possible (aarch64/ppc64 host, GPU
//                                         NUMA node, superchip PCI id): ATS or not.
//   4b. nvidia-smi -q                     when -L listed MIG devices (their own
//                                         memory) or the driver rejected step 4's
//                                         field (its Addressing Mode line).
//   3b. nvidia-smi nvlink -s              when topo -m gave no links and NVSwitch
//                                         bridges are on the PCI bus (cuda_fabric).
//   5. every GPU the kernel shows (nvidia_kernel_gpus): /sys/bus/pci/devices,
//      /proc/driver/nvidia/gpus/* (numa_status always, information when
//      nvidia-smi gives no GPU), /sys/class/drm, /dev/nvidia<N>: NUMA node, PCI
//      ids, the GPU's memory as a NUMA node, and every GPU the tool does not list.
//   7. CUDA_VISIBLE_DEVICES, CUDA_DEVICE_ORDER: the ordinal CUDA opens each
//      device by (cuda_visible.h); hides what CUDA would not see.
//   8. /proc/meminfo                      GPUs without memory of their own (GB10).
//
// docs/probes.md says which field comes from where.
#pragma once

#include <string>
#include <vector>

#include "src/probe/probe.h"

namespace hwaccel {

// The fields asked of nvidia-smi, in this order. Columns are mapped by header
// name, so the order only matters for the exact argv that snapshots record.
inline const std::vector<std::string>& cuda_query_fields() {
  static const std::vector<std::string> fields = {"index",       "uuid",         "pci.bus_id",
                                                  "name",        "memory.total", "memory.used",
                                                  "memory.free", "compute_cap",  "driver_version"};
  return fields;
}

// nvidia-smi --query-gpu=<fields joined by ','> --format=csv
std::vector<std::string> cuda_query_argv(const std::vector<std::string>& fields);

// The other runs, exactly as the probe asks for them.
std::vector<std::string> cuda_list_argv();             // nvidia-smi -L
std::vector<std::string> cuda_topology_argv();         // nvidia-smi topo -m
std::vector<std::string> cuda_addressing_mode_argv();  // the query of step 4
std::vector<std::string> cuda_q_argv();                // nvidia-smi -q (step 4b)

class CudaProbe : public Probe {
 public:
  std::string name() const override { return "cuda"; }
  ProbeResult run(Host& host) const override;
};

}  // namespace hwaccel
