// The devices a plan may use: detected entries (or what-if additions),
// enriched from the SKU catalogue, with the memory each can give a model.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "src/model/link.h"
#include "src/plan/catalogue.h"
#include "src/registry/detection.h"

namespace hwaccel::plan {

// Used for a CPU the catalogue does not know (stated in the plan's notes).
inline constexpr double kUnknownCpuBandwidth = 50e9;
inline constexpr double kUnknownCpuFlops = 1e12;
inline constexpr double kDefaultUsableFraction = 0.9;

struct PlanDevice {
  std::string label;  // cuda:0, cpu:0, add:h100-sxm:0
  std::string name;   // as detected (or the SKU's name when added)
  std::string physical_id;
  const Sku* sku = nullptr;  // nullptr: unknown device
  bool cpu = false;
  bool unified = false;  // shares host memory (GB10, APUs, Apple)
  bool added = false;    // --add
  double total_bytes = 0;
  std::optional<double> free_bytes;
  double usable_fraction = kDefaultUsableFraction;
  double reserve_bytes = 0;
  double capacity = 0;  // min(total x usable, free) - reserve, at least 0

  double bandwidth() const;                      // bytes/s; 0 when unknown
  double peak(const std::string& format) const;  // FLOP/s; 0 when unknown
  bool known() const { return sku != nullptr || cpu; }
  std::string sku_id() const { return sku ? sku->id : ""; }
};

struct DeviceSet {
  std::vector<PlanDevice> devices;  // accelerators in detection order, then the CPU
  std::vector<Link> links;
  std::vector<std::string> notes;  // unknown devices, assumptions
};

struct DeviceOptions {
  std::vector<std::string> on;      // --on labels; empty: every ready device
  std::vector<std::string> add;     // --add SKU[xN]
  std::vector<std::string> remove;  // --remove LABEL
  double reserve_bytes = 0;
};

struct DeviceSetResult {
  std::optional<DeviceSet> set;
  std::string error;  // an unknown label or SKU, listing what is known
};

// Why a detected device cannot hold weights (an NPU sharing the SoC's unified
// memory); nullopt when it can.
std::optional<std::string> not_a_place_for_weights(const Entry& entry);

DeviceSetResult build_devices(const Detection& detection, const Catalogue& catalogue,
                              const DeviceOptions& options);

// n devices of one SKU (for `fits on` and `cost`), with its fabric assumed.
DeviceSet synthetic_devices(const Sku& sku, int count, double reserve_bytes,
                            double host_memory_bytes = 0);

// "79.6 GiB"
std::string gib(double bytes);

}  // namespace hwaccel::plan
