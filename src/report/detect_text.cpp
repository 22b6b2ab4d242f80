#include "src/report/detect_text.h"

#include <cstdio>

#include "src/report/table.h"

namespace hwaccel {

std::string format_bytes(std::uint64_t bytes) {
  char buf[32];
  const double gib = double(bytes) / double(1ull << 30);
  if (gib >= 1.0) {
    std::snprintf(buf, sizeof buf, "%.1f GiB", gib);
  } else {
    std::snprintf(buf, sizeof buf, "%.0f MiB", double(bytes) / double(1ull << 20));
  }
  return buf;
}

namespace {

std::string or_dash(const std::string& s) { return s.empty() ? "-" : s; }

std::string reason_text(const std::optional<Reason>& r) {
  if (!r) return "";
  std::string text(to_string(r->code));
  if (!r->detail.empty()) text += ": " + r->detail;
  return text;
}

// Unified memory is the host's: say which /proc/meminfo lines the figures are.
std::string memory_text(const Memory& m) {
  if (!m.total_bytes && !m.free_bytes) return "unknown";
  const bool from_meminfo = m.kind == MemoryKind::unified && m.source.rfind("/proc/meminfo", 0) == 0;
  std::string out = m.total_bytes ? format_bytes(*m.total_bytes) : "? GiB";
  out += " " + std::string(to_string(m.kind));
  if (from_meminfo) out += " (MemTotal)";
  if (m.free_bytes) out += ", " + format_bytes(*m.free_bytes) + " free";
  if (m.free_bytes && from_meminfo) out += " (MemAvailable)";
  return out;
}

// "sm_121" -> "sm_121 (cc 12.1)": people know CUDA devices by compute capability.
std::string class_text(const std::string& compute_class) {
  if (compute_class.rfind("sm_", 0) != 0 || compute_class.size() < 5) return or_dash(compute_class);
  std::string digits = compute_class.substr(3);
  if (digits.find_first_not_of("0123456789") != std::string::npos) return compute_class;
  return compute_class + " (cc " + digits.substr(0, digits.size() - 1) + "." + digits.back() + ")";
}

std::size_t count_devices(const Detection& d, const std::string& backend) {
  std::size_t n = 0;
  for (const auto& e : d.entries)
    if (e.backend == backend) ++n;
  return n;
}

std::string backend_detail(const Detection& d, const BackendStatus& b) {
  if (!b.ready) return reason_text(b.reason);
  auto n = count_devices(d, b.name);
  return std::to_string(n) + (n == 1 ? " device" : " devices");
}

std::string host_line(const HostSummary& h) {
  const Facts& f = h.facts;
  std::string line = "host " + or_dash(f.hostname) + ": " + or_dash(f.os) + " " + or_dash(f.arch);
  if (!f.kernel.empty()) line += ", kernel " + f.kernel;
  line += ", " + std::to_string(f.cpus) + (f.cpus == 1 ? " cpu" : " cpus");
  return line + "\n";
}

}  // namespace

std::string render_detect_text(const Detection& d) {
  std::string out = host_line(d.host) + "\n";

  std::vector<std::vector<std::string>> backends = {{"BACKEND", "STATUS", "DETAIL"}};
  for (const auto& b : d.backends)
    backends.push_back({b.name, b.ready ? "ready" : "unavailable", backend_detail(d, b)});
  out += render_table(backends);

  if (!d.entries.empty()) {
    out += "\n";
    std::vector<std::vector<std::string>> devices = {
        {"DEVICE", "STATUS", "NAME", "MEMORY", "CLASS", "DRIVER", "BUS"}};
    for (const auto& e : d.entries) {
      std::string status = e.status == EntryStatus::ready ? "ready" : "unavailable";
      devices.push_back({e.backend + ":" + std::to_string(e.index), status, or_dash(e.name),
                         memory_text(e.memory), class_text(e.compute_class),
                         or_dash(e.driver_version), or_dash(e.pci_bus_id)});
    }
    out += render_table(devices);
    for (const auto& e : d.entries)
      if (e.status != EntryStatus::ready && e.reason)
        out += "  " + e.backend + ":" + std::to_string(e.index) + " " + reason_text(e.reason) + "\n";
  }

  if (!d.warnings.empty()) {
    out += "\n";
    for (const auto& w : d.warnings) out += "warning: " + w.backend + ": " + w.message + "\n";
  }
  return out;
}

}  // namespace hwaccel
