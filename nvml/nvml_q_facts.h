// The per-GPU facts NVML answers that only `nvidia-smi -q` prints (persistence and
// compute mode, serial and minor number, BAR1, reserved memory, temperature, power, clocks,
// utilisation, addressing mode), read from a recorded -q where the snapshot has
// one. -q is a hostile text: lines are bounded, anything unreadable is left out.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "nvml/nvml_fields.h"

namespace hwaccel::nvml {

struct QFacts {
  std::optional<bool> persistence;
  std::optional<int> compute_mode;  // NVML_COMPUTEMODE_*: Default 0, Exclusive_Thread 1, ...
  std::string serial;
  std::optional<unsigned> minor_number;
  std::optional<std::uint64_t> bar1_total, bar1_used, bar1_free;  // bytes
  std::optional<std::uint64_t> fb_reserved;  // "FB Memory Usage"'s Reserved (bytes)
  std::optional<unsigned> temperature_c;
  std::optional<unsigned> power_mw, power_limit_mw;  // the GPU's, not the module's
  std::optional<unsigned> clock_graphics_mhz, clock_sm_mhz, clock_memory_mhz;
  std::optional<unsigned> utilization_gpu, utilization_memory;  // percent
  std::string addressing_mode;  // "None", "HMM", "ATS"; "" when not printed
  // Every monitoring line -q prints, under the --query-gpu name of the same value
  // ("temperature.gpu" from Temperature / GPU Current Temp) or, for what no query
  // field holds, a "q." name ("q.board_part_number"); units cut.
  Cells cells;
};

struct QReport {
  std::string cuda_version;              // the header's "CUDA Version : 13.1"
  std::map<std::string, QFacts> by_bus;  // "0000:83:00.0" -> its facts
};

QReport parse_q_facts(std::string_view text);

}  // namespace hwaccel::nvml
