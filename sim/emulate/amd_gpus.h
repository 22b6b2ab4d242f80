// The AMD GPUs that rocm-smi, amd-smi and rocminfo see on a simulated host: the
// rocm backend's ready devices, with what the snapshot's sysfs holds beside them
// (revision, unique id, serial, VBIOS, partitions, KFD node).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/emulate/tool_emulator.h"

namespace hwaccel::sim::emulate {

struct AmdGpu {
  int index = 0;
  std::string name;  // product_name ("AMD Instinct MI300X")
  std::string bdf;   // "0000:05:00.0"
  std::uint16_t device_id = 0;
  std::uint8_t revision = 0;
  std::string gfx;  // "gfx942"
  // What amdgpu's sysfs says (mem_info_*): on an APU, VRAM is the firmware's
  // carve-out and GTT the system memory the GPU may map; unknown when not recorded.
  std::optional<std::uint64_t> vram_total, vram_used;
  std::optional<std::uint64_t> vis_vram_total, vis_vram_used;
  std::optional<std::uint64_t> gtt_total, gtt_used;
  // The memory detection gives the device (on an APU, the GPU-visible system
  // memory): what the HSA runtime offers as the agent's pool.
  std::optional<std::uint64_t> pool_bytes;
  bool unified = false;                             // an APU: its memory is the host's
  std::string unique_id;                            // "0x8d1457e2c20f59d2"; "" unknown
  std::string serial;                               // "" unknown
  std::string vbios;                                // "" unknown
  std::string memory_partition, compute_partition;  // "NPS1", "SPX"; "" unknown
  std::optional<int> numa_node;
  std::optional<int> kfd_node;  // the KFD topology node (rocminfo's Node)
  std::optional<int> simd_count;
};

// Every ready rocm device, by index.
std::vector<AmdGpu> amd_gpus(const EmulatedHost& host);

// True when the host has AMD GPUs that amdgpu does not drive (rocm driver-not-found).
bool amdgpu_missing(const EmulatedHost& host);

// The amdgpu driver's version as the tools print it: /sys/module/amdgpu/version,
// else the kernel release (an in-tree driver has no version of its own).
std::string amdgpu_version(const EmulatedHost& host);

// amd-smi's UUID: the serial's first byte, ff, the device id, then the rest of the
// serial ("afff74a1-0000-1000-8054-e92b0a5d57c8" for serial 0xAF54E92B0A5D57C8).
// "N/A" without a serial.
std::string amd_smi_uuid(const AmdGpu& gpu);

}  // namespace hwaccel::sim::emulate
