#include "src/report/system_text.h"

#include <cmath>
#include <cstdio>

#include "src/report/detect_text.h"
#include "src/report/system_json.h"
#include "src/report/table.h"
#include "src/system/pcie_link.h"
#include "src/system/runtime_env.h"

namespace hwaccel {
namespace {

std::string or_dash(const std::string& s) {
  return s.empty() ? "-" : s;
}

std::string fixed(double v, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

}  // namespace

std::string environment_line(const SystemInfo& s) {
  return "environment: " + runtime_environment_text(s.environment) + "\n";
}

std::string resources_lines(const SystemInfo& s) {
  const HostResources& r = s.resources;
  if (r.cpus.threads == 0 && !r.memory_bytes) return "";
  std::vector<std::string> parts;
  if (r.cpus.threads > 0) parts.push_back(cpu_counts_text(r.cpus));
  if (r.numa_nodes > 0)
    parts.push_back(std::to_string(r.numa_nodes) + " NUMA node" + (r.numa_nodes == 1 ? "" : "s"));
  if (r.memory_bytes) parts.push_back("memory " + format_bytes(*r.memory_bytes));
  std::string out = "cpus: ";
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? "; " : "") + parts[i];
  out += "\n";
  if (r.limited_by.empty()) return out;
  std::vector<std::string> usable;
  const bool quota_binds =
      r.usable_cpu_count > 0 && std::size_t(r.usable_cpu_count) < r.usable.size();
  if (quota_binds)
    usable.push_back(std::to_string(r.usable_cpu_count) + " of " + std::to_string(r.online.size()) +
                     " CPUs (" + cpu_quota_text(*r.cgroup.cpu_quota) + " on " +
                     std::to_string(r.usable.size()) + " it may run on)");
  else if (r.usable.size() != r.online.size())
    usable.push_back(std::to_string(r.usable.size()) + " of " + std::to_string(r.online.size()) +
                     " CPUs (" + cpu_counts_text(r.usable_cpus) + ")");
  if (r.usable_numa_nodes != r.numa_nodes)
    usable.push_back(std::to_string(r.usable_numa_nodes) + " of " + std::to_string(r.numa_nodes) +
                     " NUMA nodes");
  if (r.usable_memory_bytes && r.memory_bytes && *r.usable_memory_bytes != *r.memory_bytes)
    usable.push_back(format_bytes(*r.usable_memory_bytes) + " of " + format_bytes(*r.memory_bytes) +
                     " memory");
  out += "usable: ";
  for (std::size_t i = 0; i < usable.size(); ++i) out += (i ? ", " : "") + usable[i];
  out += "\n";
  for (const auto& why : r.limited_by) out += "  limited by " + why + "\n";
  return out;
}

std::string format_decimal_bytes(std::uint64_t bytes) {
  const char* units[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
  double v = double(bytes);
  int u = 0;
  while (v >= 1000.0 && u < 6) {
    v /= 1000.0;
    ++u;
  }
  return (u == 0 ? std::to_string(bytes) : fixed(v, v < 10 ? 2 : v < 100 ? 1 : 0)) + " " + units[u];
}

std::string format_duration(double seconds) {
  if (seconds < 60) return fixed(seconds, 1) + " s";
  long total = std::lround(seconds);
  long h = total / 3600, m = (total % 3600) / 60, s = total % 60;
  char buf[48];
  if (h > 0)
    std::snprintf(buf, sizeof buf, "%ldh %02ldm", h, m);
  else
    std::snprintf(buf, sizeof buf, "%ldm %02lds", m, s);
  return buf;
}

std::string system_details_text(const SystemInfo& s) {
  std::string out;
  if (!s.ports.empty()) {
    out += "network ports (" + std::string(kBandwidthUnit) + "):\n";
    std::vector<std::vector<std::string>> rows = {
        {"PORT", "STATE", "LINK LAYER", "RATE", "GB/S", "PCI", "NUMA", "PCIE"}};
    for (const auto& p : s.ports)
      rows.push_back({p.device + "/" + std::to_string(p.port), or_dash(p.state),
                      or_dash(p.link_layer), or_dash(p.rate),
                      p.gbytes_per_s ? fixed(*p.gbytes_per_s, 2) : "-", or_dash(p.pci_bus_id),
                      p.numa_node ? std::to_string(*p.numa_node) : "-",
                      p.pcie ? pcie_link_text(*p.pcie) : "-"});
    out += render_table(rows);
  }
  if (!s.storage.empty()) {
    if (!out.empty()) out += "\n";
    out += "storage:\n";
    std::vector<std::vector<std::string>> rows = {
        {"DEVICE", "KIND", "SIZE", "MODEL", "PCIE", "FROM"}};
    for (const auto& b : s.storage)
      rows.push_back({b.name, b.kind, b.size_bytes ? format_decimal_bytes(*b.size_bytes) : "-",
                      or_dash(b.model), b.pcie ? pcie_link_text(*b.pcie) : "-", b.why});
    out += render_table(rows);
  }
  return out;
}

std::string render_ingest_text(const IngestEstimate& e, const SystemInfo& s) {
  std::string out = "data set: " + format_decimal_bytes(e.dataset_bytes) + " (" +
                    std::to_string(e.dataset_bytes) + " bytes)\n";
  out += environment_line(s);
  if (!e.devices.empty()) {
    out += "\n";
    std::vector<std::vector<std::string>> rows = {
        {"DEVICE", "KIND", "SIZE", "READ GB/S", "TIME", "ASSUMED"}};
    for (const auto& d : e.devices)
      rows.push_back({d.device, d.kind,
                      d.size_bytes
                          ? format_decimal_bytes(*d.size_bytes) + (d.fits ? "" : " (too small)")
                          : "-",
                      fixed(d.gbytes_per_s, 2), format_duration(d.seconds), d.assumption});
    out += render_table(rows);
    out += "\n";
  }
  if (e.best) {
    const auto& b = e.devices[*e.best];
    out += "estimate: " + format_duration(b.seconds) + " reading from " + b.device + " (" + b.kind +
           ", " + fixed(b.gbytes_per_s, 2) + " GB/s)\n";
  } else {
    out += "estimate: none\n";
  }
  if (e.striped_seconds)
    out += "striped: " + format_duration(*e.striped_seconds) + " reading all " +
           std::to_string(e.striped_count) + " " + e.devices.front().kind +
           " devices in parallel (" + fixed(e.striped_gbytes_per_s, 2) + " GB/s)\n";
  for (const auto& n : e.notes) out += "note: " + n + "\n";
  out +=
      "assumes: sequential reads at the rates above (a drive's datasheet figure, or the "
      "PCIe link for NVMe); small files, a slow filesystem, decompression or a network "
      "file system make it slower. Sources: docs/probes.md\n";
  return out;
}

}  // namespace hwaccel
