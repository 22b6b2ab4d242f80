#include "src/report/detect_text.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "src/report/system_text.h"
#include "src/report/table.h"
#include "src/system/pcie_link.h"

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

std::string or_dash(const std::string& s) {
  return s.empty() ? "-" : s;
}

std::string reason_text(const std::optional<Reason>& r) {
  if (!r) return "";
  std::string text(to_string(r->code));
  if (!r->detail.empty()) text += ": " + r->detail;
  return text;
}

// Unified memory is the host's: say which /proc/meminfo lines the figures are.
std::string memory_text(const Memory& m) {
  if (!m.total_bytes && !m.free_bytes) return "unknown";
  const bool from_meminfo =
      m.kind == MemoryKind::unified && m.source.rfind("/proc/meminfo", 0) == 0;
  std::string out = m.total_bytes ? format_bytes(*m.total_bytes) : "? GiB";
  out += " " + std::string(to_string(m.kind));
  if (from_meminfo) out += " (MemTotal)";
  if (m.free_bytes) out += ", " + format_bytes(*m.free_bytes) + " free";
  if (m.free_bytes && from_meminfo) out += " (MemAvailable)";
  if (m.kind == MemoryKind::host && m.working_set_limit_bytes)
    out += ", " + format_bytes(*m.working_set_limit_bytes) + " usable (cgroup)";
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

std::string label(const Entry& e) {
  return e.backend + ":" + std::to_string(e.index);
}

// The whole device's label for a partition's parent ("cuda:0"), by physical id.
std::string parent_label(const Detection& d, const Entry& e) {
  for (const auto& other : d.entries)
    if (other.backend == e.backend && other.physical_id == e.partition->parent_physical_id)
      return label(other);
  return e.partition->parent_physical_id;
}

std::string partition_text(const Detection& d, const Entry& e) {
  if (e.partition) return e.partition->profile + " of " + parent_label(d, e);
  if (e.partitioned) {
    std::string parts;
    for (const auto& other : d.entries)
      if (other.partition && other.backend == e.backend &&
          other.partition->parent_physical_id == e.physical_id)
        parts += (parts.empty() ? "" : " ") + label(other);
    return "split into " + (parts.empty() ? std::string("no instances") : parts);
  }
  return "-";
}

std::string details_table(const Detection& d) {
  std::vector<std::vector<std::string>> rows = {{"DEVICE", "ORDINAL", "UUID", "PHYSICAL ID", "NUMA",
                                                 "CPUS", "PARTITION", "PCIE", "MEMORY FROM"}};
  for (const auto& e : d.entries)
    rows.push_back({label(e), e.ordinal ? std::to_string(*e.ordinal) : "-", or_dash(e.uuid),
                    or_dash(e.physical_id), e.numa_node ? std::to_string(*e.numa_node) : "-",
                    or_dash(e.cpu_affinity), partition_text(d, e),
                    e.pcie ? pcie_link_text(*e.pcie) : "-", or_dash(e.memory.source)});
  return render_table(rows);
}

std::string link_cell(const Link& l) {
  if (l.kind == "nvlink") return "NV" + std::to_string(l.lanes);
  if (!l.path.empty()) return l.path;
  return l.kind;
}

// Links as a matrix of the devices they join, labelled as in the device table
// (the first entry of each physical id; MIG slices have no links of their own).
std::string topology(const Detection& d) {
  std::map<std::string, std::string> names;  // physical id -> label
  std::vector<std::string> order;            // physical ids in device order
  for (const auto& e : d.entries)
    if (!names.count(e.physical_id)) {
      names[e.physical_id] = label(e);
      order.push_back(e.physical_id);
    }
  std::vector<std::string> ids;
  for (const auto& id : order)
    for (const auto& l : d.links)
      if ((l.a == id || l.b == id) && std::find(ids.begin(), ids.end(), id) == ids.end())
        ids.push_back(id);
  for (const auto& l : d.links)  // ends no entry names: shown by physical id
    for (const auto* end : {&l.a, &l.b})
      if (std::find(ids.begin(), ids.end(), *end) == ids.end()) {
        ids.push_back(*end);
        names[*end] = *end;
      }

  std::string source = d.links.front().source;
  for (const auto& l : d.links)
    if (l.source != source) source.clear();
  std::string out = "topology" + (source.empty() ? std::string() : " (" + source + ")") + ":\n";

  std::vector<std::vector<std::string>> rows(1, std::vector<std::string>{""});
  for (const auto& id : ids) rows[0].push_back(names[id]);
  for (const auto& row_id : ids) {
    std::vector<std::string> row = {names[row_id]};
    for (const auto& column_id : ids) {
      std::string cell = row_id == column_id ? "X" : "-";
      for (const auto& l : d.links)
        if ((l.a == row_id && l.b == column_id) || (l.b == row_id && l.a == column_id))
          cell = link_cell(l);
      row.push_back(cell);
    }
    rows.push_back(std::move(row));
  }
  out += render_table(rows);

  // Every pair joined by NVLink bundles of one width: an NVSwitch fabric (or a
  // small all-to-all board); the planner may treat the GPUs as one domain.
  const std::size_t n = ids.size();
  std::size_t nvlink_pairs = 0;
  int lanes = -1;
  bool same_width = true;
  for (const auto& l : d.links)
    if (l.kind == "nvlink") {
      ++nvlink_pairs;
      if (lanes >= 0 && l.lanes != lanes) same_width = false;
      lanes = l.lanes;
    }
  if (n > 2 && nvlink_pairs == n * (n - 1) / 2) {
    out += "all " + std::to_string(n) + " GPUs are linked pairwise by NVLink";
    if (same_width) out += " (NV" + std::to_string(lanes) + " each)";
    out += ": an NVSwitch system\n";
  }
  return out;
}

}  // namespace

std::string render_detect_text(const Detection& d, const DetectTextOptions& options) {
  std::string out =
      host_line(d.host) + environment_line(d.system) + resources_lines(d.system) + "\n";

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
        out +=
            "  " + e.backend + ":" + std::to_string(e.index) + " " + reason_text(e.reason) + "\n";
    if (options.verbose) out += "\n" + details_table(d);
  }
  if (options.verbose && !d.links.empty()) out += "\n" + topology(d);
  if (options.verbose) {
    std::string details = system_details_text(d.system);
    if (!details.empty()) out += "\n" + details;
  }

  if (!d.warnings.empty()) {
    out += "\n";
    for (const auto& w : d.warnings) out += "warning: " + w.backend + ": " + w.message + "\n";
  }
  return out;
}

}  // namespace hwaccel
