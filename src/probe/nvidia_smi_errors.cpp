#include "src/probe/nvidia_smi_errors.h"

#include <algorithm>
#include <array>

#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

struct KnownError {
  std::string_view phrase;  // matched without regard to case
  ReasonCode code;
};

// Phrases from real nvidia-smi failures; the first found in the text wins, so
// the driver-level ones come before their consequences.
constexpr std::array<KnownError, 7> kKnownErrors = {{
    {"communicate with the nvidia driver", ReasonCode::driver_not_found},
    {"find libnvidia-ml.so", ReasonCode::driver_not_found},
    {"driver/library version mismatch", ReasonCode::probe_failed},
    {"insufficient permissions", ReasonCode::permission_denied},
    {"gpu is lost", ReasonCode::probe_failed},
    {"no devices were found", ReasonCode::no_device},
    {"no devices found", ReasonCode::no_device},
}};

}  // namespace

std::optional<Reason> known_nvidia_smi_error(std::string_view output) {
  // Search the whole text once per phrase; `lower` has the same length as
  // `plain`, so a match's line is found at the same offsets in both.
  const std::string plain = strip_ansi(output);
  const std::string lower = to_lower(plain);
  for (const auto& known : kKnownErrors) {
    auto at = lower.find(known.phrase);
    if (at == std::string::npos) continue;
    auto start = lower.rfind('\n', at);
    start = start == std::string::npos ? 0 : start + 1;
    auto end = lower.find('\n', at);
    auto line = std::string_view(plain).substr(start, end == std::string::npos ? end : end - start);
    return Reason{known.code, printable_line(line)};
  }
  return std::nullopt;
}

Reason classify_nvidia_smi_failure(std::string_view output, int exit_code) {
  if (auto known = known_nvidia_smi_error(output)) return *known;
  std::string line = first_meaningful_line(output);
  if (line.empty())
    line = "nvidia-smi exited with status " + std::to_string(exit_code) + " and printed nothing";
  return Reason{ReasonCode::probe_failed, line};
}

std::vector<std::string> rejected_query_fields(std::string_view output) {
  static constexpr std::string_view kOpen = "Field \"";
  static constexpr std::string_view kClose = "\" is not a valid field to query";
  std::vector<std::string> fields;
  for (auto line : split_lines(output)) {
    auto open = line.find(kOpen);
    if (open == std::string_view::npos) continue;
    auto start = open + kOpen.size();
    auto close = line.find(kClose, start);
    if (close == std::string_view::npos) continue;
    std::string field(trim(line.substr(start, close - start)));
    if (!field.empty() && std::find(fields.begin(), fields.end(), field) == fields.end())
      fields.push_back(std::move(field));
  }
  return fields;
}

}  // namespace hwaccel
