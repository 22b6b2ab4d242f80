#include "src/report/summary_report.h"

#include "src/registry/selection.h"
#include "src/report/detect_text.h"

namespace hwaccel {

namespace {

std::string family_text(const FamilySummary& f) {
  if (!f.ready) return f.name + " none (" + f.reason + ")";
  return f.name + " " + std::to_string(f.ready_devices) + "/" + std::to_string(f.devices) +
         " ready";
}

}  // namespace

std::string render_summary_text(const Detection& d, const Summary& s) {
  std::string out = "host " + (d.host.facts.hostname.empty() ? "-" : d.host.facts.hostname) + "\n";
  std::string families;
  for (const auto& f : s.families) families += (families.empty() ? "" : ", ") + family_text(f);
  out += "families: " + families + "\n";
  if (s.best) {
    const Entry& e = d.entries[*s.best];
    out += "best: " + entry_label(e) + " " + e.name + " (" + s.best_reason + ")\n";
  } else {
    out += "best: none (" + s.best_reason + ")\n";
  }
  out += "accelerators: " + std::to_string(s.accelerators_ready) + " physical ready, " +
         format_bytes(s.accelerator_memory_bytes) + " memory\n";
  out += "memory: " + format_bytes(s.host_memory_bytes) + " host, " +
         format_bytes(s.total_memory_bytes) + " total (host + discrete accelerators)\n";
  out += "warnings: " + std::to_string(s.warnings) + "\n";
  for (const auto& w : d.warnings) out += "  " + w.backend + ": " + w.message + "\n";
  return out;
}

nlohmann::json summary_to_json(const Detection& d, const Summary& s) {
  using nlohmann::json;
  json doc;
  doc["schema"] = kSummarySchema;
  doc["hostname"] = d.host.facts.hostname;
  doc["discovered_at"] = d.host.discovered_at.empty() ? json(nullptr) : json(d.host.discovered_at);
  json families = json::array();
  for (const auto& f : s.families)
    families.push_back({{"name", f.name},
                        {"status", f.ready ? "ready" : "unavailable"},
                        {"reason", f.ready ? json(nullptr) : json(f.reason)},
                        {"devices", f.devices},
                        {"ready_devices", f.ready_devices}});
  doc["families"] = families;
  doc["ready_by_type"] = s.types;
  if (s.best) {
    const Entry& e = d.entries[*s.best];
    doc["best"] = {{"device", entry_label(e)}, {"name", e.name}, {"reason", s.best_reason}};
  } else {
    doc["best"] = {{"device", nullptr}, {"name", nullptr}, {"reason", s.best_reason}};
  }
  doc["accelerators_ready"] = s.accelerators_ready;
  doc["memory"] = {{"accelerator_bytes", s.accelerator_memory_bytes},
                   {"host_bytes", s.host_memory_bytes},
                   {"total_bytes", s.total_memory_bytes}};
  json warnings = json::array();
  for (const auto& w : d.warnings)
    warnings.push_back({{"backend", w.backend}, {"message", w.message}});
  doc["warnings"] = warnings;
  return doc;
}

}  // namespace hwaccel
