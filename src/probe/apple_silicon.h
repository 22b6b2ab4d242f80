// What Apple does not print: which SoC a device-tree "compatible" names (Asahi
// Linux), how many Neural Engine cores a chip has, and how much of the unified
// memory Metal recommends a process keep resident (its working-set limit).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel {

// /proc/device-tree/compatible: NUL-separated strings, e.g.
// "apple,j316c\0apple,t6001\0apple,arm-platform\0". The SoC's marketing name
// ("Apple M1 Max") from the first apple,tNNNN string; "" when none is known.
// `soc` receives the id ("t6001"), "" when there is no apple,t string.
std::string apple_soc_name(std::string_view compatible, std::string* soc = nullptr);

// true when any of the strings starts with "apple,".
bool is_apple_device_tree(std::string_view compatible);

// The physical_id of one block of an Apple SoC, shared by every API that reaches
// it (Metal and MoltenVK for the GPU): ("Apple M3 Max", "gpu") -> "soc:apple-m3-max/gpu".
std::string apple_soc_physical_id(std::string_view chip, std::string_view part);

// Neural Engine cores: 32 on an Ultra (two dies), 16 on every other M-series chip.
int apple_neural_engine_cores(std::string_view chip_name);

// Metal's recommendedMaxWorkingSetSize as macOS 13-15 set it: 2/3 of RAM up to
// 36 GiB, 3/4 above (16 GiB -> 10922.67 MiB, 32 GiB -> 21845.34 MiB, 96 GiB ->
// 73728 MiB, 192 GiB -> 147456 MiB in ggml's logs). `wired_limit_mb` is
// iogpu.wired_limit_mb: when it is set (non-zero) Metal reports that instead.
struct WorkingSet {
  std::uint64_t bytes = 0;
  std::string rule;  // how it was computed, for memory.source
};
WorkingSet apple_working_set(std::uint64_t memsize, std::optional<std::uint64_t> wired_limit_mb);

}  // namespace hwaccel
