// rocminfo on a simulated host.
//
// Sources (facts, not text): public rocminfo captures — 4x MI300X with EPYC 9474F
// (github.com/thamada/nvidia-smi, nvsim/MI300X_x4_rocminfo.py), a Threadripper PRO
// workstation (bankh/GPU_Compute, AMD/CustomSystem/rocmInfo.md) and LUMI's MI250X
// (csc-training/summerschool, gpu-openmp/intro/Readme.md): the "ROCk module is
// loaded" line, the "HSA System Attributes" and "HSA Agents" blocks, "*******
// Agent N *******" headers, two-space "Label:" lines with values from column 28,
// CPU agents first (Uuid CPU-XX, Vendor Name CPU, FULL_PROFILE) then GPUs (Name
// gfxNNN, Uuid GPU-<unique id>, Vendor Name AMD, KERNEL_DISPATCH, BASE_PROFILE),
// "Pool Info:" with "Segment:" and "Size: N(0x..) KB", and "*** Done ***". Without
// the driver (ROCm/legacy-rocm-build#2767, #2995): "ROCk module is NOT loaded,
// possibly no GPU devices", exit 1. rocminfo takes no options of its own
// (--support aside); others are ignored here as there.
#include "sim/emulate/rocminfo.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "sim/emulate/amd_gpus.h"
#include "sim/emulate/emulate_common.h"

namespace hwaccel::sim {

namespace {

// "  Label:" with its value 25 columns after the indent, padded as rocminfo pads.
std::string line(int indent, std::string_view label, std::string_view value) {
  std::string key = std::string(indent, ' ') + std::string(label) + ":";
  return emulate::pad_right(key, indent + 25) + emulate::pad_right(value, 35) + "\n";
}

// "    Pool 1": a numbered sub-block's title has no colon.
std::string title(int indent, std::string_view text) {
  return emulate::pad_right(std::string(indent, ' ') + std::string(text), indent + 25) + "\n";
}

std::string with_hex(std::uint64_t v) {
  char b[48];
  std::snprintf(b, sizeof b, "%llu(0x%llx)", static_cast<unsigned long long>(v),
                static_cast<unsigned long long>(v));
  return b;
}

std::string header(int n) {
  return "*******                  \nAgent " + emulate::pad_right(std::to_string(n), 19) +
         "\n*******                  \n";
}

struct CpuNode {
  int node = 0;
  int cores = 0;
};

// KFD's CPU nodes (cpu_cores_count > 0), by node number.
std::vector<CpuNode> cpu_nodes(const Snapshot& snapshot) {
  std::vector<CpuNode> out;
  const std::string prefix = "/sys/class/kfd/kfd/topology/nodes/";
  for (auto it = snapshot.files.lower_bound(prefix);
       it != snapshot.files.end() && it->first.starts_with(prefix); ++it) {
    if (!it->first.ends_with("/properties") || it->second.kind != FileEntry::Kind::content)
      continue;
    std::string_view rest = std::string_view(it->first).substr(prefix.size());
    int node = 0;
    auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), node);
    if (ec != std::errc() || *end != '/') continue;
    auto at = it->second.bytes.find("cpu_cores_count ");
    if (at == std::string::npos) continue;
    int cores = std::atoi(it->second.bytes.c_str() + at + 16);
    if (cores > 0) out.push_back({node, cores});
  }
  std::sort(out.begin(), out.end(),
            [](const CpuNode& a, const CpuNode& b) { return a.node < b.node; });
  return out;
}

}  // namespace

