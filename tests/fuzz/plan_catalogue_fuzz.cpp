// libFuzzer target: parse_catalogue (hwaccel plan --devices DEVICES.toml, format
// hwaccel-devices/1), and the look-ups a plan makes in a catalogue that loaded.
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "src/plan/catalogue.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto result = hwaccel::plan::parse_catalogue(text, "fuzz.toml");
  if (!result.catalogue) {
    if (result.error.rfind("fuzz.toml", 0) != 0) std::abort();  // located, always
    return 0;
  }
  const auto& c = *result.catalogue;
  for (const auto& sku : c.skus) {
    if (c.find(sku.id) != &sku) std::abort();  // ids are unique
    if (!c.perf(sku)) std::abort();            // every perf class is defined
    for (const auto& f : hwaccel::plan::known_formats()) (void)sku.peak(f);
    hwaccel::Entry entry;
    entry.name = sku.name;
    if (!sku.pci.empty()) {
      entry.pci_vendor_id = sku.pci.front().first;
      entry.pci_device_id = sku.pci.front().second;
    }
    (void)c.match(entry);
  }
  (void)c.ids();
  return 0;
}
