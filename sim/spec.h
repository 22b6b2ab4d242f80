// A host spec: the machine to synthesise, in the words an operator uses (a CPU,
// memory, accelerators by catalogue SKU and count, interconnect, driver states,
// tools). docs/hwsim-spec.md documents its YAML form (hwsim-spec/1).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hwaccel::sim {

// What the vendor's kernel driver and tools look like on the host.
enum class DriverState {
  ok,            // driver bound, tools answer
  missing,       // no driver bound (module not loaded); the tools, if installed, say so
  mismatch,      // module and user-space library disagree (NVML version mismatch; for
                 // amdgpu: bound, but the KFD does not offer the GPU for compute)
  tool_missing,  // driver bound, vendor tool not installed
};
std::string to_string(DriverState state);

struct ArmCluster {
  std::string part;  // catalogue name: "neoverse-v2", "cortex-x925", ...
  int count = 0;
};

struct CpuSpec {
  std::string model;  // x86 "model name"; empty on Arm (the kernel prints none)
  std::string uarch;  // picks vendor, family/model and the flags line: sapphire-rapids, zen4, ...
  int sockets = 1;
  int cores = 4;                     // per socket
  int threads = 1;                   // per core
  std::vector<ArmCluster> clusters;  // Arm: core kinds in CPU order (cores/sockets ignored)
  int logical_cpus() const;
};

struct MemorySpec {
  std::uint64_t total_kb = 16u << 20;
  std::uint64_t available_kb = 15u << 20;
};

struct AcceleratorSpec {
  std::string sku;
  int count = 1;
  std::vector<std::string> bus;             // "0000:1b:00.0" per device; empty: generated
  std::vector<int> numa;                    // per device; empty: by socket
  std::optional<std::uint64_t> free_bytes;  // per device; empty: the SKU's idle figure
  std::optional<std::uint64_t> used_bytes;  // NVIDIA: memory.used; empty: the SKU's idle
  std::vector<std::string> mig;             // NVIDIA MIG instance profiles, on every device
  std::string compute_partition;            // AMD: SPX, DPX, QPX, CPX (empty: SKU default)
  std::string memory_partition;             // AMD: NPS1, NPS4
  std::optional<std::uint64_t> gtt_bytes;   // AMD APU: GPU-visible system memory
  bool node_denied = false;                 // NPU: this user may not open /dev/accel/accelN
  std::optional<int> nsp_free;              // Qualcomm: NSPs not taken by a loaded network
  int line = 0;                             // where the spec says it, for errors
};

struct DriverSpec {
  DriverState state = DriverState::ok;
  std::string version;   // NVIDIA: "550.54.15"; empty: the SKU family's default
  std::string bound_to;  // missing: another kernel driver holds the devices ("nouveau")
};

// A Vulkan loader and its drivers (ICDs): what `vulkaninfo --summary` lists.
struct VulkanSpec {
  std::string instance = "1.3.275";  // the loader's instance version
  std::string api;                   // Mesa drivers' apiVersion (default: the instance's)
  std::string mesa = "24.0.5";       // Mesa's version as driverInfo prints it
  std::string llvm = "17.0.6";       // llvmpipe's LLVM
  std::string moltenvk = "1.2.10";   // MoltenVK's version (macOS)
  // nvk, nvidia, radv, anv, moltenvk, llvmpipe; empty: the loader finds no driver.
  std::vector<std::string> drivers;
  // The host is recorded as hwaccel records since it looks for driver manifests
  // first (Linux): each driver's manifest in /usr/share/vulkan/icd.d and the
  // loader's other folders absent; with no driver, no vulkaninfo run at all.
  // false: as recorded before that search (no folder, vulkaninfo's answer).
  bool manifest_folders = false;
};

struct HostSpec {
  std::string label = "synthesized";
  std::string hostname = "sim-host";
  std::string os = "linux";
  std::string arch = "x86_64";
  std::string kernel = "6.8.0-49-generic";
  CpuSpec cpu;
  MemorySpec memory;
  std::vector<AcceleratorSpec> accelerators;
  std::string interconnect = "pcie";          // nvswitch | nvlink-pairs | pcie
  int ib_ports = 0;                           // InfiniBand/RoCE NICs shown by nvidia-smi topo -m
  std::map<std::string, DriverSpec> drivers;  // "nvidia", "amdgpu"
  std::optional<std::vector<std::string>> tools;  // installed tools; unset: the drivers decide
  std::map<std::string, std::string> env;
  std::optional<VulkanSpec> vulkan;
  std::string vm;  // "firecracker": its PCI host bridge and virtio functions on bus 0  // unset: no
                   // Vulkan loader (vulkaninfo not found)
  std::string dmi_vendor, dmi_product;
  std::uint64_t seed = 0;  // UUIDs and other identifiers derive from it and the label
};

}  // namespace hwaccel::sim
