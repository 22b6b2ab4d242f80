// Default selection and explicit requests. A request is resolved or refused,
// never silently widened (a GPU request never falls back to the CPU).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/registry/detection.h"

namespace hwaccel {

struct Selection {
  std::optional<std::size_t> entry;  // index into Detection::entries
  std::string reason;                // always set: why this one, or why none
};

// Rank among ready accelerators (not the CPU, not a partitioned whole device):
// backend order, then most free memory (unknown last), then lowest index.
// Falls back to the CPU when no accelerator is ready.
Selection select_default(const Detection& detection);

// --require: gpu | npu | tpu | accelerator | mem>=SIZE
struct Requirement {
  enum class Kind { type, accelerator, min_memory };
  Kind kind = Kind::accelerator;
  DeviceType type = DeviceType::gpu;
  std::uint64_t bytes = 0;
  std::string text;  // as the user wrote it
};
std::optional<Requirement> parse_requirement(const std::string& text);

struct Request {
  std::string device;   // "cuda:1" or "pci:0000:3b:00.0"; empty: any
  std::string backend;  // "rocm"; empty: any
  std::vector<Requirement> requirements;
  bool empty() const { return device.empty() && backend.empty() && requirements.empty(); }
};

enum class RequestOutcome { selected, bad_request, not_compiled, not_ready, unsatisfiable };

struct RequestResult {
  RequestOutcome outcome = RequestOutcome::unsatisfiable;
  std::optional<std::size_t> entry;
  std::string message;  // the reason for the choice, or the refusal naming what is available
};

// `compiled`: the backends this build has (backend_names()).
RequestResult resolve_request(const Detection& detection, const Request& request,
                              const std::vector<std::string>& compiled);

std::string entry_label(const Entry& e);  // "cuda:0"

}  // namespace hwaccel
