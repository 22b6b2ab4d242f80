// libFuzzer target: infiniband (/sys/class/infiniband port state and rate, device link targets).
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "src/system/infiniband.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)hwaccel::parse_ib_port_state(text);
  (void)hwaccel::parse_ib_rate(text);
  (void)hwaccel::pci_address_from_link(text);
  return 0;
}
