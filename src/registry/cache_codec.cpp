#include "src/registry/cache_codec.h"

#include <array>
#include <concepts>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace hwaccel {
namespace {

using nlohmann::json;

// ---- The fields of each struct, in one list for both directions ----------

template <class V>
void fields(V& v, Facts& f) {
  v("os", f.os), v("arch", f.arch), v("kernel", f.kernel), v("page_size", f.page_size);
  v("cpus", f.cpus), v("hostname", f.hostname);
}
template <class V>
void fields(V& v, HostSummary& h) {
  v("facts", h.facts), v("discovered_at", h.discovered_at);
}
template <class V>
void fields(V& v, Reason& r) {
  v("code", r.code), v("detail", r.detail);
}
template <class V>
void fields(V& v, BackendStatus& b) {
  v("name", b.name), v("ready", b.ready), v("reason", b.reason);
}
template <class V>
void fields(V& v, Memory& m) {
  v("total_bytes", m.total_bytes), v("free_bytes", m.free_bytes), v("kind", m.kind);
  v("working_set_limit_bytes", m.working_set_limit_bytes), v("source", m.source);
}
template <class V>
void fields(V& v, Partition& p) {
  v("profile", p.profile), v("parent_physical_id", p.parent_physical_id);
  v("parent_index", p.parent_index), v("gpu_instance_id", p.gpu_instance_id);
  v("compute_instance_id", p.compute_instance_id);
}
template <class V>
void fields(V& v, PcieLinkState& s) {
  v("gt_per_s", s.gt_per_s), v("width", s.width), v("generation", s.generation);
  v("gbytes_per_s", s.gbytes_per_s);
}
template <class V>
void fields(V& v, PcieLink& l) {
  v("current", l.current), v("max", l.max), v("source", l.source);
}
template <class V>
void fields(V& v, Entry& e) {
  v("backend", e.backend), v("api", e.api), v("index", e.index);
  v("physical_id", e.physical_id), v("name", e.name), v("vendor", e.vendor);
  v("pci_vendor_id", e.pci_vendor_id), v("pci_device_id", e.pci_device_id);
  v("pci_bus_id", e.pci_bus_id), v("uuid", e.uuid), v("type", e.type), v("memory", e.memory);
  v("compute_class", e.compute_class), v("driver_version", e.driver_version);
  v("status", e.status), v("reason", e.reason), v("provenance", e.provenance);
  v("partition", e.partition), v("partitioned", e.partitioned), v("numa_node", e.numa_node);
  v("cpu_affinity", e.cpu_affinity), v("pcie", e.pcie), v("ordinal", e.ordinal);
}
template <class V>
void fields(V& v, Warning& w) {
  v("backend", w.backend), v("message", w.message);
}
template <class V>
void fields(V& v, Link& l) {
  v("a", l.a), v("b", l.b), v("kind", l.kind), v("lanes", l.lanes), v("path", l.path);
  v("source", l.source);
}
template <class V>
void fields(V& v, CpuCounts& c) {
  v("threads", c.threads), v("cores", c.cores), v("sockets", c.sockets);
}
template <class V>
void fields(V& v, CpuQuota& q) {
  v("quota_us", q.quota_us), v("period_us", q.period_us);
}
template <class V>
void fields(V& v, CgroupLimits& c) {
  v("version", c.version), v("path", c.path), v("cpus", c.cpus), v("mems", c.mems);
  v("memory_limit", c.memory_limit), v("cpu_quota", c.cpu_quota), v("cpus_file", c.cpus_file);
  v("mems_file", c.mems_file), v("memory_file", c.memory_file);
  v("cpu_quota_file", c.cpu_quota_file), v("notes", c.notes);
}
template <class V>
void fields(V& v, HostResources& r) {
  v("online", r.online), v("online_source", r.online_source), v("cpus", r.cpus);
  v("topology_source", r.topology_source), v("numa_nodes", r.numa_nodes);
  v("numa_source", r.numa_source), v("memory_bytes", r.memory_bytes);
  v("memory_source", r.memory_source), v("usable", r.usable), v("usable_cpus", r.usable_cpus);
  v("usable_numa_nodes", r.usable_numa_nodes), v("usable_memory_bytes", r.usable_memory_bytes);
  v("usable_cpu_count", r.usable_cpu_count), v("limited_by", r.limited_by);
  v("cgroup", r.cgroup);
}
template <class V>
void fields(V& v, NetworkPort& p) {
  v("device", p.device), v("port", p.port), v("state", p.state), v("link_layer", p.link_layer);
  v("rate", p.rate), v("gbits_per_s", p.gbits_per_s), v("gbytes_per_s", p.gbytes_per_s);
  v("pci_bus_id", p.pci_bus_id), v("numa_node", p.numa_node), v("pcie", p.pcie);
}
template <class V>
void fields(V& v, BlockDevice& b) {
  v("name", b.name), v("kind", b.kind), v("why", b.why), v("size_bytes", b.size_bytes);
  v("rotational", b.rotational), v("model", b.model), v("transport", b.transport);
  v("pci_bus_id", b.pci_bus_id), v("pcie", b.pcie);
}
template <class V>
void fields(V& v, RuntimeEnvironment& r) {
  v("container", r.container), v("container_evidence", r.container_evidence);
  v("kubernetes", r.kubernetes), v("kubernetes_evidence", r.kubernetes_evidence);
  v("cloud", r.cloud), v("instance_type", r.instance_type);
  v("virtual_machine", r.virtual_machine), v("hypervisor", r.hypervisor);
  v("vm_evidence", r.vm_evidence), v("sys_vendor", r.sys_vendor);
  v("product_name", r.product_name), v("board_vendor", r.board_vendor);
  v("bios_vendor", r.bios_vendor), v("chassis_asset_tag", r.chassis_asset_tag);
}
template <class V>
void fields(V& v, SystemInfo& s) {
  v("resources", s.resources), v("network_ports", s.ports), v("storage", s.storage);
  v("environment", s.environment), v("warnings", s.warnings);
}
template <class V>
void fields(V& v, Detection& d) {
  v("host", d.host), v("backends", d.backends), v("devices", d.entries);
  v("warnings", d.warnings), v("links", d.links), v("system", d.system);
}

// ---- Enums by name: a renamed or new value is read back, or refused --------

constexpr std::array kDeviceTypes = {DeviceType::cpu, DeviceType::gpu,  DeviceType::npu,
                                     DeviceType::tpu, DeviceType::asic, DeviceType::other};
constexpr std::array kMemoryKinds = {MemoryKind::discrete, MemoryKind::unified, MemoryKind::host};

std::string_view to_string(EntryStatus s) {
  return s == EntryStatus::ready ? "ready" : "unavailable";
}

std::optional<DeviceType> from_name(std::string_view name, DeviceType*) {
  for (auto t : kDeviceTypes)
    if (to_string(t) == name) return t;
  return std::nullopt;
}
std::optional<MemoryKind> from_name(std::string_view name, MemoryKind*) {
  for (auto k : kMemoryKinds)
    if (to_string(k) == name) return k;
  return std::nullopt;
}
std::optional<EntryStatus> from_name(std::string_view name, EntryStatus*) {
  if (name == "ready") return EntryStatus::ready;
  if (name == "unavailable") return EntryStatus::unavailable;
  return std::nullopt;
}
std::optional<ReasonCode> from_name(std::string_view name, ReasonCode*) {
  return reason_code_from_string(name);
}

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};
template <class T>
struct is_vector : std::false_type {};
template <class T>
struct is_vector<std::vector<T>> : std::true_type {};

