// RapidCheck generators of whole hosts, as specs: a CPU, memory, accelerators
// drawn from the SKU catalogue with random free memory, and random driver
// states. synthesize() turns each into a snapshot, so properties run through
// the real pipeline (spec -> snapshot -> probes -> registry). Header-only: only
// the property tests link RapidCheck.
#pragma once

#include <rapidcheck.h>

#include <string>
#include <vector>

#include "sim/sku_catalog.h"
#include "sim/spec.h"

namespace hwaccel::sim::gen {

inline rc::Gen<DriverState> driver_state() {
  return rc::gen::weightedElement<DriverState>({{6, DriverState::ok},
                                                {1, DriverState::tool_missing},
                                                {1, DriverState::missing},
                                                {1, DriverState::mismatch}});
}

// One accelerator group: a discrete or unified SKU, 1-8 of them, free memory
// anywhere from nothing to the idle figure.
inline rc::Gen<AcceleratorSpec> accelerator() {
  return rc::gen::mapcat(
      rc::gen::element<std::string>("h100-sxm", "h200-sxm", "a100-sxm4-80gb", "rtx4090", "gb10",
                                    "gh200", "mi300x", "radeon-pro-w7900", "strix-halo"),
      [](const std::string& sku) {
        const bool soc = sku == "gb10" || sku == "gh200" || sku == "strix-halo";
        return rc::gen::map(
            rc::gen::tuple(rc::gen::inRange(1, soc ? 2 : 9), rc::gen::inRange(0, 200000),
                           rc::gen::weightedElement<bool>({{3, false}, {1, true}})),
            [sku](const std::tuple<int, int, bool>& t) {
              AcceleratorSpec a;
              a.sku = sku;
              a.count = std::get<0>(t);
              if (std::get<2>(t)) a.free_bytes = std::uint64_t(std::get<1>(t)) << 20;
              return a;
            });
      });
}

inline rc::Gen<HostSpec> host_spec() {
  return rc::gen::exec([] {
    HostSpec spec;
    spec.label = "generated";
    spec.hostname = "gen";
    spec.cpu.model = "AMD EPYC 9654 96-Core Processor";
    spec.cpu.uarch = "zen4";
    spec.cpu.sockets = *rc::gen::inRange(1, 3);
    spec.cpu.cores = 4;
    const auto groups = *rc::gen::inRange<std::size_t>(0, 3);
    spec.accelerators = *rc::gen::container<std::vector<AcceleratorSpec>>(groups, accelerator());
    spec.drivers["nvidia"].state = *driver_state();
    spec.drivers["amdgpu"].state = *driver_state();
    const std::uint64_t total_mib = *rc::gen::inRange(4096, 2000000);
    const std::uint64_t available_mib = *rc::gen::inRange(0, 4096);
    spec.memory.total_kb = total_mib * 1024;
    spec.memory.available_kb = std::min(available_mib, total_mib) * 1024;
    return spec;
  });
}

// How many physical accelerators the spec puts on the bus.
inline std::size_t device_count(const HostSpec& spec) {
  std::size_t n = 0;
  for (const auto& a : spec.accelerators) n += std::size_t(a.count);
  return n;
}

}  // namespace hwaccel::sim::gen
