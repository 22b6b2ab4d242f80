#include "src/probe/nvidia_gpu_information.h"

#include "src/vocabulary/text_util.h"

namespace hwaccel {

NvidiaGpuInformation parse_nvidia_gpu_information(std::string_view text) {
  NvidiaGpuInformation info;
  for (auto line : split_lines(text)) {
    auto kv = split_key_value(line);
    if (!kv) continue;
    if (kv->key == "Model")
      info.model = printable_line(kv->value, 120);
    else if (kv->key == "GPU UUID" && kv->value.find('?') == std::string_view::npos)
      info.uuid = printable_line(kv->value, 80);
    else if (kv->key == "Bus Location")
      info.bus_location = printable_line(kv->value, 40);
    else if (kv->key == "Device Minor")
      if (auto minor = parse_u64(trim(kv->value)); minor && *minor < 254)
        info.minor = unsigned(*minor);
  }
  return info;
}

}  // namespace hwaccel
