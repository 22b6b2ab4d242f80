// When a snapshot was taken, for what a simulated tool stamps with the time
// (nvidia-smi's Timestamp line, NVML's sample and process timestamps): the
// snapshot's recorded_at, else the time a recorded nvidia-smi output printed.
// Recorded text is hostile: anything that is not a plain time is ignored.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "src/snapshot/snapshot.h"

namespace hwaccel {

// Seconds since 1970 (UTC) of "YYYY-MM-DDTHH:MM:SS..." (recorded_at),
// "YYYY/MM/DD HH:MM:SS.mmm" (--query-gpu's timestamp) or "Www Mmm dd HH:MM:SS YYYY"
// (the table's first line and -q's Timestamp); nullopt otherwise or before 1970.
std::optional<std::int64_t> parse_recorded_time(std::string_view text);

// The snapshot's time as "YYYY-MM-DDTHH:MM:SSZ": recorded_at where it is a time,
// else the first time a recorded nvidia-smi run printed (its -q Timestamp, its
// table's header, a --query-gpu timestamp cell); "" where the snapshot has none.
std::string recorded_time_of(const Snapshot& snapshot);

// "YYYY-MM-DDTHH:MM:SSZ" of seconds since 1970.
std::string iso_time_of(std::int64_t seconds);

}  // namespace hwaccel
