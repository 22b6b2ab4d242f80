// libFuzzer target: nvidia-smi --query-gpu CSV: the table, the GPU query and the cell readers.
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <string>

#include "src/probe/nvidia_smi_csv.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto table = hwaccel::parse_nvidia_smi_csv(text);
  for (const auto& row : table.rows)
    for (std::size_t i = 0; i < row.size(); ++i) {
      (void)hwaccel::is_no_value(row[i]);
      (void)hwaccel::parse_memory_bytes(row[i], i < table.units.size() ? table.units[i] : "");
      (void)hwaccel::normalise_pci_bus_id(row[i]);
      (void)hwaccel::compute_class_from_cap(row[i]);
    }
  (void)hwaccel::parse_nvidia_smi_gpu_query(text);
  return 0;
}
