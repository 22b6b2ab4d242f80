// `hwaccel export prometheus`: the text exposition format node_exporter's
// textfile collector reads (*.prom): HELP and TYPE once per metric, then its
// samples, label values escaped (\\, \", \n). Device series carry DCGM
// exporter's labels (gpu, UUID, pci_bus_id as nvidia-smi prints it, device as
// the node's name, GPU_I_PROFILE on a MIG slice; modelName on the info series) so that
// `on(UUID)` or `on(pci_bus_id)` joins them with DCGM_FI_* series. Values that
// change (a reason) live on *_info series, never on a gauge's labels, so a
// state change does not start a new gauge series.
#include <cctype>
#include <map>

#include "src/export/device_files.h"
#include "src/export/fleet_exports.h"
#include "src/export/prometheus_text.h"
#include "src/export/time_text.h"
#include "src/registry/selection.h"

namespace hwaccel {

namespace {

using Labels = std::vector<std::pair<std::string, std::string>>;

std::string reason_of(const std::optional<Reason>& r) {
  return r ? std::string(to_string(r->code)) : "";
}

// DCGM's identity labels for one allocatable device, then ours.
Labels device_labels(Host& host, const Allocatable& a) {
  const Entry& whole = *a.parent->entry;
  const Entry& e = *a.entry;
  Labels id;
  if (whole.type == DeviceType::gpu) id.push_back({"gpu", std::to_string(whole.index)});
  if (!whole.uuid.empty()) id.push_back({"UUID", whole.uuid});
  if (!whole.pci_bus_id.empty()) id.push_back({"pci_bus_id", nvidia_smi_bus_id(whole.pci_bus_id)});
  DeviceFile f = device_file(host, whole);
  if (!f.path.empty() && !f.assumed) id.push_back({"device", f.path.substr(f.path.rfind('/') + 1)});
  if (e.partition) id.push_back({"GPU_I_PROFILE", e.partition->profile});
  if (e.partition && e.partition->gpu_instance_id)
    id.push_back({"GPU_I_ID", std::to_string(*e.partition->gpu_instance_id)});
  id.push_back({"backend", whole.backend});
  id.push_back({"hwaccel_device", entry_label(e)});
  id.push_back({"physical_id", e.partition ? e.physical_id : whole.physical_id});
  return id;
}

}  // namespace

std::string nvidia_smi_bus_id(const std::string& bus) {
  // "0000:1b:00.0": a 4-digit domain; nvidia-smi prints 8, upper case.
  auto colon = bus.find(':');
  if (colon == std::string::npos) return bus;
  std::string out = std::string(colon < 8 ? 8 - colon : 0, '0') + bus;
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string render_prometheus(Host& host, const Detection& d, const PrometheusOptions& o) {
  PromMetric build{"hwaccel_build_info", "hwaccel's version; always 1.", {}};
  PromMetric stamp{"hwaccel_last_detection_timestamp_seconds",
                   "When the detection behind this file ran (Unix time, the host's clock).",
                   {}};
  PromMetric took{"hwaccel_last_detection_duration_seconds", "How long that detection took.", {}};
  PromMetric backend{"hwaccel_backend_ready", "1 when the backend works, 0 when not.", {}};
  PromMetric backend_reason{"hwaccel_backend_unavailable_info",
                            "Why a backend does not work (reason code); always 1.",
                            {}};
  PromMetric count{"hwaccel_devices",
                   "Physical devices per backend (family) by state; a device seen through several "
                   "APIs counts once, under its vendor's.",
                   {}};
  PromMetric accel{"hwaccel_accelerators",
                   "Allocatable accelerators (MIG slices per the MIG strategy) by state.",
                   {}};
  PromMetric info{"hwaccel_device_info", "What a device is: driver, compute class; always 1.", {}};
  PromMetric ready{"hwaccel_device_ready", "1 when the device is usable, 0 when not.", {}};
  PromMetric why{
      "hwaccel_device_unavailable_info", "Why a device is not usable (reason code); always 1.", {}};
  PromMetric total{"hwaccel_device_memory_total_bytes",
                   "Memory of the device in bytes (unified memory: what it may use of the host's).",
                   {}};
  PromMetric free{"hwaccel_device_memory_free_bytes",
                  "Free memory of the device in bytes at detection time.",
                  {}};

  build.samples.push_back(prom_labels({{"version", HWACCEL_VERSION}}) + " 1");
  if (o.timing) {
    if (auto t = rfc3339_to_unix(d.host.discovered_at))
      stamp.samples.push_back(" " + std::to_string(*t));
    took.samples.push_back(" " + prom_number(d.total_milliseconds / 1000.0));
  }

  const auto devices = physical_devices(d);
  std::map<std::string, std::pair<std::size_t, std::size_t>> per_family;  // ready, unavailable
  for (const auto& p : devices) {
    auto& f = per_family[p.entry->backend];
    (p.ready() ? f.first : f.second) += 1;
  }
  std::size_t accel_ready = 0, accel_unavailable = 0;
  for (const auto& a : allocatable_devices(devices, o.mig)) {
    const Entry& e = *a.entry;
    const bool ok = a.entry == a.parent->entry ? a.parent->ready() : e.status == EntryStatus::ready;
    (ok ? accel_ready : accel_unavailable) += 1;
    Labels id = device_labels(host, a);
    // modelName in DCGM's spelling only here (--snake-case: model_name): promtool's
    // lint wants snake_case label names, and the gauges stay clean; joins go
    // on(UUID, GPU_I_ID) or on(pci_bus_id).
    Labels described = id;
    described.push_back({o.snake_case ? "model_name" : "modelName", a.parent->entry->name});
    described.push_back({"type", std::string(to_string(e.type))});
    described.push_back({"memory", std::string(to_string(e.memory.kind))});
    described.push_back({"compute_class", e.compute_class});
    described.push_back({"driver_version", e.driver_version});
    described.push_back({"integrated", a.parent->integrated ? "true" : "false"});
    info.samples.push_back(prom_labels(described) + " 1");
    ready.samples.push_back(prom_labels(id) + (ok ? " 1" : " 0"));
    if (!ok) {
      Labels r = id;
      r.push_back({"reason", reason_of(e.reason)});
      why.samples.push_back(prom_labels(r) + " 1");
    }
    if (e.memory.total_bytes)
      total.samples.push_back(prom_labels(id) + " " + std::to_string(*e.memory.total_bytes));
    if (e.memory.free_bytes)
      free.samples.push_back(prom_labels(id) + " " + std::to_string(*e.memory.free_bytes));
  }
  accel.samples.push_back(prom_labels({{"state", "ready"}}) + " " + std::to_string(accel_ready));
  accel.samples.push_back(prom_labels({{"state", "unavailable"}}) + " " +
                          std::to_string(accel_unavailable));
  for (const auto& b : d.backends) {
    backend.samples.push_back(prom_labels({{"backend", b.name}}) + (b.ready ? " 1" : " 0"));
    if (!b.ready)
      backend_reason.samples.push_back(
          prom_labels({{"backend", b.name}, {"reason", reason_of(b.reason)}}) + " 1");
    if (b.name == "cpu") continue;  // not an accelerator: node_exporter describes the host
    auto f = per_family[b.name];
    count.samples.push_back(prom_labels({{"backend", b.name}, {"state", "ready"}}) + " " +
                            std::to_string(f.first));
    count.samples.push_back(prom_labels({{"backend", b.name}, {"state", "unavailable"}}) + " " +
                            std::to_string(f.second));
  }

  std::string out;
  for (const PromMetric* m : {&build, &stamp, &took, &backend, &backend_reason, &count, &accel,
                              &info, &ready, &why, &total, &free})
    out += prom_metric_text(*m);
  return out;
}

}  // namespace hwaccel
