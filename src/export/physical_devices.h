// One device, one declaration: the view every export counts and declares. A
// physical device seen through several APIs (an iGPU through vulkan and
// oneapi, an Apple GPU through Metal and MoltenVK) is one device here, shown
// through its vendor's own API; a MIG slice is a schedulable device or not
// according to the MIG strategy, named as NVIDIA's GPU Feature Discovery and
// device plugin name it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "src/registry/detection.h"

namespace hwaccel {

// GFD's --mig-strategy: none (a MIG-enabled GPU is one GPU), single (every
// slice is a `gpu`, valid when all slices share one profile), mixed (each
// profile is its own resource, `mig-<profile>`).
enum class MigStrategy { none, single, mixed };
std::string_view to_string(MigStrategy strategy);
std::optional<MigStrategy> parse_mig_strategy(std::string_view text);

struct PhysicalDevice {
  const Entry* entry = nullptr;      // the view exports describe (the vendor's API first)
  std::vector<const Entry*> views;   // every entry of this device, in detection order
  std::vector<const Entry*> slices;  // its MIG instances / compute partitions
  bool integrated = false;           // shares host memory (an iGPU, an APU, a SoC)
  bool ready() const;                // some view is ready
};

// Every physical accelerator (no CPU, no software renderer), in detection
// order of their first view.
std::vector<PhysicalDevice> physical_devices(const Detection& detection);

// The devices a scheduler allocates under `strategy`: a whole device, or
// (single/mixed) each slice of a partitioned one. `resource` is the GFD /
// device-plugin resource suffix: "gpu" or "mig-3g.40gb".
struct Allocatable {
  const Entry* entry = nullptr;  // the whole device or the slice
  const PhysicalDevice* parent = nullptr;
  std::string resource;
};
std::vector<Allocatable> allocatable_devices(const std::vector<PhysicalDevice>& devices,
                                             MigStrategy strategy);

// Whether every slice of every partitioned device has one profile (single is valid).
bool single_mig_profile(const std::vector<PhysicalDevice>& devices);

}  // namespace hwaccel
