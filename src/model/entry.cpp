#include "src/model/entry.h"

namespace hwaccel {

std::string_view to_string(DeviceType type) {
  switch (type) {
    case DeviceType::cpu:
      return "cpu";
    case DeviceType::gpu:
      return "gpu";
    case DeviceType::npu:
      return "npu";
    case DeviceType::tpu:
      return "tpu";
    case DeviceType::asic:
      return "asic";
    case DeviceType::other:
      return "other";
  }
  return "other";
}

std::string_view to_string(MemoryKind kind) {
  switch (kind) {
    case MemoryKind::discrete:
      return "discrete";
    case MemoryKind::unified:
      return "unified";
    case MemoryKind::host:
      return "host";
  }
  return "discrete";
}

}  // namespace hwaccel
