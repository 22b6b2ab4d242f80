// The C++ API (include/hwaccel/hwaccel.hpp): a lazy registry over detect().
// Each backend is probed at most once, when a query first needs it; the
// answers are merged into one Detection in backend order, so every query
// reuses the CLI's selection, reserve and memory rules.
#include <algorithm>
#include <map>
#include <mutex>

#include "hwaccel/hwaccel.hpp"
#include "src/host/live_host.h"
#include "src/host/snapshot_host.h"
#include "src/registry/detection.h"
#include "src/registry/request_text.h"
#include "src/registry/reserve.h"
#include "src/registry/selection.h"
#include "src/registry/summary.h"
#include "src/report/detect_json.h"

namespace hwaccel::api {

namespace {

Device to_device(const Entry& e) {
  Device d;
  d.label = entry_label(e);
  d.backend = e.backend;
  d.index = e.index;
  d.name = e.name;
  d.vendor = e.vendor;
  d.type = std::string(to_string(e.type));
  d.physical_id = e.physical_id;
  d.pci_bus_id = e.pci_bus_id;
  d.compute_class = e.compute_class;
  d.driver_version = e.driver_version;
  d.ready = e.status == EntryStatus::ready;
  if (e.reason) {
    d.reason = std::string(to_string(e.reason->code));
    if (!e.reason->detail.empty()) d.reason += ": " + e.reason->detail;
  }
  d.memory_kind = std::string(to_string(e.memory.kind));
  d.total_bytes = e.memory.total_bytes;
  d.free_bytes = e.memory.free_bytes;
  return d;
}

DeviceType type_from(const std::string& s) {
  for (auto t :
       {DeviceType::cpu, DeviceType::gpu, DeviceType::npu, DeviceType::tpu, DeviceType::asic})
    if (to_string(t) == s) return t;
  return DeviceType::other;
}

Entry to_entry(const Device& d) {
  Entry e;
  e.backend = d.backend;
  e.api = "custom";
  e.index = d.index;
  e.name = d.name;
  e.vendor = d.vendor;
  e.type = type_from(d.type);
  e.physical_id =
      d.physical_id.empty() ? "custom:" + d.backend + ":" + std::to_string(d.index) : d.physical_id;
  e.pci_bus_id = d.pci_bus_id;
  e.compute_class = d.compute_class;
  e.driver_version = d.driver_version;
  e.status = d.ready ? EntryStatus::ready : EntryStatus::unavailable;
  if (!d.ready) e.reason = Reason{ReasonCode::probe_failed, d.reason};
  e.memory.kind = d.memory_kind == "unified" ? MemoryKind::unified
                  : d.memory_kind == "host"  ? MemoryKind::host
                                             : MemoryKind::discrete;
  e.memory.total_bytes = d.total_bytes;
  e.memory.free_bytes = d.free_bytes;
  e.memory.source = "custom";
  e.provenance = {"custom"};
  return e;
}

}  // namespace

struct Registry::Impl {
  std::unique_ptr<Host> host;
  std::vector<std::string> families;        // in backend order
  std::map<std::string, Detection> probed;  // backend -> its detection
  std::vector<Entry> added;                 // add_device()
  std::mutex mutex;

  // Probes the named backends that are not probed yet, together (concurrently).
  void ensure(const std::vector<std::string>& wanted) {
    std::vector<std::string> missing;
    for (const auto& b : wanted)
      if (!probed.count(b)) missing.push_back(b);
    if (missing.empty()) return;
    DetectOptions options;
    options.only = missing;
    Detection d = detect(*host, options);
    for (const auto& b : missing) {
      Detection part;
      part.host = d.host;
      for (const auto& line : d.backends)
        if (line.name == b) part.backends.push_back(line);
      for (const auto& e : d.entries)
        if (e.backend == b) part.entries.push_back(e);
      for (const auto& w : d.warnings)
        if (w.backend == b) part.warnings.push_back(w);
      for (const auto& l : d.links) part.links.push_back(l);
      probed[b] = std::move(part);
    }
  }

  // What is probed so far, plus the added devices, as one detection.
  Detection merged() {
    Detection d;
    for (const auto& b : families) {
      auto it = probed.find(b);
      if (it == probed.end()) continue;
      if (d.host.facts.os.empty()) d.host = it->second.host;
      d.backends.insert(d.backends.end(), it->second.backends.begin(), it->second.backends.end());
      d.entries.insert(d.entries.end(), it->second.entries.begin(), it->second.entries.end());
      d.warnings.insert(d.warnings.end(), it->second.warnings.begin(), it->second.warnings.end());
      d.links.insert(d.links.end(), it->second.links.begin(), it->second.links.end());
    }
    std::vector<std::string> custom;
    for (const auto& e : added) {
      if (std::find(families.begin(), families.end(), e.backend) == families.end() &&
          std::find(custom.begin(), custom.end(), e.backend) == custom.end()) {
        custom.push_back(e.backend);
        d.backends.push_back({e.backend, true, std::nullopt});
      }
      d.entries.push_back(e);
    }
    std::sort(d.links.begin(), d.links.end());
    d.links.erase(std::unique(d.links.begin(), d.links.end()), d.links.end());
    return d;
  }

