// libFuzzer target: the snapshot loader (parse_snapshot), the door for untrusted
// snapshot files. Beyond "no crash": a snapshot that loads must save, load back
// to the same snapshot and save to the same bytes (docs/snapshot-format.md).
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "src/snapshot/snapshot_codec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  hwaccel::Snapshot first;
  if (hwaccel::parse_snapshot(text, "fuzz.yaml", first)) return 0;  // refused: fine
  std::string saved = hwaccel::write_snapshot(first);
  hwaccel::Snapshot second;
  if (auto error = hwaccel::parse_snapshot(saved, "saved.yaml", second)) {
    std::fprintf(stderr, "round trip: the saved snapshot does not load: %s\n---\n%s\n---\n",
                 error->to_string().c_str(), saved.c_str());
    std::abort();
  }
  if (!(first == second)) {
    std::fprintf(stderr, "round trip: load(save(s)) != s\n---\n%s\n---\n", saved.c_str());
    std::abort();
  }
  if (hwaccel::write_snapshot(second) != saved) {
    std::fprintf(stderr, "round trip: save is not stable\n---\n%s\n---\n", saved.c_str());
    std::abort();
  }
  return 0;
}
