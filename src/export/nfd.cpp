// `hwaccel export nfd`: labels per accelerator family. NFD reads every
// non-hidden file in /etc/kubernetes/node-feature-discovery/features.d/, one
// `name=value` per line; `#` starts a comment (`# +` a directive, so our
// comments never start that way).
#include <map>

#include "src/export/fleet_exports.h"
#include "src/export/k8s_labels.h"
#include "src/registry/identity.h"

namespace hwaccel {

namespace {

struct Family {
  std::size_t devices = 0, ready = 0;
  std::map<std::string, std::size_t> products;  // name -> devices
  std::optional<std::uint64_t> min_memory;
  std::string compute_class, driver_version;
  bool unified = false, partitioned = false;
};

std::string label(const std::string& name) {
  return std::string(kLabelNamespace) + "/" + name;
}

}  // namespace

std::string render_nfd(const Detection& d) {
  std::map<std::string, std::string> labels;  // sorted: deterministic
  std::map<std::string, Family> families;
  for (const auto& e : d.entries) {
    if (e.type == DeviceType::cpu) {
      if (!e.compute_class.empty())
        labels[label("cpu.compute-class")] = to_label_value(e.compute_class);
      continue;
    }
    if (e.partition) continue;  // a MIG slice: its parent counts
    Family& f = families[e.backend];
    ++f.devices;
    if (e.status == EntryStatus::ready) ++f.ready;
    ++f.products[e.name];
    if (e.memory.total_bytes && (!f.min_memory || *e.memory.total_bytes < *f.min_memory))
      f.min_memory = e.memory.total_bytes;
    if (f.compute_class.empty()) f.compute_class = e.compute_class;
    if (f.driver_version.empty()) f.driver_version = e.driver_version;
    f.unified |= e.memory.kind == MemoryKind::unified;
    f.partitioned |= e.partitioned;
  }
  const std::size_t ready = count_physical_accelerators(d.entries, true);
  labels[label("accelerator")] = ready > 0 ? "true" : "false";
  labels[label("accelerator.count")] = std::to_string(ready);
  for (const auto& [name, f] : families) {
    const std::string p = name + ".";
    labels[label(name)] = "true";
    labels[label(p + "count")] = std::to_string(f.devices);
    labels[label(p + "ready")] = std::to_string(f.ready);
    // The product most devices are (a mixed node names the majority, then the first).
    std::string product;
    std::size_t most = 0;
    for (const auto& [n, count] : f.products)
      if (count > most) most = count, product = n;
    if (f.products.size() > 1) labels[label(p + "mixed")] = "true";
    if (auto v = to_label_value(product); !v.empty()) labels[label(p + "product")] = v;
    if (f.min_memory) labels[label(p + "memory-gib")] = std::to_string(*f.min_memory >> 30);
    if (auto v = to_label_value(f.compute_class); !v.empty())
      labels[label(p + "compute-class")] = v;
    labels[label(p + "unified-memory")] = f.unified ? "true" : "false";
    if (f.partitioned) labels[label(p + "partitioned")] = "true";
    std::string driver = "ready";
    for (const auto& b : d.backends)
      if (b.name == name && !b.ready && b.reason) driver = std::string(to_string(b.reason->code));
    if (driver == "ready" && f.ready == 0) {
      for (const auto& e : d.entries)
        if (e.backend == name && e.reason) {
          driver = std::string(to_string(e.reason->code));
          break;
        }
    }
    labels[label(p + "driver")] = to_label_value(driver);
    if (auto v = to_label_value(f.driver_version); !v.empty())
      labels[label(p + "driver-version")] = v;
  }

  std::string out = "# hwaccel export nfd (hwaccel " + std::string(HWACCEL_VERSION) + ")";
  if (!d.host.facts.hostname.empty()) out += " for " + d.host.facts.hostname;
  out += "\n";
  for (const auto& [name, value] : labels) out += name + "=" + value + "\n";
  return out;
}

}  // namespace hwaccel