// ---- Writing ----------------------------------------------------------------

template <class T>
json encode(const T& value);

struct Encoder {
  json out = json::object();
  template <class T>
  void operator()(const char* key, const T& value) {
    out[key] = encode(value);
  }
};

template <class T>
json encode(const T& value) {
  if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, bool> ||
                std::is_arithmetic_v<T>) {
    return json(value);
  } else if constexpr (std::is_enum_v<T>) {
    return json(std::string(to_string(value)));
  } else if constexpr (is_optional<T>::value) {
    return value ? encode(*value) : json(nullptr);
  } else if constexpr (is_vector<T>::value) {
    json out = json::array();
    for (const auto& item : value) out.push_back(encode(item));
    return out;
  } else {
    Encoder e;
    fields(e, const_cast<T&>(value));  // the encoder only reads
    return std::move(e.out);
  }
}

// ---- Reading ------------------------------------------------------------------

// Thrown inside the reader only, with the place of the bad value.
struct Bad : std::runtime_error {
  using std::runtime_error::runtime_error;
};

template <class T>
void decode(const json& j, T& value, const std::string& where);

struct Decoder {
  const json& in;
  const std::string& where;
  template <class T>
  void operator()(const char* key, T& value) {
    auto it = in.find(key);
    if (it != in.end()) decode(*it, value, where + "." + key);
  }
};

