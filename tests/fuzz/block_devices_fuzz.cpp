// libFuzzer target: block_devices (/sys/block size, queue/rotational, and the kind from a link
// target). Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "src/system/block_devices.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)hwaccel::parse_block_size_bytes(text);
  (void)hwaccel::parse_rotational(text);
  hwaccel::BlockFacts facts;
  facts.name = std::string(text.substr(0, text.size() / 2));
  facts.link_target = std::string(text.substr(text.size() / 2));
  (void)hwaccel::classify_block_device(facts);
  return 0;
}
