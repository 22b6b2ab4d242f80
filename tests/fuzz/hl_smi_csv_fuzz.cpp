// libFuzzer target: hl-smi -Q ... -f csv (Intel Gaudi) and the Habana catalogue.
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/catalog/habana_ids.h"
#include "src/probe/hl_smi_csv.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto query = hwaccel::parse_hl_smi_query(text);
  for (const auto& d : query.devices) (void)hwaccel::gaudi_generation_of_product(d.name);
  (void)hwaccel::gaudi_generation_of_product(text);
  return 0;
}
