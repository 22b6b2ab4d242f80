#include "src/registry/cuda_visible.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "src/probe/text_util.h"

namespace hwaccel {
namespace {

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() &&
         to_lower(text.substr(0, prefix.size())) == to_lower(prefix);
}

// The one device whose UUID `entry` is, or begins; kNone when none or several.
std::size_t by_uuid(const std::vector<CudaCandidate>& devices, std::string_view entry, bool mig) {
  std::size_t found = kNone;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (devices[i].is_mig != mig || devices[i].uuid.empty()) continue;
    if (to_lower(devices[i].uuid) == to_lower(entry)) return i;  // exact beats prefixes
    if (!starts_with_ignoring_case(devices[i].uuid, entry)) continue;
    if (found != kNone) return kNone;  // ambiguous
    found = i;
  }
  return found;
}

// A GPU in MIG mode's first MIG device; kNone when it has none.
std::size_t first_mig_of(const std::vector<CudaCandidate>& devices, std::size_t gpu) {
  for (std::size_t i = 0; i < devices.size(); ++i)
    if (devices[i].is_mig && devices[i].parent == gpu) return i;
  return kNone;
}

}  // namespace

std::vector<std::size_t> cuda_enumeration(const std::vector<CudaCandidate>& devices,
                                          const std::optional<std::string>& visible_devices,
                                          const std::optional<std::string>& device_order) {
  std::vector<std::size_t> whole;
  for (std::size_t i = 0; i < devices.size(); ++i)
    if (!devices[i].is_mig) whole.push_back(i);
  const bool pci_order = device_order && trim(*device_order) == "PCI_BUS_ID";
  std::stable_sort(whole.begin(), whole.end(), [&](std::size_t a, std::size_t b) {
    const CudaCandidate &x = devices[a], &y = devices[b];
    if (!pci_order) {
      auto speed = [](const CudaCandidate& d) {
        return std::tuple(d.cc_major, d.cc_minor, d.multiprocessors);
      };
      if (speed(x) != speed(y)) return speed(x) > speed(y);
    }
    return to_lower(x.bus_id) < to_lower(y.bus_id);
  });

  std::vector<std::size_t> out;
  bool mig_taken = false;
  auto take = [&](std::size_t device) {
    if (device == kNone || device >= devices.size()) return false;
    if (std::find(out.begin(), out.end(), device) != out.end()) return false;
    if (devices[device].is_mig) {
      if (mig_taken) return false;
      mig_taken = true;
    } else if (devices[device].mig_enabled) {
      return false;  // only its MIG devices run CUDA work
    }
    out.push_back(device);
    return true;
  };
  // A whole GPU by position, or its first MIG device when it is in MIG mode.
  auto gpu_or_mig = [&](std::size_t device) {
    return devices[device].mig_enabled ? first_mig_of(devices, device) : device;
  };

  if (!visible_devices) {
    for (std::size_t device : whole) {
      if (devices[device].mig_enabled && mig_taken) continue;
      std::size_t pick = gpu_or_mig(device);
      if (pick != kNone) take(pick);
    }
    return out;
  }
  if (trim(*visible_devices).empty()) return out;
  for (auto piece : split(*visible_devices, ',')) {
    std::string_view entry = trim(piece);
    std::size_t device = kNone;
    if (starts_with_ignoring_case(entry, "GPU-") && entry.size() > 4) {
      device = by_uuid(devices, entry, false);
      if (device != kNone) device = gpu_or_mig(device);
    } else if (starts_with_ignoring_case(entry, "MIG-") && entry.size() > 4) {
      device = by_uuid(devices, entry, true);
    } else if (auto index = parse_u64(entry); index && *index < whole.size()) {
      device = gpu_or_mig(whole[*index]);
    }
    if (!take(device)) break;
  }
  return out;
}

}  // namespace hwaccel
