// nvidia-smi's bare table, -L and topo -m. Layouts follow the real captures in
// /work/shared/real-captures/ (nvidia-smi__linux-x86_64__nvidia-h200__590.48.01.txt and
// ...-h100-mig__590.48.01.txt: the table's column widths, -L's "GPU N: NAME (UUID: ...)"
// and MIG lines, topo -m's tab layout, escapes and legend) and the DGX H100 topo -m
// report that fixtures/hosts/dgx-h100.yaml cites ([DGX052]).
#include <algorithm>
#include <cstdio>

#include "sim/emulate/emulate_common.h"
#include "sim/emulate/nvidia_smi.h"

namespace hwaccel::sim {
namespace {

using emulate::pad_left;
using emulate::pad_right;

const char* kRule =
    "+-----------------------------------------+------------------------+----------------------+\n";

// The "MIG devices:" box (the H100 MIG capture): GPU, GI, CI and MIG device ids,
// shared memory used (total less free) and total; SMs, engines and BAR1, which the
// host model does not hold, N/A.
std::string mig_devices(const NvModel& m, const std::vector<int>& gpus) {
  const std::string rule =
      "+------------------+----------------------------------+-----------+-----------------------+"
      "\n";
  std::string rows;
  for (int i : gpus) {
    const NvGpu& g = m.gpus[static_cast<std::size_t>(i)];
    for (const NvMig& d : g.migs) {
      auto id = [](const std::optional<int>& v) {
        return v ? std::to_string(*v) : std::string("N/A");
      };
      std::string used = d.total_mib && d.free_mib && *d.total_mib >= *d.free_mib
                             ? std::to_string(*d.total_mib - *d.free_mib) + "MiB"
                             : "N/A";
      std::string total = d.total_mib ? pad_left(std::to_string(*d.total_mib), 5) + "MiB" : "  N/A";
      rows += "|  " + pad_right(std::to_string(g.index), 3) + pad_left(id(d.gpu_instance_id), 3) +
              " " + pad_left(id(d.compute_instance_id), 3) + " " +
              pad_left(std::to_string(d.device), 3) + "  |" +
              pad_right(pad_left(used, 19) + " / " + total, 34) + "| N/A    N/A|" +
              pad_right("  N/A", 23) + "|\n";
      rows += "|                  |" + pad_right(pad_left("N/A", 19) + " /   N/A", 34) +
              "|           |                       |\n";
      rows += rule;
    }
  }
  if (rows.empty()) return "";
  std::string out =
      "\n+-----------------------------------------------------------------------------------------"
      "+\n";
  out +=
      "| MIG devices:                                                                            "
      "|\n";
  out += rule;
  out +=
      "| GPU  GI  CI  MIG |              Shared Memory-Usage |        Vol|        Shared         "
      "|\n";
  out +=
      "|      ID  ID  Dev |                Shared BAR1-Usage | SM     Unc| CE ENC  DEC  OFA  JPG "
      "|\n";
  out +=
      "|                  |                                  |        ECC|                       "
      "|\n";
  out +=
      "|==================+==================================+===========+=======================|"
      "\n";
  return out + rows;
}

}  // namespace

std::string nvsmi_clock_text(const std::string& at) {
  // "YYYY-MM-DDTHH:MM:SS..." -> "Www Mmm dd HH:MM:SS YYYY" (dd space-padded, as ctime).
  int y = 1970, mo = 1, d = 1, h = 0, mi = 0, s = 0;
  if (at.size() < 19 ||
      std::sscanf(at.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d", &y, &mo, &d, &h, &mi, &s) != 6 || mo < 1 ||
      mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60 || y < 1970 || y > 9999) {
    y = 1970, mo = 1, d = 1, h = mi = s = 0;
  }
  static const char* days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static const char* months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  // Sakamoto's day of the week.
  static const int t[] = {0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4};
  int yy = mo < 3 ? y - 1 : y;
  int wd = (yy + yy / 4 - yy / 100 + yy / 400 + t[mo - 1] + d) % 7;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s %s %2d %02d:%02d:%02d %d", days[wd], months[mo - 1], d, h, mi,
                s, y);
  return buf;
}

std::string nvsmi_timestamp(const std::string& at) {
  int y = 1970, mo = 1, d = 1, h = 0, mi = 0, s = 0;
  if (at.size() < 19 ||
      std::sscanf(at.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d", &y, &mo, &d, &h, &mi, &s) != 6 || mo < 1 ||
      mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60 || y < 1970 || y > 9999)
    y = 1970, mo = 1, d = 1, h = mi = s = 0;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d/%02d/%02d %02d:%02d:%02d.000", y, mo, d, h, mi, s);
  return buf;
}

std::string nvsmi_list(const NvModel& m, const std::vector<int>& gpus) {
  std::string out;
  for (int i : gpus) {
    const NvGpu& g = m.gpus[i];
    out += "GPU " + std::to_string(g.index) + ": " + g.name + " (UUID: " + g.uuid + ")\n";
    for (const NvMig& mig : g.migs) {
      char dev[16];
      std::snprintf(dev, sizeof dev, "%2d", mig.device);
      out +=
          "  MIG " + pad_right(mig.profile, 11) + " Device " + dev + ": (UUID: " + mig.uuid + ")\n";
    }
  }
  return out;
}

std::string nvsmi_table(const NvModel& m, const std::vector<int>& gpus, const std::string& when) {
  auto na = [](const std::string& s) { return s.empty() ? std::string("N/A") : s; };
  std::string out = pad_right(nvsmi_clock_text(when), 31) + "\n";
  out +=
      "+-----------------------------------------------------------------------------------------+"
      "\n";
  std::string head = "| NVIDIA-SMI " + pad_right(na(m.driver_version), 23) +
                     "Driver Version: " + pad_right(na(m.driver_version), 15) +
                     "CUDA Version: " + na(m.cuda_version);
  out += pad_right(head, 90) + "|\n";
  out += kRule;
  out +=
      "| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC "
      "|\n";
  out +=
      "| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. "
      "|\n";
  out +=
      "|                                         |                        |               MIG M. "
      "|\n";
  out +=
      "|=========================================+========================+======================|"
      "\n";
  for (int i : gpus) {
    const NvGpu& g = m.gpus[i];
    std::string name = g.name.size() > 31 ? g.name.substr(0, 28) + "..." : g.name;
    char index[8];
    std::snprintf(index, sizeof index, "%4d", g.index);
    // Values the host model does not hold print N/A, as the tool does for them.
    out += "|" + std::string(index) + "  " + pad_right(name, 31) + "N/A " + "|   " +
           pad_right(na(g.bus_id), 16) + " N/A |" + pad_left("N/A", 21) + " |\n";
    std::string memory = g.total_mib && g.used_mib
                             ? pad_left(std::to_string(*g.used_mib), 8) + "MiB / " +
                                   pad_left(std::to_string(*g.total_mib), 6) + "MiB "
                             : pad_left("Not Supported ", 24);
    out += "| N/A   N/A    P0" + pad_left("N/A  /  N/A ", 25) + "|" + memory +
           "|     N/A      Default |\n";
    out += "|                                         |                        |" +
           pad_left(g.migs.empty() ? "Disabled" : "Enabled", 21) + " |\n";
    out += kRule;
  }
  out += mig_devices(m, gpus);
  out +=
      "\n+-----------------------------------------------------------------------------------------"
      "+\n";
  out +=
      "| Processes:                                                                              "
      "|\n";
  out +=
      "|  GPU   GI   CI              PID   Type   Process name                        GPU Memory "
      "|\n";
  out +=
      "|        ID   ID                                                               Usage      "
      "|\n";
  out +=
      "|=========================================================================================|"
      "\n";
  out +=
      "|  No running processes found                                                             "
      "|\n";
  out +=
      "+-----------------------------------------------------------------------------------------+"
      "\n";
  return out;
}

std::string nvsmi_topo(const NvModel& m) {
  // GPU rows only: NICs are not in the host model. X on the diagonal, NV# for a
  // bonded NVLink set, else the PCIe path the detection holds (SYS where none).
  const std::size_t n = m.gpus.size();
  auto link = [&](std::size_t a, std::size_t b) -> std::string {
    std::string path;
    for (const auto& l : m.links) {
      bool ends = (l.a == m.physical_ids[a] && l.b == m.physical_ids[b]) ||
                  (l.a == m.physical_ids[b] && l.b == m.physical_ids[a]);
      if (!ends) continue;
      if (l.kind == "nvlink" && l.lanes > 0) return "NV" + std::to_string(l.lanes);
      if (!l.path.empty()) path = l.path;
    }
    if (!path.empty()) return path;
    const auto &ga = m.gpus[a], &gb = m.gpus[b];
    return ga.numa_node && gb.numa_node && *ga.numa_node == *gb.numa_node ? "NODE" : "SYS";
  };
  std::string out = "\t\x1b[4m";
  for (std::size_t i = 0; i < n; ++i) out += "GPU" + std::to_string(i) + "\t";
  out += "CPU Affinity\tNUMA Affinity\tGPU NUMA ID\x1b[0m\n";
  for (std::size_t a = 0; a < n; ++a) {
    out += "GPU" + std::to_string(a);
    for (std::size_t b = 0; b < n; ++b) out += "\t" + (a == b ? std::string(" X ") : link(a, b));
    const NvGpu& g = m.gpus[a];
    out += "\t" + (g.cpu_affinity.empty() ? std::string("N/A") : g.cpu_affinity) + "\t" +
           (g.numa_node ? std::to_string(*g.numa_node) : std::string("N/A")) + "\t\tN/A\n";
  }
  out += "\nLegend:\n\n";
  out += "  X    = Self\n";
  out +=
      "  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes "
      "(e.g., QPI/UPI)\n";
  out +=
      "  NODE = Connection traversing PCIe as well as the interconnect between PCIe Host Bridges "
      "within a NUMA node\n";
  out += "  PHB  = Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU)\n";
  out +=
      "  PXB  = Connection traversing multiple PCIe bridges (without traversing the PCIe Host "
      "Bridge)\n";
  out += "  PIX  = Connection traversing at most a single PCIe bridge\n";
  out += "  NV#  = Connection traversing a bonded set of # NVLinks\n";
  return out;
}

}  // namespace hwaccel::sim
