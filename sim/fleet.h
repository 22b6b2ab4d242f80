// Fleets: detection over many hosts, one at a time (memory does not grow with
// the count), folded into an aggregate: hosts by family, ready versus
// unavailable by reason, the device each host's default selection picks.
// Hosts come from a folder of snapshots or are drawn from one spec: the spec is
// synthesised once and each host is that snapshot with random faults (sim/mutate.h).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "sim/fault.h"
#include "sim/spec.h"
#include "src/registry/detection.h"
#include "src/registry/reserve.h"
#include "src/snapshot/snapshot.h"

namespace hwaccel::sim {

// A hook for questions asked of every host beyond detection (planning: "can
// this host serve MODEL at QUANT?", sim/fleet_plan.h). Given the host's detection
// before the reserve and the reserve that host uses, returns the column's value
// for the host ("fits: ...", "does not fit: ..."), which the aggregate counts.
// Unset: no such column.
using HostVerdict =
    std::function<std::string(const Detection& detected, std::uint64_t reserve_bytes)>;

struct FleetAggregate {
  std::size_t hosts = 0;
  std::size_t hosts_ready = 0;  // every accelerator (or, without any, the CPU) ready
  std::map<std::string, std::size_t> families;           // "8x NVIDIA H100 80GB HBM3" -> hosts
  std::map<std::string, std::size_t> hosts_by_reason;    // reason code -> hosts with a device so
  std::map<std::string, std::size_t> devices_by_state;   // "ready" / reason code -> devices
  std::map<std::string, std::size_t> backends_by_state;  // "cuda ready" / "cuda timeout" -> hosts
  std::map<std::string, std::size_t> selected;           // "cuda: NVIDIA H100 ..." -> hosts
  std::map<std::string, std::size_t> verdicts;           // HostVerdict value -> hosts
  std::map<std::string, std::size_t> errors;             // unreadable snapshots, by message

  // `verdict`: the host's HostVerdict value; empty: no verdict column.
  void add(const Detection& detection_after_reserve, const std::string& verdict = "");
  void merge(const FleetAggregate& other);
};

// "8x NVIDIA H100 80GB HBM3", "1x NVIDIA GeForce RTX 4090 + 1x AMD Radeon Graphics
// (Raphael)", "cpu-only": whole accelerators by name, partitions left out.
std::string host_family(const Detection& detection);

// Detects on one snapshot, applies the reserve its environment gives (or
// `reserve`), and adds it to `aggregate`.
void add_snapshot(FleetAggregate& aggregate, Snapshot snapshot, const Reserve& reserve,
                  const HostVerdict& verdict = {});

std::string render_fleet(const FleetAggregate& aggregate, const std::string& verdict_title = "");

// How hosts drawn from one spec differ from it.
struct FleetDraw {
  double fault_rate = 0.05;  // a host's accelerator driver or tool breaks (one fault)
  double busy_rate = 0.30;   // a GPU has most of its memory in use
};

// The faults of host `index` of a fleet drawn from `base` with `seed`: the same
// (seed, index) always gives the same faults.
std::vector<Fault> draw_faults(const Snapshot& base, std::uint64_t seed, std::uint64_t index,
                               const FleetDraw& draw = {});

}  // namespace hwaccel::sim
