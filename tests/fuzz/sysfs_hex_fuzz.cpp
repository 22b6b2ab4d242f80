// libFuzzer target: the PCI sysfs attributes (vendor, device, class: hex; numa_node).
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/probe/pci_bus.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)hwaccel::parse_sysfs_hex(text);
  (void)hwaccel::parse_sysfs_numa_node(text);
  return 0;
}