ToolAnswer emulate_rocminfo(const EmulatedHost& host, const std::vector<std::string>& /*argv*/) {
  auto gpus = emulate::amd_gpus(host);
  if (emulate::amdgpu_missing(host) || gpus.empty())
    return {"ROCk module is NOT loaded, possibly no GPU devices\n", "", 1};

  std::string cpu_name = "CPU";
  std::optional<std::uint64_t> host_memory;
  for (const Entry* cpu : emulate::devices_of(host.detection, "cpu")) {
    cpu_name = cpu->name;
    host_memory = cpu->memory.total_bytes;
    break;
  }
  std::vector<CpuNode> cpus = cpu_nodes(host.snapshot);
  if (cpus.empty()) cpus.push_back({0, static_cast<int>(host.snapshot.facts.cpus)});

  std::string out = "ROCk module is loaded\n";
  out += "=====================    \nHSA System Attributes    \n=====================    \n";
  out += "Runtime Version:         1.1\n";
  out += "System Timestamp Freq.:  1000.000000MHz\n";
  out += "Sig. Max Wait Duration:  18446744073709551615 (0xFFFFFFFFFFFFFFFF) (timestamp count)\n";
  out += "Machine Model:           LARGE                              \n";
  out += "System Endianness:       LITTLE                             \n\n";
  out += "==========               \nHSA Agents               \n==========               \n";
  int agent = 1;
  for (const auto& cpu : cpus) {
    out += header(agent++);
    out += line(2, "Name", cpu_name);
    out += line(2, "Uuid", "CPU-XX");
    out += line(2, "Marketing Name", cpu_name);
    out += line(2, "Vendor Name", "CPU");
    out += line(2, "Feature", "None specified");
    out += line(2, "Profile", "FULL_PROFILE");
    out += line(2, "Float Round Mode", "NEAR");
    out += line(2, "Max Queue Number", "0(0x0)");
    out += line(2, "Queue Type", "MULTI");
    out += line(2, "Node", std::to_string(cpu.node));
    out += line(2, "Device Type", "CPU");
    out += line(2, "Compute Unit", std::to_string(cpu.cores));
    out += line(2, "Pool Info", "");
    out += title(4, "Pool 1");
    out += line(6, "Segment", "GLOBAL; FLAGS: FINE GRAINED");
    if (host_memory) out += line(6, "Size", with_hex(*host_memory / 1024 / cpus.size()) + " KB");
    out += line(2, "ISA Info", "");
  }
  for (const auto& gpu : gpus) {
    out += header(agent++);
    std::string uuid = "GPU-XX";
    if (gpu.unique_id.size() > 2) uuid = "GPU-" + gpu.unique_id.substr(2);
    char chip[32];
    std::snprintf(chip, sizeof chip, "%u(0x%x)", gpu.device_id, gpu.device_id);
    out += line(2, "Name", gpu.gfx.empty() ? "gfx000" : gpu.gfx);
    out += line(2, "Uuid", uuid);
    out += line(2, "Marketing Name", gpu.name);
    out += line(2, "Vendor Name", "AMD");
    out += line(2, "Feature", "KERNEL_DISPATCH");
    out += line(2, "Profile", "BASE_PROFILE");
    out += line(2, "Float Round Mode", "NEAR");
    out += line(2, "Max Queue Number", "128(0x80)");
    out += line(2, "Queue Type", "MULTI");
    out += line(
        2, "Node",
        gpu.kfd_node ? std::to_string(*gpu.kfd_node) : std::to_string(cpus.size() + gpu.index));
    out += line(2, "Device Type", "GPU");
    out += line(2, "Chip ID", chip);
    out += line(2, "ASIC Revision", with_hex(gpu.revision));
    if (gpu.simd_count) out += line(2, "Compute Unit", std::to_string(*gpu.simd_count / 4));
    out += line(2, "Pool Info", "");
    out += title(4, "Pool 1");
    out += line(6, "Segment", "GLOBAL; FLAGS: COARSE GRAINED");
    if (gpu.pool_bytes) out += line(6, "Size", with_hex(*gpu.pool_bytes / 1024) + " KB");
    out += line(2, "ISA Info", "");
    out += title(4, "ISA 1");
    out += line(6, "Name", "amdgcn-amd-amdhsa--" + gpu.gfx);
  }
  out += "*** Done ***             \n";
  return {out, "", 0};
}

}  // namespace hwaccel::sim
