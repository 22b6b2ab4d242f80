// libFuzzer target: the amdgpu DRM sysfs attributes (sizes, uevent, PCI addresses, partitions).
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <string>
#include <vector>

#include "src/probe/amdgpu_sysfs.h"
#include "src/vocabulary/text_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)hwaccel::is_drm_card_name(text);
  (void)hwaccel::parse_sysfs_bytes(text);
  (void)hwaccel::parse_drm_device_uevent(text);
  (void)hwaccel::normalize_pci_address(text);
  if (auto parts = hwaccel::parse_pci_address(text)) (void)parts->devfn_id();
  (void)hwaccel::link_basename(text);
  (void)hwaccel::parse_partition_mode(text);
  std::vector<std::string> names;
  for (auto line : hwaccel::split_lines(text)) names.emplace_back(line);
  (void)hwaccel::render_minor_from_names(names);
  return 0;
}
