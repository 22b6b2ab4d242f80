#include "src/probe/cuda_nvml_doc.h"

#include <nlohmann/json.hpp>

#include "src/probe/json_nesting.h"
#include "src/probe/nvidia_smi_csv.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

using nlohmann::json;

constexpr int kDocumentVersion = 1;
constexpr int kNvmlNotSupported = 3;

class Reader {
 public:
  explicit Reader(std::vector<std::string>& problems) : problems_(problems) {}

  void problem(const std::string& where, const std::string& what) {
    if (problems_.size() < kMaxNvmlErrors) problems_.push_back(where + ": " + what);
  }

  const json* member(const json& object, const char* key) {
    auto at = object.find(key);
    if (at == object.end() || at->is_null()) return nullptr;
    return &*at;
  }

  std::string text(const json& object, const char* key, const std::string& where) {
    const json* v = member(object, key);
    if (!v) return "";
    if (!v->is_string()) {
      problem(where + "." + key, "not a string");
      return "";
    }
    const auto& s = v->get_ref<const std::string&>();
    if (s.size() > kMaxNvmlString) {
      problem(where + "." + key, "longer than " + std::to_string(kMaxNvmlString) + " bytes");
      return "";
    }
    return printable_line(s, kMaxNvmlString);
  }

  std::optional<std::uint64_t> count(const json& object, const char* key, const std::string& where,
                                     std::uint64_t max = UINT64_MAX) {
    const json* v = member(object, key);
    if (!v) return std::nullopt;
    std::optional<std::uint64_t> n;
    if (v->is_number_unsigned()) n = v->get<std::uint64_t>();
    if (v->is_number_integer() && v->get<std::int64_t>() >= 0) n = v->get<std::uint64_t>();
    if (!n || *n > max) {
      problem(
          where + "." + key,
          "not a count" + (max == UINT64_MAX ? std::string() : " up to " + std::to_string(max)));
      return std::nullopt;
    }
    return n;
  }

  std::optional<int> small(const json& object, const char* key, const std::string& where,
                           int max = 1 << 20) {
    auto n = count(object, key, where, static_cast<std::uint64_t>(max));
    if (!n) return std::nullopt;
    return static_cast<int>(*n);
  }

  std::optional<bool> flag(const json& object, const char* key, const std::string& where) {
    const json* v = member(object, key);
    if (!v) return std::nullopt;
    if (!v->is_boolean()) {
      problem(where + "." + key, "not true or false");
      return std::nullopt;
    }
    return v->get<bool>();
  }

  // An array member, at most `max` elements read; the rest said so.
  const json* array(const json& object, const char* key, const std::string& where,
                    std::size_t max) {
    const json* v = member(object, key);
    if (!v) return nullptr;
    if (!v->is_array()) {
      problem(where + "." + key, "not an array");
      return nullptr;
    }
    if (v->size() > max)
      problem(where + "." + key,
              std::to_string(v->size()) + " elements; the first " + std::to_string(max) + " read");
    return v;
  }

  // "nvmlDeviceGetMemoryInfo: Not Supported (3)" for each {"call", "rc", "error"}.
  std::vector<std::string> errors(const json& object, const std::string& where,
                                  bool* memory_not_supported = nullptr) {
    std::vector<std::string> out;
    const json* list = array(object, "errors", where, kMaxNvmlErrors);
    if (!list) return out;
    for (std::size_t i = 0; i < list->size() && i < kMaxNvmlErrors; ++i) {
      const json& e = (*list)[i];
      const std::string at = where + ".errors[" + std::to_string(i) + "]";
      if (!e.is_object()) {
        problem(at, "not an object");
        continue;
      }
      const std::string call = text(e, "call", at);
      const auto rc = small(e, "rc", at, 1 << 16);
      std::string line = (call.empty() ? "an NVML call" : call) + ": " + text(e, "error", at);
      if (rc) line += " (" + std::to_string(*rc) + ")";
      if (memory_not_supported && call == "nvmlDeviceGetMemoryInfo" && rc == kNvmlNotSupported)
        *memory_not_supported = true;
      out.push_back(std::move(line));
    }
    return out;
  }

  NvmlMemory memory(const json& object, const std::string& where) {
    NvmlMemory m;
    m.total = count(object, "memory_total", where);
    m.used = count(object, "memory_used", where);
    m.free = count(object, "memory_free", where);
    if (m.total && m.free && *m.free > *m.total) {
      problem(where, "memory_free is more than memory_total; both left unknown");
      m = {};
    }
    return m;
  }

  std::string bus_id(const json& object, const char* key, const std::string& where) {
    const std::string raw = text(object, key, where);
    if (raw.empty()) return "";
    std::string bus = normalise_pci_bus_id(raw);
    if (bus.empty()) problem(where + "." + key, "not a PCI address");
    return bus;
  }

