// RapidCheck generators of whole hosts: a small spec (GPUs with memory, free
// memory, unified or not; the state of the NVIDIA driver) turned into a
// snapshot with the files and tool output a real host of that kind has, so
// properties run through the real pipeline (snapshot -> probes -> registry).
#pragma once

#include <rapidcheck.h>

#include <cstdio>
#include <string>
#include <vector>

#include "src/probe/cuda_probe.h"
#include "src/snapshot/snapshot.h"

namespace hwaccel::prop {

struct GpuSpec {
  int total_mib = 81559;
  int free_mib = 81007;
  bool unified = false;  // memory fields [N/A], as GB10 prints them
};

enum class DriverState { ok, tool_missing, driver_missing, mismatch };

struct HostSpec {
  std::vector<GpuSpec> gpus;
  DriverState driver = DriverState::ok;
  int mem_total_mib = 65536;
  int mem_available_mib = 60000;
};

inline rc::Gen<GpuSpec> gpu_spec() {
  return rc::gen::build<GpuSpec>(
      rc::gen::set(&GpuSpec::total_mib, rc::gen::inRange(1024, 200000)),
      rc::gen::set(&GpuSpec::free_mib, rc::gen::inRange(0, 200000)),
      rc::gen::set(&GpuSpec::unified, rc::gen::weightedElement<bool>({{9, false}, {1, true}})));
}

inline rc::Gen<HostSpec> host_spec() {
  return rc::gen::build<HostSpec>(
      rc::gen::set(&HostSpec::gpus,
                   rc::gen::mapcat(rc::gen::inRange<std::size_t>(0, 9),
                                   [](std::size_t n) {
                                     return rc::gen::container<std::vector<GpuSpec>>(n, gpu_spec());
                                   })),
      rc::gen::set(&HostSpec::driver,
                   rc::gen::weightedElement<DriverState>({{6, DriverState::ok},
                                                          {1, DriverState::tool_missing},
                                                          {1, DriverState::driver_missing},
                                                          {1, DriverState::mismatch}})),
      rc::gen::set(&HostSpec::mem_total_mib, rc::gen::inRange(4096, 2000000)),
      rc::gen::set(&HostSpec::mem_available_mib, rc::gen::inRange(0, 4096)));
}

inline std::string bus_id(std::size_t i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "00000000:%02zX:00.0", 0x18 + i * 0x10);
  return buf;
}

inline Snapshot synthesize(const HostSpec& spec) {
  Snapshot s;
  s.host.label = "generated";
  s.host.origin = "synthesized";
  s.facts = Facts{"linux", "x86_64", "6.8.0-generic", 4096, 8, "gen"};
  const long avail = std::min(spec.mem_available_mib, spec.mem_total_mib);
  s.files["/proc/meminfo"] =
      FileEntry::of_content("MemTotal:       " + std::to_string(long(spec.mem_total_mib) * 1024) +
                            " kB\n" + "MemFree:        " + std::to_string(avail * 1024 / 2) +
                            " kB\n" + "MemAvailable:   " + std::to_string(avail * 1024) + " kB\n");
  s.files["/proc/cpuinfo"] = FileEntry::of_content(
      "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 9654 96-Core Processor\n"
      "flags\t\t: fpu sse2 avx2 avx512f\n\n");
  ToolEntry query;
  query.argv = cuda_query_argv(cuda_query_fields());
  switch (spec.driver) {
    case DriverState::tool_missing:
      query.run.outcome = ToolOutcome::not_found;
      break;
    case DriverState::driver_missing:
      query.run.exit_code = 9;
      query.run.out =
          "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure "
          "that the latest NVIDIA driver is installed and running.\n\n";
      break;
    case DriverState::mismatch:
      query.run.exit_code = 18;
      query.run.out =
          "Failed to initialize NVML: Driver/library version mismatch\nNVML library version: "
          "580.95\n";
      break;
    case DriverState::ok: {
      if (spec.gpus.empty()) {  // what nvidia-smi says with a driver and no GPU
        query.run.exit_code = 6;
        query.run.out = "No devices were found\n";
        break;
      }
      std::string csv =
          "index, uuid, pci.bus_id, name, memory.total [MiB], memory.used [MiB], memory.free "
          "[MiB], "
          "compute_cap, driver_version\n";
      for (std::size_t i = 0; i < spec.gpus.size(); ++i) {
        const GpuSpec& g = spec.gpus[i];
        char uuid[64];
        std::snprintf(uuid, sizeof uuid, "GPU-%08zx-0000-4000-8000-000000000000", i + 1);
        std::string mem;
        if (g.unified) {
          mem = "[N/A], [N/A], [N/A]";
        } else {
          int free_mib = std::min(g.free_mib, g.total_mib);
          mem = std::to_string(g.total_mib) + " MiB, " + std::to_string(g.total_mib - free_mib) +
                " MiB, " + std::to_string(free_mib) + " MiB";
        }
        csv += std::to_string(i) + ", " + uuid + ", " + bus_id(i) + ", NVIDIA H100 80GB HBM3, " +
               mem + ", 9.0, 580.95.05\n";
      }
      query.run.out = csv;
      break;
    }
  }
  s.tools[query.argv] = query;
  return s;
}

}  // namespace hwaccel::prop
