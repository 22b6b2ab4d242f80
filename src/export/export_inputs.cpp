#include "src/export/export_inputs.h"

#include "src/export/device_files.h"

namespace hwaccel {

void read_export_inputs(Host& host, const Detection& detection) {
  for (const auto& entry : detection.entries) device_file(host, entry);
}

}  // namespace hwaccel
