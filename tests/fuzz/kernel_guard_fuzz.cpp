// libFuzzer target: scan_source (a kernel tree's .cu regions) and
// evaluate_guard (#if expressions). Every condition the scanner accepted must
// parse again; a parse error must carry a column inside the text.
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "src/kernels/guard_expr.h"
#include "src/kernels/source_scan.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto scan = hwaccel::kernels::scan_source(text, "fuzz.cu");
  if (scan.ok) {
    for (const auto& k : scan.kernels)
      for (const auto& c : k.conditions)
        if (!hwaccel::kernels::evaluate_guard(c.expr, {{"A", 1}}).ok) std::abort();
  } else if (scan.error.rfind("fuzz.cu:", 0) != 0) {
    std::abort();  // every error is located
  }
  auto g = hwaccel::kernels::evaluate_guard(text, {{"A", 1}, {"ARCH", 900}});
  if (!g.ok && (g.column < 1 || g.column > static_cast<int>(size) + 1)) std::abort();
  return 0;
}
