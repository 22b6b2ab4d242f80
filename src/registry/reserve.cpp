#include "src/registry/reserve.h"

#include <cctype>
#include <cmath>
#include <map>
#include <set>

namespace hwaccel {

std::string format_mib(std::uint64_t bytes) {
  return std::to_string(bytes >> 20) + " MiB";
}

ReserveChoice choose_reserve(const std::optional<std::string>& flag,
                             const std::optional<std::string>& env_value) {
  ReserveChoice choice;
  if (flag) {
    auto bytes = parse_size(*flag);
    if (!bytes) {
      choice.error = "--reserve: \"" + *flag +
                     "\" is not a size (expected bytes or a number with K, M, G or T, e.g. 4G)";
      return choice;
    }
    choice.reserve = Reserve{*bytes, "flag"};
    return choice;
  }
  if (env_value) {
    auto bytes = parse_size(*env_value);
    if (!bytes) {
      choice.error = std::string(kReserveEnv) + "=\"" + *env_value +
                     "\" is not a size (expected bytes or a number with K, M, G or T, e.g. 4G)";
      return choice;
    }
    choice.reserve = Reserve{*bytes, "env"};
    return choice;
  }
  choice.reserve = Reserve{};
  return choice;
}

namespace {

// The free memory that counts against the reserve, and what it is.
struct Available {
  std::uint64_t bytes;
  std::string what;
};

std::optional<Available> available_for(const Entry& e) {
  if (e.memory.kind == MemoryKind::unified) {
    if (e.memory.working_set_limit_bytes) {
      std::uint64_t limit = *e.memory.working_set_limit_bytes;
      if (e.memory.free_bytes && *e.memory.free_bytes < limit)
        return Available{*e.memory.free_bytes, "free (below the working-set limit)"};
      return Available{limit, "working-set limit"};
    }
    if (e.memory.free_bytes) return Available{*e.memory.free_bytes, "host MemAvailable"};
    return std::nullopt;
  }
  if (e.memory.free_bytes) return Available{*e.memory.free_bytes, "free"};
  return std::nullopt;
}

}  // namespace

void apply_reserve(Detection& d, const Reserve& reserve) {
  std::map<std::string, std::string> refused;  // physical_id -> detail
  for (auto& e : d.entries) {
    if (e.type == DeviceType::cpu || e.status != EntryStatus::ready) continue;
    auto available = available_for(e);
    if (!available || available->bytes >= reserve.bytes) continue;
    std::string detail = "reserve " + format_mib(reserve.bytes) + " (" + reserve.source + ") > " +
                         available->what + " " + format_mib(available->bytes);
    e.status = EntryStatus::unavailable;
    e.reason = Reason{ReasonCode::reserve_exceeds_free, detail};
    refused.emplace(e.physical_id, detail);
  }
  // Twins seen through APIs that cannot tell free memory share the verdict.
  for (auto& e : d.entries) {
    if (e.status != EntryStatus::ready || available_for(e)) continue;
    auto it = refused.find(e.physical_id);
    if (it == refused.end()) continue;
    e.status = EntryStatus::unavailable;
    e.reason = Reason{ReasonCode::reserve_exceeds_free, it->second + " (seen through another API)"};
  }
}

}  // namespace hwaccel
