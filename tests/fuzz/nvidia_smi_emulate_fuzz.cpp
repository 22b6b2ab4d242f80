// libFuzzer target: the nvidia-smi emulator (sim/emulate/) on a hostile snapshot
// and any argv. The input's first line is the argv (words split at spaces, at
// most 12), the rest the stdout of a recorded `--query-gpu=... --format=csv` run
// that the emulator reads cells from. It must never crash, always answer with one
// of the tool's statuses, and answer the same bytes twice (a pure function).
// The same argv and text then go to the Mac tools (sysctl, system_profiler) of a
// darwin snapshot whose recorded `sysctl -n` runs printed that text.
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "sim/emulate/apple_tools.h"
#include "sim/emulate/nvidia_smi.h"

namespace {

hwaccel::Entry gpu(int index, std::string bus) {
  hwaccel::Entry e;
  e.backend = "cuda";
  e.api = "nvidia-smi";
  e.index = index;
  e.physical_id = "pci:" + bus;
  e.name = "NVIDIA H100 80GB HBM3";
  e.pci_bus_id = bus;
  e.pci_vendor_id = 0x10de;
  e.pci_device_id = 0x2330;
  e.uuid = "GPU-" + std::to_string(index);
  e.type = hwaccel::DeviceType::gpu;
  e.memory.total_bytes = 85520809984ull;
  e.memory.free_bytes = 84957724672ull;
  e.compute_class = "sm_90";
  e.driver_version = "550.54.15";
  return e;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto nl = text.find('\n');
  std::string_view first = text.substr(0, nl);
  std::string rest(nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1));
  std::vector<std::string> argv = {"nvidia-smi"};
  std::size_t at = 0;
  while (at <= first.size() && argv.size() < 13) {
    auto sp = first.find(' ', at);
    argv.emplace_back(
        first.substr(at, sp == std::string_view::npos ? std::string_view::npos : sp - at));
    if (sp == std::string_view::npos) break;
    at = sp + 1;
  }
  hwaccel::Snapshot snapshot;
  hwaccel::ToolEntry run;
  run.argv = {"nvidia-smi", "--query-gpu=index,memory.used,fan.speed", "--format=csv"};
  run.run.outcome = hwaccel::ToolOutcome::exited;
  run.run.out = rest;
  snapshot.tools.emplace(run.argv, run);
  hwaccel::Detection detection;
  detection.entries.push_back(gpu(0, "0000:1b:00.0"));
  detection.entries.push_back(gpu(1, "0000:43:00.0"));
  hwaccel::Entry mig = gpu(2, "0000:43:00.0");
  mig.physical_id = "mig:0000:43:00.0/0";
  mig.partition = hwaccel::Partition{"3g.40gb", "pci:0000:43:00.0", 1, 2, 0};
  detection.entries.push_back(mig);
  detection.links.push_back({"pci:0000:1b:00.0", "pci:0000:43:00.0", "nvlink", 18, "", ""});
  const hwaccel::sim::EmulatedHost host{snapshot, detection};
  const auto a = hwaccel::sim::emulate_nvidia_smi(host, argv);
  const auto b = hwaccel::sim::emulate_nvidia_smi(host, argv);
  if (a.out != b.out || a.err != b.err || a.exit_code != b.exit_code) std::abort();
  if (a.exit_code != 0 && a.exit_code != 2 && a.exit_code != 6) std::abort();

  hwaccel::Snapshot mac;
  mac.facts.os = "darwin";
  mac.facts.kernel = first.size() < 16 ? std::string(first) : "24.0.0";
  mac.facts.cpus = static_cast<std::int64_t>(size) - 8;
  for (const char* name : {"hw.memsize", "machdep.cpu.brand_string", "hw.ncpu"}) {
    hwaccel::ToolEntry sysctl;
    sysctl.argv = {"sysctl", "-n", name};
    sysctl.run.outcome = hwaccel::ToolOutcome::exited;
    sysctl.run.out = rest;
    mac.tools.emplace(sysctl.argv, sysctl);
  }
  hwaccel::Detection apple;
  hwaccel::Entry m = gpu(0, "");
  m.backend = "apple";
  m.name = rest.substr(0, 64);
  m.compute_class = "metal3";
  apple.entries.push_back(m);
  const hwaccel::sim::EmulatedHost mac_host{mac, apple};
  for (auto emulate : {hwaccel::sim::emulate_sysctl, hwaccel::sim::emulate_system_profiler}) {
    const auto x = emulate(mac_host, argv);
    const auto y = emulate(mac_host, argv);
    if (x.out != y.out || x.err != y.err || x.exit_code != y.exit_code) std::abort();
    if (x.exit_code != 0 && x.exit_code != 1 && x.exit_code != 2) std::abort();
  }
  return 0;
}
