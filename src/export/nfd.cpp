// `hwaccel export nfd`: labels per accelerator family. NFD reads every
// non-hidden file in /etc/kubernetes/node-feature-discovery/features.d/, one
// `name=value` per line; `#` starts a comment and `# +` a directive (we write
// only `# +expiry-time=`, after which nfd-worker drops the labels of a dead
// agent). Numbers are what NVIDIA's GPU Feature Discovery gives, for every
// vendor, so that Gt/Lt node affinity works: compute.major/minor,
// driver.major/minor/rev, memory (MiB), count, product, mig-<profile>.count,
// mig.strategy; with `nvidia_labels`, the cuda family also under nvidia.com/
// exactly as GFD names them.
#include <map>

#include "src/export/fleet_exports.h"
#include "src/export/k8s_labels.h"
#include "src/export/version_numbers.h"
#include "src/registry/identity.h"

namespace hwaccel {

namespace {

struct Family {
  std::size_t devices = 0, ready = 0;
  std::map<std::string, std::size_t> products;  // name -> devices
  std::optional<std::uint64_t> min_memory;      // discrete memory only
  std::string compute_class, driver_version;
  bool unified = false, partitioned = false;
  std::map<std::string, std::size_t> mig;   // profile -> slices
  std::optional<std::uint64_t> mig_memory;  // the smallest slice
};

std::string label(const std::string& name) {
  return std::string(kLabelNamespace) + "/" + name;
}

std::string majority(const std::map<std::string, std::size_t>& products) {
  std::string product;
  std::size_t most = 0;
  for (const auto& [n, count] : products)
    if (count > most) most = count, product = n;
  return product;
}

// The labels GFD gives one family, keyed by GFD's names without a prefix.
std::map<std::string, std::string> gfd_labels(const Family& f, MigStrategy mig) {
  std::map<std::string, std::string> out;
  std::size_t count = f.devices;
  std::string product = majority(f.products);
  std::optional<std::uint64_t> memory = f.min_memory;
  if (f.partitioned) {
    bool single_valid = f.mig.size() == 1;
    out["mig.strategy"] = std::string(to_string(mig));
    if (mig == MigStrategy::single) {
      // GFD: every slice is a gpu; mixed profiles make the strategy invalid.
      std::size_t slices = 0;
      for (const auto& [profile, n] : f.mig) slices += n;
      count = single_valid ? slices : 0;
      product += single_valid ? "-MIG-" + f.mig.begin()->first : "-MIG-INVALID";
      memory = f.mig_memory;
    } else if (mig == MigStrategy::mixed) {
      for (const auto& [profile, n] : f.mig) out["mig-" + profile + ".count"] = std::to_string(n);
    }
  }
  out["gpu.count"] = std::to_string(count);
  if (auto v = to_label_value(product); !v.empty()) out["gpu.product"] = v;
  if (memory) out["gpu.memory"] = std::to_string(*memory >> 20);
  if (auto c = compute_version(f.compute_class)) {
    out["gpu.compute.major"] = c->major;
    out["gpu.compute.minor"] = c->minor;
  }
  if (auto v = driver_version_numbers(f.driver_version)) {
    out["driver.major"] = v->major;
    out["driver.minor"] = v->minor;
    out["driver.rev"] = v->rev;
  }
  return out;
}

}  // namespace

std::string render_nfd(const Detection& d, const NfdOptions& o) {
  std::map<std::string, std::string> labels;  // sorted: deterministic
  std::map<std::string, Family> families;
  for (const auto& e : d.entries)
    if (e.type == DeviceType::cpu && e.backend == "cpu" && !e.compute_class.empty())
      labels[label("cpu.compute-class")] = to_label_value(e.compute_class);
  for (const auto& p : physical_devices(d)) {
    const Entry& e = *p.entry;
    Family& f = families[e.backend];
    ++f.devices;
    if (p.ready()) ++f.ready;
    ++f.products[e.name];
    // Unified memory is the host's: GFD's gpu.memory is the device's own.
    if (!p.integrated && e.memory.total_bytes &&
        (!f.min_memory || *e.memory.total_bytes < *f.min_memory))
      f.min_memory = e.memory.total_bytes;
    if (f.compute_class.empty()) f.compute_class = e.compute_class;
    if (f.driver_version.empty()) f.driver_version = e.driver_version;
    f.unified |= p.integrated;
    f.partitioned |= !p.slices.empty();
    for (const Entry* s : p.slices) {
      ++f.mig[s->partition->profile];
      if (s->memory.total_bytes && (!f.mig_memory || *s->memory.total_bytes < *f.mig_memory))
        f.mig_memory = s->memory.total_bytes;
    }
  }
  const std::size_t ready = count_physical_accelerators(d.entries, true);
  labels[label("accelerator")] = ready > 0 ? "true" : "false";
  labels[label("accelerator.count")] = std::to_string(ready);
  for (const auto& [name, f] : families) {
    const std::string p = name + ".";
    labels[label(name)] = "true";
    labels[label(p + "ready")] = std::to_string(f.ready);
    if (f.products.size() > 1) labels[label(p + "mixed")] = "true";
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
    // GFD's names under ours: hwaccel.io/cuda.count, cuda.memory, cuda.compute.major, ...
    for (const auto& [k, v] : gfd_labels(f, o.mig)) {
      std::string ours = k.rfind("gpu.", 0) == 0 ? k.substr(4) : k;
      labels[label(p + ours)] = v;
      if (o.nvidia_labels && name == "cuda")
        labels["nvidia.com/" + (k.rfind("driver.", 0) == 0 ? "cuda." + k : k)] = v;
    }
  }

  std::string out = "# hwaccel export nfd (hwaccel " + std::string(HWACCEL_VERSION) + ")";
  if (!d.host.facts.hostname.empty()) out += " for " + d.host.facts.hostname;
  out += "\n";
  if (!o.expiry_time.empty()) out += "# +expiry-time=" + o.expiry_time + "\n";
  for (const auto& [name, value] : labels) out += name + "=" + value + "\n";
  return out;
}

}  // namespace hwaccel
