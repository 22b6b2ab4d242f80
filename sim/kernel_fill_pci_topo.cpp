// The PCIe paths a snapshot states: its recorded `nvidia-smi topo -m` matrix
// (src/probe/nvidia_smi_topo.h has the format), whose rows are GPUs (GPU<n> is
// the n-th NVIDIA display device in bus order, nvidia-smi's default
// enumeration) and NICs (named in the "NIC Legend", found through
// /sys/class/infiniband/NAME/device). PIX, PXB and PHB cells become relations
// for sim/pci_layout.h; NODE and SYS (two host bridges) and NV# (nothing of
// PCIe) add none, and a device with no PCIe cell at all is laid out by the NUMA
// default. The text is hostile: bounded, and a row or name that does not fit is
// skipped.
#include <cctype>
#include <map>
#include <string_view>

#include "sim/kernel_fill_parts.h"

namespace hwaccel::sim {
namespace {

constexpr std::size_t kMaxText = 1 << 20;
constexpr std::size_t kMaxDevices = 256;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// Drops ANSI escapes (ESC [ ... letter), as the real header carries an underline.
std::string plain(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
      i += 2;
      while (i < text.size() && !std::isalpha(static_cast<unsigned char>(text[i]))) ++i;
      continue;
    }
    out += text[i];
  }
  return out;
}

std::vector<std::string_view> split(std::string_view line, char sep) {
  std::vector<std::string_view> out;
  for (std::size_t at = 0;;) {
    auto end = line.find(sep, at);
    out.push_back(line.substr(at, end == std::string_view::npos ? end : end - at));
    if (end == std::string_view::npos || out.size() > kMaxDevices + 8) break;
    at = end + 1;
  }
  return out;
}

bool is_name(std::string_view s, std::string_view prefix) {
  if (s.size() <= prefix.size() || s.size() > prefix.size() + 3 ||
      s.substr(0, prefix.size()) != prefix)
    return false;
  for (char c : s.substr(prefix.size()))
    if (c < '0' || c > '9') return false;
  return true;
}

const ToolEntry* recorded_topology(const Snapshot& s) {
  for (const char* flag : {"-m", "--matrix"}) {
    auto it = s.tools.find({"nvidia-smi", "topo", flag});
    if (it != s.tools.end() && it->second.run.ok() && !it->second.run.out.empty() &&
        it->second.run.out.size() <= kMaxText)
      return &it->second;
  }
  return nullptr;
}

}  // namespace

std::vector<PciRelation> stated_pci_paths(const Filler& f, const std::vector<std::string>& bdfs,
                                          std::vector<bool>& in_topology) {
  std::vector<PciRelation> out;
  in_topology.assign(bdfs.size(), false);
  const ToolEntry* topo = recorded_topology(f.s);
  if (!topo) return out;
  const std::string text = plain(topo->run.out);
  auto lines = split(text, '\n');
  // The header names the columns; rows follow it.
  std::vector<std::string> names;
  std::size_t row0 = 0;
  for (; row0 < lines.size() && names.empty(); ++row0)
    for (auto cell : split(lines[row0], '\t')) {
      cell = trim(cell);
      if (is_name(cell, "GPU") || is_name(cell, "NIC")) names.emplace_back(cell);
    }
  if (names.empty() || names.size() > kMaxDevices) return out;
  // GPUs in bus order; NICs by the legend and their infiniband device links.
  std::vector<int> gpus;
  std::map<std::string, int> index_of;
  for (std::size_t i = 0; i < bdfs.size(); ++i) {
    index_of[bdfs[i]] = int(i);
    const std::string d = "/sys/bus/pci/devices/" + bdfs[i] + "/";
    auto vendor = f.read(d + "vendor"), cls = f.read(d + "class");
    if (vendor && cls && trim(*vendor).substr(0, 6) == "0x10de" && cls->rfind("0x03", 0) == 0)
      gpus.push_back(int(i));
  }
  std::map<std::string, int> device_of;  // column name -> bdfs index
  int gpu_columns = 0;
  for (const auto& n : names) gpu_columns += n.rfind("GPU", 0) == 0;
  if (gpu_columns == int(gpus.size()))
    for (const auto& n : names)
      if (n.rfind("GPU", 0) == 0) {
        int g = std::stoi(n.substr(3));
        if (g < int(gpus.size())) device_of[n] = gpus[g];
      }
  for (std::size_t i = row0; i < lines.size(); ++i) {
    auto line = trim(lines[i]);
    auto colon = line.find(':');
    if (colon == std::string_view::npos || !is_name(line.substr(0, colon), "NIC")) continue;
    std::string nic(line.substr(0, colon));
    std::string dev(trim(line.substr(colon + 1)));
    if (dev.empty() || dev.find('/') != std::string::npos || dev.size() > 64) continue;
    auto link = f.s.files.find("/sys/class/infiniband/" + dev + "/device");
    if (link == f.s.files.end() || link->second.kind != FileEntry::Kind::link) continue;
    const std::string& t = link->second.target;
    auto found = index_of.find(t.substr(t.rfind('/') + 1));
    if (found != index_of.end()) device_of[nic] = found->second;
  }
  // The matrix: a row's cells follow its name in column order.
  for (std::size_t i = row0; i < lines.size(); ++i) {
    auto cells = split(lines[i], '\t');
    auto row = device_of.find(std::string(trim(cells[0])));
    if (row == device_of.end()) continue;
    for (std::size_t c = 0; c < names.size() && c + 1 < cells.size(); ++c) {
      auto col = device_of.find(names[c]);
      if (col == device_of.end() || col->second == row->second) continue;
      auto cell = trim(cells[c + 1]);
      // A PCIe cell places the row (NV# says nothing of PCIe).
      if (cell == "PIX" || cell == "PXB" || cell == "PHB" || cell == "NODE" || cell == "SYS")
        in_topology[row->second] = true;
      if (cell == "PIX")
        out.push_back({row->second, col->second, PciPath::pix});
      else if (cell == "PXB")
        out.push_back({row->second, col->second, PciPath::pxb});
      else if (cell == "PHB")
        out.push_back({row->second, col->second, PciPath::phb});
    }
  }
  return out;
}

}  // namespace hwaccel::sim
