#include "src/report/detect_json.h"

#include <cstdio>

#include "src/report/system_json.h"

namespace hwaccel {
namespace {

using nlohmann::json;

json optional_number(const std::optional<std::uint64_t>& v) {
  return v ? json(*v) : json(nullptr);
}
json optional_text(const std::string& s) {
  return s.empty() ? json(nullptr) : json(s);
}

json hex_id(const std::optional<std::uint16_t>& id) {
  if (!id) return nullptr;
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%04x", unsigned(*id));
  return buf;
}

json reason_json(const std::optional<Reason>& r) {
  if (!r) return nullptr;
  return {{"code", std::string(to_string(r->code))}, {"detail", r->detail}};
}

json entry_json(const Entry& e) {
  return {
      {"backend", e.backend},
      {"api", e.api},
      {"index", e.index},
      {"ordinal", e.ordinal ? json(*e.ordinal) : json(nullptr)},
      {"physical_id", e.physical_id},
      {"name", e.name},
      {"vendor", optional_text(e.vendor)},
      {"type", std::string(to_string(e.type))},
      {"uuid", optional_text(e.uuid)},
      {"pci",
       {{"vendor_id", hex_id(e.pci_vendor_id)},
        {"device_id", hex_id(e.pci_device_id)},
        {"bus_id", optional_text(e.pci_bus_id)}}},
      {"memory",
       {{"kind", std::string(to_string(e.memory.kind))},
        {"total_bytes", optional_number(e.memory.total_bytes)},
        {"free_bytes", optional_number(e.memory.free_bytes)},
        {"working_set_limit_bytes", optional_number(e.memory.working_set_limit_bytes)},
        {"source", optional_text(e.memory.source)}}},
      {"compute_class", optional_text(e.compute_class)},
      {"driver_version", optional_text(e.driver_version)},
      {"status", e.status == EntryStatus::ready ? "ready" : "unavailable"},
      {"reason", reason_json(e.reason)},
      {"provenance", e.provenance},
      {"partition", e.partition ? json{{"profile", e.partition->profile},
                                       {"parent_physical_id", e.partition->parent_physical_id},
                                       {"parent_index", e.partition->parent_index}}
                                : json(nullptr)},
      {"partitioned", e.partitioned},
      {"numa_node", e.numa_node ? json(*e.numa_node) : json(nullptr)},
      {"cpu_affinity", optional_text(e.cpu_affinity)},
      {"pcie", pcie_link_json(e.pcie)},
  };
}

json link_json(const Link& l) {
  return {{"a", l.a},
          {"b", l.b},
          {"kind", l.kind},
          {"lanes", l.lanes},
          {"path", optional_text(l.path)},
          {"source", l.source}};
}

}  // namespace

json detect_to_json(const Detection& d) {
  const Facts& f = d.host.facts;
  json backends = json::array();
  for (const auto& b : d.backends) {
    int devices = 0;
    for (const auto& e : d.entries)
      if (e.backend == b.name) ++devices;
    backends.push_back({{"name", b.name},
                        {"status", b.ready ? "ready" : "unavailable"},
                        {"reason", reason_json(b.reason)},
                        {"devices", devices}});
  }
  json devices = json::array();
  for (const auto& e : d.entries) devices.push_back(entry_json(e));
  json links = json::array();
  for (const auto& l : d.links) links.push_back(link_json(l));
  json warnings = json::array();
  for (const auto& w : d.warnings)
    warnings.push_back({{"backend", w.backend}, {"message", w.message}});
  return {
      {"schema", kDetectSchema},
      {"discovered_at", optional_text(d.host.discovered_at)},
      {"host",
       {{"hostname", f.hostname},
        {"os", f.os},
        {"arch", f.arch},
        {"kernel", f.kernel},
        {"page_size", f.page_size},
        {"cpus", f.cpus}}},
      {"backends", backends},
      {"devices", devices},
      {"links", links},
      {"warnings", warnings},
      {"system", system_json(d.system)},
  };
}

std::string render_detect_json(const Detection& d) {
  // Invalid UTF-8 from a tool is replaced, never a reason to fail the report.
  return detect_to_json(d).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace hwaccel