  std::string addressing(const json& object, const std::string& where) {
    std::string mode = text(object, "addressing_mode", where);
    if (mode.empty() || mode == "ATS" || mode == "HMM" || mode == "None") return mode;
    problem(where + ".addressing_mode", "not ATS, HMM or None");
    return "";
  }

 private:
  std::vector<std::string>& problems_;
};

// A field name as nvidia-smi spells them: lower case, digits, '.', '_'.
bool field_name(const std::string& key) {
  if (key.empty() || key.size() > kMaxNvmlMonitorText) return false;
  for (char c : key)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_')) return false;
  return true;
}

void read_monitor(Reader& r, const json& d, const std::string& where, NvmlDevice& device) {
  if (const json* cells = r.member(d, "monitor")) {
    if (!cells->is_object()) {
      r.problem(where + ".monitor", "not an object");
    } else {
      for (auto it = cells->begin(); it != cells->end(); ++it) {
        if (device.monitor.size() == kMaxNvmlMonitorCells) {
          r.problem(where + ".monitor",
                    "more than " + std::to_string(kMaxNvmlMonitorCells) + " cells; the rest left");
          break;
        }
        const std::string at = where + ".monitor." + printable_line(it.key(), 64);
        if (!field_name(it.key())) {
          r.problem(at, "not a field name");
          continue;
        }
        if (!it->is_string() || it->get_ref<const std::string&>().size() > kMaxNvmlMonitorText) {
          r.problem(at, "not a cell of up to " + std::to_string(kMaxNvmlMonitorText) + " bytes");
          continue;
        }
        device.monitor.emplace_back(it.key(),
                                    printable_line(it->get<std::string>(), kMaxNvmlMonitorText));
      }
    }
  }
  if (const json* list = r.array(d, "processes", where, kMaxNvmlProcesses))
    for (std::size_t i = 0; i < list->size() && i < kMaxNvmlProcesses; ++i) {
      const json& p = (*list)[i];
      const std::string at = where + ".processes[" + std::to_string(i) + "]";
      if (!p.is_object()) {
        r.problem(at, "not an object");
        continue;
      }
      auto pid = r.count(p, "pid", at, UINT32_MAX);
      if (!pid) continue;
      NvmlProcess process;
      process.pid = static_cast<unsigned>(*pid);
      process.used_memory = r.count(p, "used_memory", at);
      process.name = r.text(p, "name", at);
      device.processes.push_back(std::move(process));
    }
}

NvmlMigDevice read_mig(Reader& r, const json& m, const std::string& where) {
  NvmlMigDevice mig;
  mig.index = r.small(m, "index", where, 1024);
  mig.name = r.text(m, "name", where);
  mig.uuid = r.text(m, "uuid", where);
  mig.gpu_instance = r.small(m, "gpu_instance_id", where, 1 << 16);
  mig.compute_instance = r.small(m, "compute_instance_id", where, 1 << 16);
  mig.memory = r.memory(m, where);
  return mig;
}

NvmlDevice read_device(Reader& r, const json& d, const std::string& where) {
  NvmlDevice device;
  device.name = r.text(d, "name", where);
  device.uuid = r.text(d, "uuid", where);
  device.pci_bus_id = r.bus_id(d, "pci_bus_id", where);
  if (auto id = r.count(d, "pci_device_id", where, UINT32_MAX))
    device.pci_device_id = static_cast<std::uint32_t>(*id);
  device.memory = r.memory(d, where);
  device.compute_capability = r.text(d, "compute_capability", where);
  if (!device.compute_capability.empty() &&
      compute_class_from_cap(device.compute_capability).empty()) {
    r.problem(where + ".compute_capability", "not major.minor");
    device.compute_capability.clear();
  }
  device.mig_mode = r.small(d, "mig_mode", where, 1);
  if (const json* migs = r.array(d, "mig_devices", where, kMaxNvmlMigDevices))
    for (std::size_t i = 0; i < migs->size() && i < kMaxNvmlMigDevices; ++i) {
      const std::string at = where + ".mig_devices[" + std::to_string(i) + "]";
      if ((*migs)[i].is_object())
        device.mig_devices.push_back(read_mig(r, (*migs)[i], at));
      else
        r.problem(at, "not an object");
    }
  if (const json* links = r.array(d, "nvlinks", where, kMaxNvmlLinks))
    for (std::size_t i = 0; i < links->size() && i < kMaxNvmlLinks; ++i) {
      const json& l = (*links)[i];
      const std::string at = where + ".nvlinks[" + std::to_string(i) + "]";
      if (!l.is_object()) {
        r.problem(at, "not an object");
        continue;
      }
      NvmlLink link;
      link.link =
          r.small(l, "link", at, static_cast<int>(kMaxNvmlLinks)).value_or(static_cast<int>(i));
      link.active = r.flag(l, "active", at).value_or(false);
      link.remote_pci_bus_id = r.bus_id(l, "remote_pci_bus_id", at);
      link.remote_type = r.text(l, "remote_type", at);
      if (!link.remote_type.empty() && link.remote_type != "gpu" && link.remote_type != "switch" &&
          link.remote_type != "other") {
        r.problem(at + ".remote_type", "not gpu, switch or other");
        link.remote_type.clear();
      }
      device.nvlinks.push_back(std::move(link));
    }
  device.addressing_mode = r.addressing(d, where);
  device.c2c_enabled = r.flag(d, "c2c_enabled", where);
  device.persistence_mode = r.flag(d, "persistence_mode", where);
  device.compute_mode = r.small(d, "compute_mode", where, 16);
  device.affinity_asked = r.member(d, "cpu_affinity") != nullptr;
  device.cpu_affinity = r.text(d, "cpu_affinity", where);
  if (device.cpu_affinity.find_first_not_of("0123456789,-") != std::string::npos) {
    r.problem(where + ".cpu_affinity", "not a CPU list");
    device.cpu_affinity.clear();
  }
  device.numa_affinity = r.small(d, "numa_affinity", where, 1 << 16);
  device.errors = r.errors(d, where, &device.memory_not_supported);
  read_monitor(r, d, where, device);
  return device;
}

}  // namespace

