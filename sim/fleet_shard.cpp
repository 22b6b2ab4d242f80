#include "sim/fleet_shard.h"

#include <charconv>

#include "sim/mutate.h"

namespace hwaccel::sim {

namespace {

std::optional<std::uint64_t> decimal(std::string_view s) {
  std::uint64_t v = 0;
  if (s.empty() || s.size() > 12) return std::nullopt;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

std::optional<Shard> parse_shard(std::string_view text, std::string& error) {
  const auto slash = text.find('/');
  const auto k = slash == std::string_view::npos ? std::nullopt : decimal(text.substr(0, slash));
  const auto n = slash == std::string_view::npos ? std::nullopt : decimal(text.substr(slash + 1));
  if (!k || !n) {
    error = "expected K/N, two whole numbers (shard K of N, K from 0)";
    return std::nullopt;
  }
  if (*n < 1 || *n > kMaxShards) {
    error = "N must be 1 to " + std::to_string(kMaxShards);
    return std::nullopt;
  }
  if (*k >= *n) {
    error = "K must be 0 to " + std::to_string(*n - 1) +
            " (0-based: JOB_COMPLETION_INDEX, or SLURM_ARRAY_TASK_ID of --array=0-" +
            std::to_string(*n - 1) + ")";
    return std::nullopt;
  }
  return Shard{*k, *n};
}

HostRange shard_range(std::uint64_t hosts, const Shard& s) {
  return {hosts * s.index / s.count, hosts * (s.index + 1) / s.count};
}

std::string add_drawn_host(FleetAggregate& aggregate, const Snapshot& base, std::uint64_t seed,
                           std::uint64_t index, const FleetDraw& draw, const Reserve& reserve,
                           const HostVerdict& verdict) {
  Snapshot host = base;
  auto applied = apply_faults(host, draw_faults(base, seed, index, draw));
  add_snapshot(aggregate, std::move(host), reserve, verdict);
  return applied.ok() ? std::string() : applied.errors.front();
}

}  // namespace hwaccel::sim
