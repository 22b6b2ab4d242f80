// Google TPU PCI device ids (vendor 0x1ae0) -> generation and HBM per chip.
//
// Source: tpu-info (AI-Hypercomputer/cloud-accelerator-diagnostics,
// tpu_info/tpu_info/device.py, TpuChip.from_pci_device_id and TpuChip.Info):
// 0x005e v4 (32 GiB), 0x0063 v5e (16 GiB), 0x0062 v5p (95 GiB), 0x006f v6e
// (32 GiB), 0x0076 TPU7x (192 GiB, two devices per chip); v2/v3 share 0x0027
// and differ by subsystem device id (0x004e v2, 8 GiB; 0x004f v3, 16 GiB). The
// v4 id is also the kernel driver's (tensorflow/tpu tools/driver, tpuv4_driver.c).
// Which generations are reached through VFIO (/dev/vfio/N) and which through the
// TPU kernel driver (/dev/accelN) is tpu-info's chip_path(): v5e and later VFIO.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace hwaccel {

inline constexpr std::uint16_t kGooglePciVendor = 0x1ae0;

struct TpuGeneration {
  std::string_view name;      // "v5e"
  std::uint64_t hbm_gib = 0;  // per chip
  bool vfio = false;          // used through vfio-pci rather than the TPU kernel driver
};

// nullopt for an id that is no TPU (gVNIC, NVMe and other Google functions).
std::optional<TpuGeneration> find_tpu_generation(std::uint16_t device_id,
                                                 std::optional<std::uint16_t> subsystem_device);

}  // namespace hwaccel
