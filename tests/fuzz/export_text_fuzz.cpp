// libFuzzer target: the snapshot-borne text the exports read numbers from — a
// device's CPU affinity (Slurm Cores=), its compute class and driver version
// (GFD's major/minor/rev), its name (Slurm Type=), the host's RFC 3339 time.
// The first byte picks the reader, the rest is its input.
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string>

#include "src/export/slurm_text.h"
#include "src/export/time_text.h"
#include "src/export/version_numbers.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 5) {
    case 0:
      (void)hwaccel::slurm_cores(text, 224);
      (void)hwaccel::slurm_file_ranges({text, "/dev/nvidia1", text + "7"});
      break;
    case 1:
      (void)hwaccel::compute_version(text);
      break;
    case 2:
      (void)hwaccel::driver_version_numbers(text);
      break;
    case 3: {
      hwaccel::Entry e;
      e.name = text;
      e.backend = "rocm";
      e.type = hwaccel::DeviceType::gpu;
      (void)hwaccel::slurm_type(e);
      break;
    }
    default:
      if (auto t = hwaccel::rfc3339_to_unix(text)) (void)hwaccel::unix_to_rfc3339(*t);
      break;
  }
  return 0;
}
