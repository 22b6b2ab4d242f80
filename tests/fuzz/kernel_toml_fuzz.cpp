// libFuzzer target: the kernel tree's TOML files (DEVICES with [[guard]],
// HARDWARE, FUSIONS, KERNEL_FAMILIES). The first byte picks which file of a
// small valid tree the rest replaces (D, H, F, K); then the tree is parsed and,
// when it is accepted, every class is resolved (a cycle must end as an error).
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "src/kernels/classes.h"
#include "src/kernels/tree.h"
#include "tests/unit/kernels/tiny_tree.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  auto files = hwaccel::kernels::testing::tiny_files();
  std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0]) {
    case 'D':
      files["DEVICES.toml"] = text;
      break;
    case 'F':
      files["FUSIONS.toml"] = text;
      break;
    case 'K':
      files["KERNEL_FAMILIES.toml"] = text;
      break;
    default:
      files["derived/HARDWARE.toml"] = text;
      break;
  }
  auto tree = hwaccel::kernels::parse_tree(files, "fuzz");
  if (!tree.tree) {
    if (tree.error.empty()) std::abort();  // a refusal always says why
    return 0;
  }
  for (const auto& [name, cls] : tree.tree->classes) {
    auto r = hwaccel::kernels::resolve_class(*tree.tree, name);
    if (!r.resolved && r.error.empty()) std::abort();
  }
  return 0;
}