template <class T>
void decode(const json& j, T& value, const std::string& where) {
  if constexpr (std::is_same_v<T, std::string>) {
    if (!j.is_string()) throw Bad(where + ": expected a string");
    value = j.get<std::string>();
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!j.is_boolean()) throw Bad(where + ": expected true or false");
    value = j.get<bool>();
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!j.is_number()) throw Bad(where + ": expected a number");
    value = j.get<T>();
  } else if constexpr (std::is_integral_v<T>) {
    // Range-checked: a huge or negative number where a count belongs is refused.
    bool fits = false;
    if (j.is_number_unsigned())
      fits = j.get<std::uint64_t>() <= std::uint64_t(std::numeric_limits<T>::max());
    else if (j.is_number_integer())
      fits = j.get<std::int64_t>() >= std::int64_t(std::numeric_limits<T>::min()) &&
             (j.get<std::int64_t>() < 0 ||
              std::uint64_t(j.get<std::int64_t>()) <= std::uint64_t(std::numeric_limits<T>::max()));
    if (!fits) {
      throw Bad(where +
                (std::is_signed_v<T> ? ": expected an integer" : ": expected a whole number") +
                " from " + std::to_string(std::numeric_limits<T>::min()) + " to " +
                std::to_string(std::numeric_limits<T>::max()));
    }
    value = T(j.is_number_unsigned() ? T(j.get<std::uint64_t>()) : T(j.get<std::int64_t>()));
  } else if constexpr (std::is_enum_v<T>) {
    if (!j.is_string()) throw Bad(where + ": expected a name");
    auto known = from_name(j.get<std::string>(), static_cast<T*>(nullptr));
    if (!known) throw Bad(where + ": unknown value \"" + j.get<std::string>() + "\"");
    value = *known;
  } else if constexpr (is_optional<T>::value) {
    if (j.is_null()) {
      value.reset();
    } else {
      typename T::value_type inner{};
      decode(j, inner, where);
      value = std::move(inner);
    }
  } else if constexpr (is_vector<T>::value) {
    if (!j.is_array()) throw Bad(where + ": expected an array");
    value.assign(j.size(), typename T::value_type{});
    for (std::size_t i = 0; i < j.size(); ++i)
      decode(j[i], value[i], where + "[" + std::to_string(i) + "]");
  } else {
    if (!j.is_object()) throw Bad(where + ": expected an object");
    Decoder d{j, where};
    fields(d, value);
  }
}

}  // namespace

json encode_detection(const Detection& detection) {
  return encode(detection);
}

DecodedDetection decode_detection(const json& doc, const std::string& where) {
  DecodedDetection out;
  try {
    Detection d;
    decode(doc, d, where);
    out.detection = std::move(d);
  } catch (const Bad& bad) {
    out.error = bad.what();
  } catch (const std::exception& e) {  // not expected: every read is checked above
    out.error = where + ": " + e.what();
  }
  return out;
}

}  // namespace hwaccel
