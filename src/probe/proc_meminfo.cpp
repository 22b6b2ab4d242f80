#include "src/probe/proc_meminfo.h"

#include <map>
#include <string>

#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

// "125508468 kB" -> bytes. A number without its unit (a line cut short, or the
// HugePages_ counts this parser does not need) is no amount.
std::optional<std::uint64_t> parse_amount(std::string_view value) {
  auto space = value.find_first_of(" \t");
  if (space == std::string_view::npos) return std::nullopt;
  auto number = parse_u64(value.substr(0, space));
  if (!number || trim(value.substr(space)) != "kB") return std::nullopt;
  return checked_multiply(*number, 1024);
}

}  // namespace

MemInfo parse_proc_meminfo(std::string_view text) {
  // First occurrence wins: a duplicated line (a corrupted file) cannot move a figure.
  std::map<std::string, std::uint64_t, std::less<>> fields;
  for (auto line : split_lines(text)) {
    auto kv = split_key_value(line);
    if (!kv || kv->key.empty()) continue;
    if (auto amount = parse_amount(kv->value)) fields.emplace(std::string(kv->key), *amount);
  }
  auto field = [&](std::string_view name) -> std::optional<std::uint64_t> {
    auto it = fields.find(name);
    if (it == fields.end()) return std::nullopt;
    return it->second;
  };

  MemInfo info;
  info.total_bytes = field("MemTotal");
  info.available_bytes = field("MemAvailable");
  if (!info.available_bytes) {
    auto free = field("MemFree"), buffers = field("Buffers"), cached = field("Cached");
    if (free) {
      std::optional<std::uint64_t> sum = free;
      for (auto part : {buffers.value_or(0), cached.value_or(0)}) {
        if (sum && *sum <= UINT64_MAX - part)
          sum = *sum + part;
        else
          sum.reset();  // cannot happen on a real machine; garbage must not wrap
      }
      info.available_bytes = sum;
      info.available_estimated = sum.has_value();
    }
  }
  return info;
}

}  // namespace hwaccel
