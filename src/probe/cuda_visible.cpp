#include "src/probe/cuda_visible.h"

#include <algorithm>
#include <numeric>

#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && text.substr(0, prefix.size()) == prefix;
}

// strtoul's reading: an optional '+', then the leading digits; nullopt without
// a digit. Huge numbers saturate (they name no device either way).
std::optional<std::uint64_t> leading_number(std::string_view token) {
  std::size_t i = 0;
  if (i < token.size() && token[i] == '+') ++i;
  std::uint64_t value = 0;
  std::size_t digits = 0;
  for (; i < token.size() && token[i] >= '0' && token[i] <= '9'; ++i, ++digits)
    value = value > 100'000'000 ? value : value * 10 + std::uint64_t(token[i] - '0');
  if (digits == 0) return std::nullopt;
  return value;
}

struct Resolved {
  std::optional<CudaDeviceRef> device;  // set when the token names one device
  std::string why;                      // else why not
};

Resolved by_uuid_prefix(const std::vector<CudaGpu>& gpus, std::string_view token, bool mig) {
  std::vector<CudaDeviceRef> matches;
  const std::string wanted = to_lower(token);
  for (std::size_t g = 0; g < gpus.size(); ++g) {
    if (!mig) {
      if (!gpus[g].uuid.empty() && starts_with(to_lower(gpus[g].uuid), wanted))
        matches.push_back({g, std::nullopt});
      continue;
    }
    for (std::size_t m = 0; m < gpus[g].mig.size(); ++m)
      if (!gpus[g].mig[m].uuid.empty() && starts_with(to_lower(gpus[g].mig[m].uuid), wanted))
        matches.push_back({g, m});
  }
  if (matches.size() == 1) return {matches.front(), ""};
  return {std::nullopt, matches.empty() ? "names no device" : "is a prefix of more than one UUID"};
}

// MIG-GPU-<GPU UUID>/<gi>/<ci>
Resolved by_legacy_mig(const std::vector<CudaGpu>& gpus, std::string_view token) {
  auto parts = split(token.substr(4), '/');
  if (parts.size() != 3) return {std::nullopt, "is not MIG-GPU-<uuid>/<gi>/<ci>"};
  auto gi = parse_u64(parts[1]), ci = parse_u64(parts[2]);
  if (!gi || !ci) return {std::nullopt, "is not MIG-GPU-<uuid>/<gi>/<ci>"};
  const std::string uuid = to_lower(parts[0]);
  for (std::size_t g = 0; g < gpus.size(); ++g) {
    if (gpus[g].uuid.empty() || to_lower(gpus[g].uuid) != uuid) continue;
    for (std::size_t m = 0; m < gpus[g].mig.size(); ++m) {
      const auto& d = gpus[g].mig[m];
      if (d.gpu_instance_id && d.compute_instance_id && std::uint64_t(*d.gpu_instance_id) == *gi &&
          std::uint64_t(*d.compute_instance_id) == *ci)
        return {CudaDeviceRef{g, m}, ""};
    }
  }
  return {std::nullopt, "names no device"};
}

Resolved resolve(const std::vector<CudaGpu>& gpus, const std::vector<std::size_t>& order,
                 std::string_view token) {
  if (starts_with(token, "MIG-GPU-")) return by_legacy_mig(gpus, token);
  if (starts_with(token, "MIG-") && token.size() > 4) return by_uuid_prefix(gpus, token, true);
  if (starts_with(token, "GPU-") && token.size() > 4) return by_uuid_prefix(gpus, token, false);
  auto index = leading_number(token);
  if (!index) return {std::nullopt, "is not an index, GPU- or MIG- UUID"};
  if (*index >= order.size()) return {std::nullopt, "is past the last GPU"};
  return {CudaDeviceRef{order[*index], std::nullopt}, ""};
}

std::string quoted(std::string_view token) {
  return "\"" + printable_line(token, 60) + "\"";
}

}  // namespace

std::uint64_t cuda_speed_key(int cc_major, int cc_minor) {
  if (cc_major < 0 || cc_minor < 0) return 0;
  return std::uint64_t(cc_major) * 100 + std::uint64_t(std::min(cc_minor, 99));
}