  Detection everything() {
    ensure(families);
    return merged();
  }
};

Registry::Registry(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Registry::Registry(Registry&&) noexcept = default;
Registry& Registry::operator=(Registry&&) noexcept = default;
Registry::~Registry() = default;

std::vector<std::string> Registry::families() const {
  return impl_->families;
}

std::vector<std::string> Registry::probed_families() const {
  std::lock_guard lock(impl_->mutex);
  std::vector<std::string> out;
  for (const auto& b : impl_->families)
    if (impl_->probed.count(b)) out.push_back(b);
  return out;
}

std::vector<Device> Registry::devices() {
  std::lock_guard lock(impl_->mutex);
  std::vector<Device> out;
  for (const auto& e : impl_->everything().entries) out.push_back(to_device(e));
  return out;
}

std::vector<Device> Registry::family(const std::string& backend) {
  std::lock_guard lock(impl_->mutex);
  std::vector<Device> out;
  if (std::find(impl_->families.begin(), impl_->families.end(), backend) != impl_->families.end())
    impl_->ensure({backend});
  for (const auto& e : impl_->merged().entries)
    if (e.backend == backend) out.push_back(to_device(e));
  return out;
}

DeviceDetails Registry::details(const Device& device) {
  std::lock_guard lock(impl_->mutex);
  DeviceDetails out;
  const auto all = impl_->merged().entries;
  for (const auto& e : all) {
    if (entry_label(e) != device.label || e.api == "custom") continue;
    out.uuid = e.uuid;
    out.ordinal = e.ordinal;
    out.numa_node = e.numa_node;
    if (e.partition) {
      out.partition_profile = e.partition->profile;
      out.partition_parent = e.partition->parent_physical_id;
      for (const auto& parent : all)
        if (!parent.partition && parent.backend == e.backend &&
            parent.physical_id == e.partition->parent_physical_id)
          out.partition_parent = entry_label(parent);
    }
    break;
  }
  return out;
}

std::optional<Device> Registry::best() {
  std::lock_guard lock(impl_->mutex);
  Detection d = impl_->everything();
  Selection s = select_default(d);
  if (!s.entry) return std::nullopt;
  return to_device(d.entries[*s.entry]);
}

Choice Registry::select(const std::string& request) {
  std::lock_guard lock(impl_->mutex);
  Choice choice;
  auto parsed = parse_request_text(request);
  if (!parsed.request) {
    choice.reason = parsed.error;
    return choice;
  }
  // A request for one backend probes that backend only.
  Detection d;
  if (!parsed.request->backend.empty() && parsed.request->device.empty()) {
    if (std::find(impl_->families.begin(), impl_->families.end(), parsed.request->backend) !=
        impl_->families.end())
      impl_->ensure({parsed.request->backend});
    d = impl_->merged();
  } else {
    d = impl_->everything();
  }
  auto reserve = choose_reserve(std::nullopt, impl_->host->env(kReserveEnv));
  if (!reserve.reserve) {
    choice.reason = reserve.error;
    return choice;
  }
  apply_reserve(d, *reserve.reserve);
  std::vector<std::string> compiled = backend_names();
  for (const auto& e : impl_->added) compiled.push_back(e.backend);
  auto r = resolve_request(d, *parsed.request, compiled);
  choice.reason = r.message;
  if (r.outcome == RequestOutcome::selected && r.entry)
    choice.device = to_device(d.entries[*r.entry]);
  return choice;
}

std::uint64_t Registry::total_memory_bytes() {
  std::lock_guard lock(impl_->mutex);
  return summarize(impl_->everything()).total_memory_bytes;
}

std::uint64_t Registry::accelerator_memory_bytes() {
  std::lock_guard lock(impl_->mutex);
  return hwaccel::accelerator_memory_bytes(impl_->everything());
}

void Registry::add_device(const Device& device) {
  std::lock_guard lock(impl_->mutex);
  impl_->added.push_back(to_entry(device));
}

std::string Registry::json() {
  std::lock_guard lock(impl_->mutex);
  return render_detect_json(impl_->merged());
}

RegistryBuilder& RegistryBuilder::backends(std::vector<std::string> names) {
  backends_ = std::move(names);
  return *this;
}

RegistryBuilder& RegistryBuilder::snapshot(std::string path) {
  snapshot_ = std::move(path);
  return *this;
}

RegistryBuilder& RegistryBuilder::tool_timeout(std::chrono::milliseconds timeout) {
  timeout_ = timeout;
  return *this;
}

RegistryBuilder& RegistryBuilder::eager(bool eager) {
  eager_ = eager;
  return *this;
}

Registry RegistryBuilder::build() const {
  auto impl = std::make_unique<Registry::Impl>();
  const auto all = reported_backend_names();
  if (backends_.empty()) {
    impl->families = all;
  } else {
    for (const auto& b : all)  // keep backend order, whatever order was asked
      if (std::find(backends_.begin(), backends_.end(), b) != backends_.end())
        impl->families.push_back(b);
    for (const auto& b : backends_)
      if (std::find(all.begin(), all.end(), b) == all.end()) {
        std::string known;
        for (const auto& k : all) known += (known.empty() ? "" : ", ") + k;
        throw Error("unknown backend \"" + b + "\" (this build has: " + known + ")");
      }
  }
  if (!snapshot_.empty()) {
    auto loaded = load_snapshot_file(snapshot_);
    if (loaded.error) throw Error(loaded.error->to_string());
    impl->host = std::make_unique<SnapshotHost>(std::move(*loaded.snapshot));
  } else {
    LiveHostOptions options;
    options.default_timeout = timeout_;
    impl->host = std::make_unique<LiveHost>(options);
  }
  if (eager_) impl->ensure(impl->families);
  return Registry(std::move(impl));
}

std::string version() {
  return HWACCEL_VERSION;
}

}  // namespace hwaccel::api
