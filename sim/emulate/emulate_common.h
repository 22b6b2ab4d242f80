// What every vendor-tool emulator needs: the host's devices of one backend, the
// snapshot's recorded runs and files, and the fixed-width text the tools print.
// Pure helpers over the EmulatedHost: they read nothing else.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/emulate/tool_emulator.h"

namespace hwaccel::sim::emulate {

// The whole devices hwaccel found for `backend` (partitions left out), by index.
std::vector<const Entry*> devices_of(const Detection& detection, std::string_view backend);

// The backend's line, or nullptr when the detection has none.
const BackendStatus* backend_of(const Detection& detection, std::string_view backend);

// True when the backend's reason says the kernel driver is missing or broken.
bool driver_missing(const Detection& detection, std::string_view backend);

// A recorded run of exactly `argv` that exited 0, or nullptr.
const ToolEntry* recorded_ok(const Snapshot& snapshot, const std::vector<std::string>& argv);

// A recorded regular file's bytes, trimmed of surrounding white space; nullopt otherwise.
std::optional<std::string> recorded_text(const Snapshot& snapshot, const std::string& path);

std::string pad_right(std::string_view text, std::size_t width);
std::string pad_left(std::string_view text, std::size_t width);
// `text` centred in `width` columns of `fill` with one space each side (rocm-smi's banners).
std::string banner(std::string_view text, std::size_t width, char fill = '=');

std::uint64_t mib_of(std::uint64_t bytes);

// "0000:3b:00.0" -> "3b:00.0".
std::string short_bdf(std::string_view bdf);

// The answer a tool gives to an option it does not know: its usage on stderr.
ToolAnswer usage_error(std::string err, int exit_code);

// A JSON string literal (quotes and escapes).
std::string json_quote(std::string_view text);

}  // namespace hwaccel::sim::emulate