NvmlDocument parse_nvml_document(std::string_view text) {
  NvmlDocument doc;
  if (text.size() > kMaxNvmlDocumentBytes) {
    doc.problems.push_back("the document is larger than " +
                           std::to_string(kMaxNvmlDocumentBytes >> 20) + " MiB");
    return doc;
  }
  if (auto deep = json_too_deep_at(text)) {
    doc.problems.push_back("line " + std::to_string(json_line_of(text, *deep)) +
                           ": nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    return doc;
  }
  json root = json::parse(text, nullptr, false);
  if (root.is_discarded()) {
    doc.problems.push_back("not JSON (\"" + first_meaningful_line(text, 60) + "\")");
    return doc;
  }
  if (!root.is_object()) {
    doc.problems.push_back("not a JSON object");
    return doc;
  }
  Reader r(doc.problems);
  auto version = r.small(root, "hwaccel_nvml", "hwaccel_nvml", 1 << 16);
  if (!version) {
    if (!r.member(root, "hwaccel_nvml")) doc.problems.push_back("no \"hwaccel_nvml\" version");
    return doc;
  }
  doc.version = *version;
  if (doc.version != kDocumentVersion) {
    doc.problems.push_back("document version " + std::to_string(doc.version) + ", expected " +
                           std::to_string(kDocumentVersion));
    return doc;
  }
  doc.parsed = true;
  doc.status = r.text(root, "status", "status");
  doc.detail = r.text(root, "detail", "detail");
  doc.driver_version = r.text(root, "driver_version", "driver_version");
  doc.cuda_driver_version = r.text(root, "cuda_driver_version", "cuda_driver_version");
  if (auto n = r.count(root, "device_count", "device_count", 1 << 20))
    doc.device_count = static_cast<std::size_t>(*n);
  if (const json* devices = r.array(root, "devices", "", kMaxNvmlDevices))
    for (std::size_t i = 0; i < devices->size() && i < kMaxNvmlDevices; ++i) {
      const std::string at = "devices[" + std::to_string(i) + "]";
      const json& d = (*devices)[i];
      if (!d.is_object()) {
        doc.problems.push_back(at + ": not an object");
        continue;
      }
      NvmlDevice device = read_device(r, d, at);
      device.index = r.small(d, "index", at, 1 << 16).value_or(static_cast<int>(i));
      doc.devices.push_back(std::move(device));
    }
  const std::size_t max_pairs = kMaxNvmlDevices * (kMaxNvmlDevices - 1) / 2;
  if (const json* pairs = r.array(root, "topology", "", max_pairs))
    for (std::size_t i = 0; i < pairs->size() && i < max_pairs; ++i) {
      const std::string at = "topology[" + std::to_string(i) + "]";
      const json& p = (*pairs)[i];
      if (!p.is_object()) {
        doc.problems.push_back(at + ": not an object");
        continue;
      }
      auto a = r.small(p, "a", at, static_cast<int>(kMaxNvmlDevices));
      auto b = r.small(p, "b", at, static_cast<int>(kMaxNvmlDevices));
      auto level = r.small(p, "level", at, 1000);
      if (a && b && level && *a != *b) doc.topology.push_back({*a, *b, *level});
    }
  doc.errors = r.errors(root, "");
  return doc;
}

}  // namespace hwaccel
