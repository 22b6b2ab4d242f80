// libFuzzer target: parse_ttar (hwsim import --ttar) and the tree it describes.
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sim/ttar.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto archive = hwaccel::sim::parse_ttar(text);
  hwaccel::sim::MemoryTree tree(archive.entries, hwaccel::sim::ttar_common_prefix(archive.entries));
  if (auto names = tree.list("/"); names.ok())
    for (const auto& name : *names) (void)tree.read("/" + name, 1024);
  return 0;
}
