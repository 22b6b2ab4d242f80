// libFuzzer target: the kernel-shaped fill (sim/kernel_fill*.cpp), which parses a
// snapshot's /proc/cpuinfo, /proc/meminfo and PCI attribute files to derive the
// files a kernel would present. The input is NUL-separated parts: cpuinfo,
// meminfo, then a PCI device's vendor, device, class, revision, numa_node and
// driver link target, then a recorded `nvidia-smi topo -m` output (the PCI
// layout reads its matrix and NIC legend; a second device at 0000:18:00.0 is
// the legend's mlx5_0); the first byte sets the CPU count (1-64, kept small so a
// run stays fast). The fill must never touch a recorded path.
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "sim/kernel_fill.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::vector<std::string> parts;
  for (std::size_t at = 0; parts.size() < 9;) {
    auto nul = text.find('\0', at);
    parts.emplace_back(
        text.substr(at, nul == std::string_view::npos ? std::string_view::npos : nul - at));
    if (nul == std::string_view::npos) break;
    at = nul + 1;
  }
  parts.resize(9);
  hwaccel::Snapshot s;
  s.facts.os = "linux";
  s.facts.kernel = "6.8.0";
  s.facts.cpus = 1 + data[0] % 64;
  auto put = [&](const std::string& path, const std::string& bytes) {
    if (!bytes.empty()) s.files.emplace(path, hwaccel::FileEntry::of_content(bytes));
  };
  put("/proc/cpuinfo", parts[0]);
  put("/proc/meminfo", parts[1]);
  const std::string dev = "/sys/bus/pci/devices/0000:1b:00.0/";
  put(dev + "vendor", parts[2]);
  put(dev + "device", parts[3]);
  put(dev + "class", parts[4]);
  put(dev + "revision", parts[5]);
  put(dev + "numa_node", parts[6]);
  if (!parts[7].empty()) s.files.emplace(dev + "driver", hwaccel::FileEntry::of_link(parts[7]));
  if (!parts[8].empty()) {
    const std::string nic = "/sys/bus/pci/devices/0000:18:00.0/";
    put(nic + "vendor", "0x15b3\n");
    put(nic + "device", "0x1021\n");
    put(nic + "class", "0x020700\n");
    s.files.emplace("/sys/class/infiniband/mlx5_0/device",
                    hwaccel::FileEntry::of_link("../../../0000:18:00.0"));
    hwaccel::ToolEntry topo;
    topo.argv = {"nvidia-smi", "topo", "-m"};
    topo.run.out = parts[8];
    s.tools[topo.argv] = topo;
  }
  hwaccel::sim::FilledPaths filled;
  hwaccel::Snapshot out = hwaccel::sim::with_implied(s, &filled);
  // What was recorded is still there, unchanged, wherever the fill moved it.
  auto cpuinfo = out.files.find("/proc/cpuinfo");
  if (!parts[0].empty() && (cpuinfo == out.files.end() || cpuinfo->second.bytes != parts[0]))
    std::abort();
  return 0;
}
