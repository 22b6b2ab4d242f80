// `nvidia-smi topo -m`: a matrix of GPUs (and NICs) by tab-separated columns,
// then per GPU its CPU and NUMA affinity, then a legend. The header line carries
// ANSI escapes (an underline) on real machines; they are stripped first.
//
//   \t\e[4mGPU0\tGPU1\tNIC0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\e[0m
//   GPU0\t X \tNV18\tPXB\t0-55,112-167\t0\t\tN/A
//
// Device cells are read by position (real rows have an extra empty cell before
// "GPU NUMA ID", so the named columns cannot be), the CPU and NUMA affinity are
// the two cells after the device cells. NIC rows and columns are skipped; only
// GPU-GPU cells become links. The same output pasted with spaces for tabs (as
// blogs and issues show it) is read too: a line without a tab is split at runs
// of blanks, and the header's devices end where a word without a digit starts.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel {

// One GPU pair, a < b by GPU number as topo -m prints it (= nvidia-smi index).
struct NvidiaTopoLink {
  int a = 0;
  int b = 0;
  std::string kind;  // "nvlink" or "pcie"
  int lanes = 0;     // NV18 -> 18
  std::string path;  // PIX, PXB, PHB, NODE, SYS (SOC on old drivers); "" for nvlink
};

struct NvidiaTopoGpu {
  int gpu = 0;                   // GPU<n>
  std::string cpu_affinity;      // "0-55,112-167"; "" for N/A
  std::optional<int> numa_node;  // NUMA Affinity; nullopt for N/A
};

struct NvidiaTopology {
  std::vector<NvidiaTopoGpu> gpus;  // in row order
  std::vector<NvidiaTopoLink> links;
  std::vector<std::string> problems;
};

NvidiaTopology parse_nvidia_smi_topo(std::string_view text);

}  // namespace hwaccel
