// The catalogue synthesis draws from: accelerator SKUs (what the bus, the
// driver's files and the vendor tool say about each), CPU microarchitectures
// (their /proc/cpuinfo identity and flags) and Arm core parts. Figures come
// from ../shared/docs/sku-facts.md and the fixtures' cited sources (sku_catalog.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel::sim {

// What nvidia-smi shows for an idle GPU of this SKU, copied from a real capture
// (shared/real-captures: the first -q of a session, before its load), as
// --query-gpu cells with units ("42", "72.63 W", "P0", "0 %", "345 MHz"); empty
// where no capture of the SKU exists. Only synthesised hosts carry them.
struct IdleFigures {
  std::string_view temperature, power_draw, power_limit, pstate, utilization;
  std::string_view graphics_clock, sm_clock, memory_clock;
  std::string_view source;
};

struct Sku {
  std::string_view id;     // "h100-sxm"
  bool nvidia = false;     // else AMD, unless tpu
  bool tpu = false;        // Google TPU (PCI vendor 0x1ae0)
  bool gaudi = false;      // Intel Gaudi (PCI vendor 0x1da3)
  bool neuron = false;     // AWS Inferentia / Trainium (PCI vendor 0x1d0f)
  int neuron_cores = 0;    // NeuronCores per device (neuron-ls nc_count)
  bool apple = false;      // Apple silicon GPU + Neural Engine (macOS: system_profiler, sysctl)
  bool qualcomm = false;   // Qualcomm Cloud AI (PCI vendor 0x17cb, qaic driver, qaic-util)
  bool intel_npu = false;  // Intel NPU (intel_vpu, /sys/class/accel)
  bool xdna = false;       // AMD XDNA NPU (amdxdna, /sys/class/accel)
  bool intel_gpu = false;  // Intel GPU (i915 DRM card; oneAPI, xpu-smi)
  std::uint16_t pci_vendor = 0;    // the new families' vendor (0x8086, 0x1022, 0x17cb)
  std::uint8_t revision = 0;       // PCI revision (0: no revision file)
  std::string_view chip;           // Mesa's chip name in Vulkan device names ("GA102", "MTL")
  std::string_view vk_name;        // Vulkan deviceName when it is not `name`
  std::uint32_t vk_device_id = 0;  // Vulkan deviceID when not the PCI id (MoltenVK's 32-bit)
  int gpu_cores = 0;               // Apple: GPU cores (system_profiler sppci_cores)
  int nsp_count = 0;               // Qualcomm: NSPs per card
  std::uint16_t pci_device = 0;
  std::uint16_t subsystem_vendor = 0, subsystem_device = 0;
  std::uint32_t pci_class = 0x030200;  // 0x030000 VGA, 0x030200 3D, 0x120000 accelerator
  std::string_view name;               // as nvidia-smi / amdgpu's product_name print it
  std::string_view vbios;              // AMD: amdgpu's vbios_version (a public capture's)
  // NVIDIA
  std::uint64_t memory_mib = 0;    // nvidia-smi memory.total; 0: [N/A] (unified memory)
  std::uint64_t reserved_mib = 0;  // what the driver keeps: idle free = total - reserved - used
  std::uint64_t idle_used_mib = 0;
  IdleFigures idle;              // synthesised hosts' monitoring figures; empty: [N/A]
  std::string_view compute_cap;  // "9.0"
  int nvlinks = 0;               // NVLinks per GPU (NV# of topo -m between NVSwitch peers)
  bool mig_capable = false;
  bool ats = false;         // addressing_mode ATS (Grace Hopper)
  std::string_view driver;  // default driver version
  // AMD
  std::uint64_t vram_bytes = 0;  // mem_info_vram_total (an APU's carve-out)
  std::uint64_t vram_idle_used = 0;
  bool apu = false;
  bool has_product_name = false;  // Instinct boards fill product_name; Radeon ones leave it
  int gfx_target_version = 0;
  int simd_count = 0;
  int num_xcc = 1;
  std::vector<std::string> compute_partitions;  // offered modes, first = default
  std::vector<std::string> memory_partitions;
  // TPU
  std::string_view kernel_driver;  // "vfio-pci" (v5e and later) or "tpu_v4" (v2-v4)
  // Gaudi: hl-smi's name for the board ("HL-325L"); memory_mib, idle_used_mib, driver above
};

const Sku* find_sku(std::string_view id);
std::vector<std::string> sku_names();

struct Uarch {
  std::string_view id;  // "sapphire-rapids"
  bool arm = false;
  std::string_view vendor_id;  // "GenuineIntel" / "AuthenticAMD"
  int family = 0, model = 0, stepping = 0;
  std::string_view flags;         // x86 flags / Arm Features
  std::string_view default_part;  // Arm: the core part when the spec gives no clusters
  double mhz = 2000.0;
};

const Uarch* find_uarch(std::string_view id);
std::vector<std::string> uarch_names();

// "neoverse-v2" -> 0xd4f (implementer 0x41, Arm Ltd.)
std::optional<std::uint16_t> arm_part_id(std::string_view name);
std::vector<std::string> arm_part_names();

}  // namespace hwaccel::sim
