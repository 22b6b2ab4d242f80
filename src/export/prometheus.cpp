// `hwaccel export prometheus`: the text exposition format node_exporter's
// textfile collector reads (*.prom): HELP and TYPE once per metric, then its
// samples, label values escaped (\\, \", \n).
#include <map>

#include "src/export/fleet_exports.h"
#include "src/registry/selection.h"

namespace hwaccel {

namespace {

std::string escape(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

std::string labels(const std::vector<std::pair<std::string, std::string>>& kv) {
  std::string out;
  for (const auto& [k, v] : kv) out += (out.empty() ? "" : ",") + k + "=\"" + escape(v) + "\"";
  return "{" + out + "}";
}

struct Metric {
  std::string name, help;
  std::vector<std::string> samples;
};

std::string reason_of(const std::optional<Reason>& r) {
  return r ? std::string(to_string(r->code)) : "";
}

}  // namespace

std::string render_prometheus(const Detection& d) {
  Metric total{"hwaccel_device_memory_total_bytes",
               "Memory of the device in bytes (unified memory: the host's MemTotal).",
               {}};
  Metric free{"hwaccel_device_memory_free_bytes",
              "Free memory of the device in bytes at detection time.",
              {}};
  Metric ready{
      "hwaccel_device_ready", "1 when the device is usable, 0 when not; reason says why not.", {}};
  Metric backend{
      "hwaccel_backend_ready", "1 when the backend works, 0 when not; reason says why not.", {}};
  Metric count{"hwaccel_devices", "Devices per backend (family), by state.", {}};

  std::map<std::string, std::pair<std::size_t, std::size_t>> per_family;  // ready, unavailable
  for (const auto& e : d.entries) {
    std::vector<std::pair<std::string, std::string>> id = {
        {"backend", e.backend},
        {"device", entry_label(e)},
        {"name", e.name},
        {"memory", std::string(to_string(e.memory.kind))}};
    if (!e.pci_bus_id.empty()) id.push_back({"pci_bus_id", e.pci_bus_id});
    if (e.memory.total_bytes)
      total.samples.push_back(labels(id) + " " + std::to_string(*e.memory.total_bytes));
    if (e.memory.free_bytes)
      free.samples.push_back(labels(id) + " " + std::to_string(*e.memory.free_bytes));
    auto r = id;
    r.push_back({"reason", reason_of(e.reason)});
    ready.samples.push_back(labels(r) + (e.status == EntryStatus::ready ? " 1" : " 0"));
    auto& f = per_family[e.backend];
    (e.status == EntryStatus::ready ? f.first : f.second) += 1;
  }
  for (const auto& b : d.backends) {
    backend.samples.push_back(labels({{"backend", b.name}, {"reason", reason_of(b.reason)}}) +
                              (b.ready ? " 1" : " 0"));
    auto f = per_family[b.name];
    count.samples.push_back(labels({{"backend", b.name}, {"state", "ready"}}) + " " +
                            std::to_string(f.first));
    count.samples.push_back(labels({{"backend", b.name}, {"state", "unavailable"}}) + " " +
                            std::to_string(f.second));
  }

  std::string out;
  for (const Metric* m : {&backend, &count, &ready, &total, &free}) {
    if (m->samples.empty()) continue;
    out += "# HELP " + m->name + " " + m->help + "\n";
    out += "# TYPE " + m->name + " gauge\n";
    for (const auto& s : m->samples) out += m->name + s + "\n";
  }
  return out;
}

}  // namespace hwaccel
