#include "src/registry/saved_detection.h"

#include <stdexcept>

#include "src/host/tree_facts.h"
#include "src/snapshot/limits.h"

namespace hwaccel {
namespace {

using nlohmann::json;

// Thrown inside the reader only, with the JSON path of the bad value.
struct Bad : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const json* field(const json& obj, const char* key) {
  auto it = obj.find(key);
  return it == obj.end() || it->is_null() ? nullptr : &*it;
}

std::string text(const json& obj, const char* key, const std::string& where) {
  const json* v = field(obj, key);
  if (!v) return "";
  if (!v->is_string()) throw Bad(where + "." + key + ": expected a string or null");
  return v->get<std::string>();
}

std::optional<std::uint64_t> number(const json& obj, const char* key, const std::string& where) {
  const json* v = field(obj, key);
  if (!v) return std::nullopt;
  if (!v->is_number_unsigned() && !(v->is_number_integer() && v->get<std::int64_t>() >= 0))
    throw Bad(where + "." + key + ": expected a non-negative integer or null");
  return v->get<std::uint64_t>();
}

std::int64_t integer(const json& obj, const char* key, const std::string& where) {
  const json* v = field(obj, key);
  if (!v) return 0;
  if (!v->is_number_integer()) throw Bad(where + "." + key + ": expected an integer");
  return v->get<std::int64_t>();
}

std::optional<std::uint16_t> hex_id(const json& obj, const char* key, const std::string& where) {
  std::string t = text(obj, key, where);
  if (t.empty()) return std::nullopt;
  try {
    std::size_t used = 0;
    unsigned long v = std::stoul(t, &used, 16);
    if (used != t.size() || v > 0xffff) throw Bad("");
    return std::uint16_t(v);
  } catch (...) {
    throw Bad(where + "." + key + ": expected a hex id like \"0x10de\"");
  }
}

const json& object(const json& v, const std::string& where) {
  if (!v.is_object()) throw Bad(where + ": expected an object");
  return v;
}

const json& array(const json& obj, const char* key, const std::string& where) {
  static const json empty = json::array();
  const json* v = field(obj, key);
  if (!v) return empty;
  if (!v->is_array()) throw Bad(where + "." + key + ": expected an array");
  return *v;
}

std::optional<double> real(const json& obj, const char* key, const std::string& where) {
  const json* v = field(obj, key);
  if (!v) return std::nullopt;
  if (!v->is_number()) throw Bad(where + "." + key + ": expected a number or null");
  return v->get<double>();
}

std::optional<bool> flag(const json& obj, const char* key, const std::string& where) {
  const json* v = field(obj, key);
  if (!v) return std::nullopt;
  if (!v->is_boolean()) throw Bad(where + "." + key + ": expected true, false or null");
  return v->get<bool>();
}

std::optional<int> small(const json& obj, const char* key, const std::string& where) {
  if (!field(obj, key)) return std::nullopt;
  return int(integer(obj, key, where));
}

std::vector<std::string> strings(const json& obj, const char* key, const std::string& where) {
  std::vector<std::string> out;
  const json* v = field(obj, key);
  if (!v) return out;
  if (!v->is_array()) throw Bad(where + "." + key + ": expected an array");
  for (const auto& s : *v) {
    if (!s.is_string()) throw Bad(where + "." + key + ": expected strings");
    out.push_back(s.get<std::string>());
  }
  return out;
}

PcieLinkState pcie_state(const json& obj, const char* key, const std::string& where) {
  PcieLinkState st;
  const json* v = field(obj, key);
  if (!v) return st;
  const std::string w = where + "." + key;
  object(*v, w);
  st.gt_per_s = real(*v, "gt_per_s", w);
  st.width = small(*v, "width", w);
  st.generation = small(*v, "generation", w);
  st.gbytes_per_s = real(*v, "gbytes_per_s", w);
  return st;
}

std::optional<PcieLink> pcie(const json& obj, const std::string& where) {
  const json* v = field(obj, "pcie");
  if (!v) return std::nullopt;
  const std::string w = where + ".pcie";
  object(*v, w);
  PcieLink link;
  link.current = pcie_state(*v, "current", w);
  link.max = pcie_state(*v, "max", w);
  link.source = text(*v, "source", w);
  return link;
}

CpuCounts cpu_counts(const json& obj, const std::string& where) {
  CpuCounts c;
  c.threads = small(obj, "threads", where).value_or(0);
  c.cores = small(obj, "cores", where);
  c.sockets = small(obj, "sockets", where);
  return c;
}

std::vector<int> cpu_ids(const json& obj, const std::string& where) {
  std::string list = text(obj, "cpu_list", where);
  auto ids = parse_cpu_list(list);
  if (!ids) throw Bad(where + ".cpu_list: expected a CPU list such as 0-3,8, got \"" + list + "\"");
  return *ids;
}

HostResources resources(const json& sys) {
  HostResources r;
  const json* res = field(sys, "resources");
  if (!res) return r;
  const std::string w = "system.resources";
  object(*res, w);
  if (const json* host = field(*res, "host")) {
    const std::string h = w + ".host";
    object(*host, h);
    r.online = cpu_ids(*host, h);
    r.online_source = text(*host, "cpus_source", h);
    r.cpus = cpu_counts(*host, h);
    r.topology_source = text(*host, "topology_source", h);
    r.numa_nodes = small(*host, "numa_nodes", h).value_or(0);
    r.numa_source = text(*host, "numa_source", h);
    r.memory_bytes = number(*host, "memory_bytes", h);
    r.memory_source = text(*host, "memory_source", h);
  }
  if (const json* usable = field(*res, "usable")) {
    const std::string u = w + ".usable";
    object(*usable, u);
    r.usable = cpu_ids(*usable, u);
    r.usable_cpus = cpu_counts(*usable, u);
    r.usable_numa_nodes = small(*usable, "numa_nodes", u).value_or(0);
    r.usable_memory_bytes = number(*usable, "memory_bytes", u);
    r.limited_by = strings(*usable, "limited_by", u);
    r.usable_cpu_count = static_cast<int>(r.usable.size());
    if (const json* quota = field(*usable, "cpu_quota")) {
      const std::string q = u + ".cpu_quota";
      object(*quota, q);
      auto parsed = parse_cpu_max(std::to_string(number(*quota, "quota_us", q).value_or(0)) + " " +
                                  std::to_string(number(*quota, "period_us", q).value_or(0)));
      if (!parsed) throw Bad(q + ": expected a positive quota_us and period_us (at most 1 s)");
      r.cgroup.cpu_quota = parsed;
      r.cgroup.cpu_quota_file = text(*quota, "file", q);
      r.usable_cpu_count = small(*quota, "cpu_count", q).value_or(r.usable_cpu_count);
    }
  }
  if (const json* cgroup = field(*res, "cgroup")) {
    object(*cgroup, w + ".cgroup");
    r.cgroup.version = small(*cgroup, "version", w + ".cgroup").value_or(0);
    r.cgroup.path = text(*cgroup, "path", w + ".cgroup");
  }
  return r;
}

// The `system` object (the environment, ports and storage; its warnings are
// among the document's warnings already).
SystemInfo system_info(const json& doc) {
  SystemInfo s;
  const json* sys = field(doc, "system");
  if (!sys) return s;
  object(*sys, "system");
  s.resources = resources(*sys);
  if (const json* e = field(*sys, "environment")) {
    const std::string w = "system.environment";
    object(*e, w);
    RuntimeEnvironment& env = s.environment;
    env.container = text(*e, "container", w);
    env.container_evidence = strings(*e, "container_evidence", w);
    env.kubernetes = flag(*e, "kubernetes", w).value_or(false);
    env.kubernetes_evidence = strings(*e, "kubernetes_evidence", w);
    env.cloud = text(*e, "cloud", w);
    env.instance_type = text(*e, "instance_type", w);
    env.virtual_machine = flag(*e, "virtual_machine", w);
    env.hypervisor = text(*e, "hypervisor", w);
    env.vm_evidence = strings(*e, "vm_evidence", w);
    if (const json* dmi = field(*e, "dmi")) {
      object(*dmi, w + ".dmi");
      env.sys_vendor = text(*dmi, "sys_vendor", w + ".dmi");
      env.product_name = text(*dmi, "product_name", w + ".dmi");
      env.board_vendor = text(*dmi, "board_vendor", w + ".dmi");
      env.bios_vendor = text(*dmi, "bios_vendor", w + ".dmi");
    }
  }
  if (field(*sys, "network_ports")) {
    const json& ports = array(*sys, "network_ports", "system");
    for (std::size_t i = 0; i < ports.size(); ++i) {
      const std::string w = "system.network_ports[" + std::to_string(i) + "]";
      const json& p = object(ports[i], w);
      NetworkPort port;
      port.device = text(p, "device", w);
      port.port = int(integer(p, "port", w));
      port.state = text(p, "state", w);
      port.link_layer = text(p, "link_layer", w);
      port.rate = text(p, "rate", w);
      port.gbits_per_s = real(p, "gbits_per_s", w);
      port.gbytes_per_s = real(p, "gbytes_per_s", w);
      port.pci_bus_id = text(p, "pci_bus_id", w);
      port.numa_node = small(p, "numa_node", w);
      port.pcie = pcie(p, w);
      s.ports.push_back(std::move(port));
    }
  }
  if (field(*sys, "storage")) {
    const json& storage = array(*sys, "storage", "system");
    for (std::size_t i = 0; i < storage.size(); ++i) {
      const std::string w = "system.storage[" + std::to_string(i) + "]";
      const json& b = object(storage[i], w);
      BlockDevice d;
      d.name = text(b, "name", w);
      d.kind = text(b, "kind", w);
      d.why = text(b, "why", w);
      d.size_bytes = number(b, "size_bytes", w);
      d.rotational = flag(b, "rotational", w);
      d.model = text(b, "model", w);
      d.transport = text(b, "transport", w);
      d.pci_bus_id = text(b, "pci_bus_id", w);
      d.pcie = pcie(b, w);
      s.storage.push_back(std::move(d));
    }
  }
  return s;
}

std::optional<Reason> reason(const json& obj, const std::string& where) {
  const json* v = field(obj, "reason");
  if (!v) return std::nullopt;
  object(*v, where + ".reason");
  std::string code = text(*v, "code", where + ".reason");
  auto parsed = reason_code_from_string(code);
  if (!parsed) throw Bad(where + ".reason.code: unknown reason \"" + code + "\"");
  return Reason{*parsed, text(*v, "detail", where + ".reason")};
}

template <typename T>
T from_name(const std::string& name, std::initializer_list<T> values, const std::string& where) {
  for (T v : values)
    if (to_string(v) == name) return v;
  throw Bad(where + ": unknown value \"" + name + "\"");
}

Entry entry(const json& e, const std::string& where) {
  object(e, where);
  Entry out;
  out.backend = text(e, "backend", where);
  out.api = text(e, "api", where);
  out.index = int(integer(e, "index", where));
  out.physical_id = text(e, "physical_id", where);
  out.name = text(e, "name", where);
  out.vendor = text(e, "vendor", where);
  out.type = from_name(text(e, "type", where),
                       {DeviceType::cpu, DeviceType::gpu, DeviceType::npu, DeviceType::tpu,
                        DeviceType::asic, DeviceType::other},
                       where + ".type");
  out.uuid = text(e, "uuid", where);
  if (const json* pci = field(e, "pci")) {
    object(*pci, where + ".pci");
    out.pci_vendor_id = hex_id(*pci, "vendor_id", where + ".pci");
    out.pci_device_id = hex_id(*pci, "device_id", where + ".pci");
    out.pci_bus_id = text(*pci, "bus_id", where + ".pci");
  }
  if (const json* m = field(e, "memory")) {
    const std::string w = where + ".memory";
    object(*m, w);
    out.memory.kind =
        from_name(text(*m, "kind", w),
                  {MemoryKind::discrete, MemoryKind::unified, MemoryKind::host}, w + ".kind");
    out.memory.total_bytes = number(*m, "total_bytes", w);
    out.memory.free_bytes = number(*m, "free_bytes", w);
    out.memory.working_set_limit_bytes = number(*m, "working_set_limit_bytes", w);
    out.memory.source = text(*m, "source", w);
  }
  out.compute_class = text(e, "compute_class", where);
  out.driver_version = text(e, "driver_version", where);
  std::string status = text(e, "status", where);
  if (status != "ready" && status != "unavailable")
    throw Bad(where + ".status: expected ready or unavailable");
  out.status = status == "ready" ? EntryStatus::ready : EntryStatus::unavailable;
  out.reason = reason(e, where);
  for (const auto& p : array(e, "provenance", where)) {
    if (!p.is_string()) throw Bad(where + ".provenance: expected strings");
    out.provenance.push_back(p.get<std::string>());
  }
  if (const json* part = field(e, "partition")) {
    const std::string w = where + ".partition";
    object(*part, w);
    out.partition = Partition{text(*part, "profile", w),
                              text(*part, "parent_physical_id", w),
                              int(integer(*part, "parent_index", w)),
                              {},
                              {}};
  }
  if (const json* p = field(e, "partitioned")) {
    if (!p->is_boolean()) throw Bad(where + ".partitioned: expected true or false");
    out.partitioned = p->get<bool>();
  }
  if (field(e, "numa_node")) out.numa_node = int(integer(e, "numa_node", where));
  if (auto ordinal = number(e, "ordinal", where)) {
    if (*ordinal > 1'000'000) throw Bad(where + ".ordinal: expected at most 1000000");
    out.ordinal = int(*ordinal);
  }
  out.cpu_affinity = text(e, "cpu_affinity", where);
  out.pcie = pcie(e, where);
  // A devices document's reserve verdict is not the machine's: undo it.
  if (out.reason && out.reason->code == ReasonCode::reserve_exceeds_free) {
    out.status = EntryStatus::ready;
    out.reason.reset();
  }
  return out;
}

}  // namespace

SavedDetection detection_from_json(const json& doc) {
  SavedDetection saved;
  try {
    object(doc, "document");
    std::string schema = text(doc, "schema", "document");
    if (schema.empty())
      throw Bad("schema: missing (expected hwaccel-detect/1 or hwaccel-devices/1)");
    if (schema.rfind("hwaccel-detect/", 0) != 0 && schema.rfind("hwaccel-devices/", 0) != 0)
      throw Bad("schema: \"" + schema + "\" is not a hwaccel-detect or hwaccel-devices document");
    if (schema.substr(schema.find('/') + 1) != "1")
      throw Bad("schema: \"" + schema + "\": this build reads major version 1 only");
    Detection d;
    d.host.discovered_at = text(doc, "discovered_at", "document");
    if (const json* h = field(doc, "host")) {
      object(*h, "host");
      d.host.facts.hostname = text(*h, "hostname", "host");
      d.host.facts.os = text(*h, "os", "host");
      d.host.facts.arch = text(*h, "arch", "host");
      d.host.facts.kernel = text(*h, "kernel", "host");
      d.host.facts.page_size = integer(*h, "page_size", "host");
      d.host.facts.cpus = integer(*h, "cpus", "host");
      // The ranges a snapshot's facts have (src/snapshot/limits.h).
      if (!valid_page_size(d.host.facts.page_size))
        throw Bad(
            "host.page_size: expected bytes, a power of two from 1024 to 1 GiB (or 0: "
            "unknown), found " +
            std::to_string(d.host.facts.page_size));
      if (d.host.facts.cpus < 0)
        throw Bad("host.cpus: expected a count of 0 or more, found " +
                  std::to_string(d.host.facts.cpus));
    }
    const json& backends = array(doc, "backends", "document");
    for (std::size_t i = 0; i < backends.size(); ++i) {
      const std::string w = "backends[" + std::to_string(i) + "]";
      object(backends[i], w);
      BackendStatus b;
      b.name = text(backends[i], "name", w);
      b.ready = text(backends[i], "status", w) == "ready";
      b.reason = reason(backends[i], w);
      d.backends.push_back(b);
    }
    const json& devices = array(doc, "devices", "document");
    for (std::size_t i = 0; i < devices.size(); ++i)
      d.entries.push_back(entry(devices[i], "devices[" + std::to_string(i) + "]"));
    const json& links = array(doc, "links", "document");
    for (std::size_t i = 0; i < links.size(); ++i) {
      const std::string w = "links[" + std::to_string(i) + "]";
      object(links[i], w);
      d.links.push_back(Link{text(links[i], "a", w), text(links[i], "b", w),
                             text(links[i], "kind", w), int(integer(links[i], "lanes", w)),
                             text(links[i], "path", w), text(links[i], "source", w)});
    }
    const json& warnings = array(doc, "warnings", "document");
    for (std::size_t i = 0; i < warnings.size(); ++i) {
      const std::string w = "warnings[" + std::to_string(i) + "]";
      object(warnings[i], w);
      d.warnings.push_back(
          Warning{text(warnings[i], "backend", w), text(warnings[i], "message", w)});
    }
    d.system = system_info(doc);
    saved.detection = std::move(d);
  } catch (const Bad& bad) {
    saved.error = bad.what();
  } catch (const json::exception& e) {
    saved.error = e.what();
  }
  return saved;
}

SavedDetection detection_from_json_text(const std::string& text) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    SavedDetection saved;
    saved.error = std::string("broken JSON at byte ") + std::to_string(e.byte) + ": " + e.what();
    return saved;
  } catch (const json::exception& e) {  // out_of_range: a number beyond double (found by fuzzing)
    SavedDetection saved;
    saved.error = std::string("unreadable JSON: ") + e.what();
    return saved;
  }
  return detection_from_json(doc);
}

}  // namespace hwaccel
