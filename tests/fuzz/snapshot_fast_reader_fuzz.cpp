// libFuzzer target: the fast snapshot reader against the yaml-cpp reader
// (src/snapshot/fast_reader.h). On any text, either the fast reader gives up,
// or both read it and agree; the fast reader never accepts what yaml-cpp
// refuses; read in place (taking the text's buffer), it reads the same.
// Built only with HWACCEL_FUZZ=ON and clang; run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "src/snapshot/fast_reader.h"
#include "src/snapshot/snapshot_codec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  hwaccel::Snapshot fast;
  if (!hwaccel::read_snapshot_fast(text, fast)) return 0;  // gave up: the yaml-cpp path decides
  hwaccel::Snapshot slow;
  if (auto error = hwaccel::parse_snapshot_with_yaml_cpp(text, "fuzz.yaml", slow)) {
    std::fprintf(stderr, "the fast reader accepted what yaml-cpp refuses: %s\n",
                 error->to_string().c_str());
    std::abort();
  }
  if (!(fast == slow)) {
    std::fprintf(stderr, "the fast reader and yaml-cpp read different snapshots\n");
    std::abort();
  }
  // Given the text to take (a file's block longer than half of it keeps the
  // buffer, un-indented in place): the same snapshot.
  std::string owned(text);
  hwaccel::Snapshot in_place;
  if (hwaccel::fast_reader_stop(owned, in_place, nullptr, &owned) != std::string_view::npos ||
      !(in_place == fast)) {
    std::fprintf(stderr, "the fast reader read the text in place differently\n");
    std::abort();
  }
  return 0;
}
