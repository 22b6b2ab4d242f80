// The figures behind `hwaccel detect --summary` and the library's queries:
// devices per family, the best device, host and accelerator memory. Memory is
// counted per physical device (a MIG slice counts as its parent, a GPU seen
// through two APIs once); unified memory is the host's, so it is accelerator
// memory but is not added to the total a second time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/registry/detection.h"

namespace hwaccel {

struct FamilySummary {
  std::string name;    // the backend: cuda, rocm, cpu
  bool ready = false;  // the backend line
  std::string reason;  // "driver-not-found" when the backend is not ready
  std::size_t devices = 0;
  std::size_t ready_devices = 0;
};

struct Summary {
  std::vector<FamilySummary> families;       // backend order
  std::map<std::string, std::size_t> types;  // ready devices by type: gpu, cpu, ...
  std::optional<std::size_t> best;           // into Detection::entries
  std::string best_reason;
  std::size_t accelerators_ready = 0;  // physical devices
  std::uint64_t host_memory_bytes = 0;
  std::uint64_t accelerator_memory_bytes = 0;  // ready physical accelerators, total memory
  std::uint64_t total_memory_bytes = 0;        // host + discrete accelerator memory
  std::size_t warnings = 0;
};

Summary summarize(const Detection& detection);

// Memory of the ready physical accelerators (each counted once).
std::uint64_t accelerator_memory_bytes(const Detection& detection);
bool has_ready_accelerator(const Detection& detection);

}  // namespace hwaccel