std::uint64_t cuda_speed_key(std::string_view compute_class) {
  if (!starts_with(compute_class, "sm_")) return 0;
  auto number = leading_number(compute_class.substr(3));
  if (!number || *number > 10000) return 0;
  // sm_90 -> 9.0, sm_100 -> 10.0, sm_120 -> 12.0
  return cuda_speed_key(int(*number / 10), int(*number % 10));
}

std::vector<std::size_t> cuda_device_order(const std::vector<CudaGpu>& gpus,
                                           const std::optional<std::string>& device_order) {
  std::vector<std::size_t> order(gpus.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  const bool by_bus = device_order && trim(*device_order) == "PCI_BUS_ID";
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (!by_bus && gpus[a].speed != gpus[b].speed) return gpus[a].speed > gpus[b].speed;
    return to_lower(gpus[a].pci_bus_id) < to_lower(gpus[b].pci_bus_id);
  });
  return order;
}

CudaEnumeration cuda_enumerate(const std::vector<CudaGpu>& gpus,
                               const std::optional<std::string>& visible_devices,
                               const std::optional<std::string>& device_order) {
  CudaEnumeration out;
  const auto order = cuda_device_order(gpus, device_order);
  std::vector<CudaDeviceRef> named;
  if (!visible_devices) {
    for (auto g : order) named.push_back({g, std::nullopt});
  } else if (!trim(*visible_devices).empty()) {
    for (auto piece : split(*visible_devices, ',')) {
      const auto token = trim(piece);
      auto r = resolve(gpus, order, token);
      if (!r.device) {
        out.stopped_at = printable_line(token, 60);
        out.problem = quoted(token) + " " + r.why + "; CUDA ignores it and every entry after it";
        break;
      }
      if (std::find(named.begin(), named.end(), *r.device) != named.end()) {
        out.stopped_at = printable_line(token, 60);
        out.problem = quoted(token) + " names a device named before; CUDA then shows no device";
        return out;
      }
      named.push_back(*r.device);
    }
  }
  // A MIG-enabled GPU stands for its first MIG device.
  std::vector<CudaDeviceRef> units;
  for (const auto& d : named) {
    const auto& gpu = gpus[d.gpu];
    if (d.mig || !gpu.mig_enabled) {
      units.push_back(d);
    } else if (!gpu.mig.empty()) {
      CudaDeviceRef first{d.gpu, std::size_t{0}};
      if (std::find(units.begin(), units.end(), first) == units.end()) units.push_back(first);
    }
  }
  const bool any_whole =
      std::any_of(units.begin(), units.end(), [](const CudaDeviceRef& d) { return !d.mig; });
  std::size_t migs_dropped = 0;
  for (const auto& d : units) {
    if (d.mig && (any_whole || std::any_of(out.devices.begin(), out.devices.end(),
                                           [](const CudaDeviceRef& x) { return bool(x.mig); }))) {
      ++migs_dropped;
      continue;
    }
    out.devices.push_back(d);
  }
  if (migs_dropped > 0 && out.problem.empty())
    out.problem = any_whole ? "CUDA shows no MIG device beside a whole GPU"
                            : "CUDA shows one MIG device per process";
  return out;
}

std::string cuda_visible_token(const std::vector<CudaGpu>& gpus, const CudaDeviceRef& device) {
  if (device.gpu >= gpus.size()) return "";
  const auto& gpu = gpus[device.gpu];
  if (!device.mig) return gpu.uuid;
  if (*device.mig >= gpu.mig.size()) return "";
  const auto& mig = gpu.mig[*device.mig];
  if (!mig.uuid.empty()) return mig.uuid;
  if (!gpu.uuid.empty() && mig.gpu_instance_id && mig.compute_instance_id)
    return "MIG-" + gpu.uuid + "/" + std::to_string(*mig.gpu_instance_id) + "/" +
           std::to_string(*mig.compute_instance_id);
  return "";
}

}  // namespace hwaccel
