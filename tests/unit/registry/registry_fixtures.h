// Hand-built detections for the registry's unit tests.
#pragma once

#include <string>

#include "src/registry/detection.h"

namespace hwaccel::testing {

inline Entry gpu(const std::string& backend, int index, std::uint64_t total_mib,
                 std::uint64_t free_mib, const std::string& bus = "") {
  Entry e;
  e.backend = backend;
  e.api = backend == "cuda" ? "nvidia-smi" : "sysfs";
  e.index = index;
  e.name = backend == "cuda" ? "NVIDIA H100 80GB HBM3" : "AMD Instinct MI300X";
  e.vendor = backend == "cuda" ? "NVIDIA" : "AMD";
  e.type = DeviceType::gpu;
  e.pci_bus_id = bus;
  e.physical_id = bus.empty() ? "" : "pci:" + bus;
  e.memory.total_bytes = total_mib << 20;
  e.memory.free_bytes = free_mib << 20;
  return e;
}

inline Entry cpu() {
  Entry e;
  e.backend = "cpu";
  e.api = "host";
  e.physical_id = "cpu:0";
  e.name = "Test CPU";
  e.type = DeviceType::cpu;
  e.memory.kind = MemoryKind::host;
  e.memory.total_bytes = 64ull << 30;
  e.memory.free_bytes = 60ull << 30;
  return e;
}

inline Detection detection_with(std::vector<Entry> entries) {
  Detection d;
  d.backends = {
      {"cuda", true, std::nullopt}, {"rocm", true, std::nullopt}, {"cpu", true, std::nullopt}};
  d.entries = std::move(entries);
  return d;
}

}  // namespace hwaccel::testing
