#include "src/probe/nvidia_smi_list.h"

#include <cstdint>

#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

constexpr std::size_t kMaxProblems = 5;

// "... (UUID: X)" -> X; "" when there is none.
std::string uuid_of(std::string_view line) {
  static constexpr std::string_view kOpen = "(UUID:";
  auto open = line.rfind(kOpen);
  if (open == std::string_view::npos) return {};
  auto close = line.find(')', open);
  if (close == std::string_view::npos) return {};
  auto start = open + kOpen.size();
  return printable_line(trim(line.substr(start, close - start)), 120);
}

std::optional<int> small_number(std::string_view text) {
  auto value = parse_u64(trim(text));
  if (!value || *value > 1'000'000) return std::nullopt;
  return static_cast<int>(*value);
}

// "GPU 0: NAME (UUID: GPU-...)"
std::optional<NvidiaListedGpu> gpu_line(std::string_view line) {
  if (line.substr(0, 4) != "GPU ") return std::nullopt;
  auto colon = line.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  auto index = small_number(line.substr(4, colon - 4));
  if (!index) return std::nullopt;
  NvidiaListedGpu gpu;
  gpu.index = *index;
  auto rest = line.substr(colon + 1);
  auto paren = rest.rfind(" (UUID:");
  gpu.name = printable_line(trim(rest.substr(0, paren)), 120);
  gpu.uuid = uuid_of(line);
  return gpu;
}

// "MIG 3g.40gb     Device  0: (UUID: MIG-...)"
std::optional<NvidiaMigDevice> mig_line(std::string_view line) {
  if (line.substr(0, 4) != "MIG ") return std::nullopt;
  auto device_at = line.find(" Device ");
  if (device_at == std::string_view::npos) return std::nullopt;
  auto colon = line.find(':', device_at);
  if (colon == std::string_view::npos) return std::nullopt;
  auto number = small_number(line.substr(device_at + 8, colon - device_at - 8));
  auto profile = trim(line.substr(4, device_at - 4));
  if (!number || profile.empty()) return std::nullopt;
  NvidiaMigDevice mig;
  mig.profile = printable_line(profile, 40);
  mig.device = *number;
  mig.uuid = uuid_of(line);
  return mig;
}

}  // namespace

NvidiaSmiList parse_nvidia_smi_list(std::string_view text) {
  NvidiaSmiList list;
  std::size_t dropped = 0;
  auto note = [&](std::string problem) {
    if (list.problems.size() < kMaxProblems)
      list.problems.push_back(std::move(problem));
    else
      ++dropped;
  };
  // Notes give line numbers, never the text: a line may hold a UUID, which a
  // redacted recording replaces.
  const std::string plain = strip_ansi(text);
  std::size_t number = 0;
  for (auto raw : split_lines(plain)) {
    ++number;
    auto line = trim(raw);
    if (line.empty()) continue;
    if (auto gpu = gpu_line(line)) {
      list.gpus.push_back(std::move(*gpu));
      continue;
    }
    if (auto mig = mig_line(line)) {
      if (list.gpus.empty()) {
        note("line " + std::to_string(number) + " is a MIG device before any GPU; skipped");
        continue;
      }
      list.gpus.back().mig_devices.push_back(std::move(*mig));
      continue;
    }
    note("line " + std::to_string(number) + " is neither a GPU nor a MIG device; skipped");
  }
  if (dropped > 0)
    list.problems.push_back("... and " + std::to_string(dropped) + " more like these");
  return list;
}

std::optional<std::uint64_t> mig_profile_memory_bytes(std::string_view profile) {
  auto plus = profile.find('+');
  if (plus != std::string_view::npos) profile = profile.substr(0, plus);
  auto dot = profile.rfind('.');
  auto last = dot == std::string_view::npos ? profile : profile.substr(dot + 1);
  auto lower = to_lower(last);
  if (lower.size() < 3 || lower.compare(lower.size() - 2, 2, "gb") != 0) return std::nullopt;
  auto gb = parse_u64(std::string_view(lower).substr(0, lower.size() - 2));
  if (!gb) return std::nullopt;
  return checked_multiply(*gb, 1'000'000'000ull);
}

}  // namespace hwaccel
