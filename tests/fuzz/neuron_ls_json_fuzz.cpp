// libFuzzer target: neuron-ls --json-output (AWS Neuron), its no-driver message and the
// instance-family catalogue. Built only with HWACCEL_FUZZ=ON and clang; run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/catalog/neuron_ids.h"
#include "src/probe/neuron_ls_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto out = hwaccel::parse_neuron_ls_json(text);
  for (const auto& d : out.devices) (void)hwaccel::neuron_generation_of_instance(d.instance_type);
  (void)hwaccel::is_neuron_no_driver_message(text);
  (void)hwaccel::neuron_generation_of_instance(text);
  return 0;
}
