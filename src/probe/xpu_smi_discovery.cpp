#include "src/probe/xpu_smi_discovery.h"

#include "src/probe/amdgpu_sysfs.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {

std::string without_trademarks(std::string_view name) {
  std::string out;
  for (std::size_t i = 0; i < name.size();) {
    if (name.substr(i, 3) == "(R)" || name.substr(i, 3) == "(r)") {
      i += 3;
    } else if (name.substr(i, 4) == "(TM)" || name.substr(i, 4) == "(tm)") {
      i += 4;
    } else {
      out += name[i++];
    }
  }
  return printable_line(out, 200);
}

XpuSmiDiscovery parse_xpu_smi_discovery(std::string_view text) {
  XpuSmiDiscovery out;
  XpuSmiDevice* current = nullptr;
  for (auto raw : split_lines(text)) {
    auto line = trim(raw);
    if (line.empty() || line.front() != '|') continue;  // borders, banners
    auto cells = split(line, '|');
    // "| 0 | Key: Value |" -> "", " 0 ", " Key: Value ", ""
    if (cells.size() < 3) continue;
    auto first = trim(cells[1]);
    auto second = trim(cells[2]);
    if (first == "Device ID") continue;  // the header
    if (!first.empty()) {
      auto id = parse_u64(first);
      if (!id || *id > 100000) {
        out.problems.push_back("row \"" + printable_line(first, 30) + "\" is not a device id");
        current = nullptr;
        continue;
      }
      out.devices.push_back({});
      current = &out.devices.back();
      current->id = int(*id);
    }
    if (!current) continue;
    auto kv = split_key_value(second);
    if (!kv) continue;
    if (kv->key == "Device Name") {
      current->name = printable_line(kv->value, 120);
    } else if (kv->key == "PCI BDF Address") {
      current->pci_address = normalize_pci_address(kv->value).value_or("");
      if (current->pci_address.empty())
        out.problems.push_back("device " + std::to_string(current->id) + ": PCI BDF Address \"" +
                               printable_line(kv->value, 40) + "\" is not an address");
    } else if (kv->key == "DRM Device") {
      current->drm_device = printable_line(kv->value, 80);
    } else if (kv->key == "SOC UUID" || (kv->key == "UUID" && current->uuid.empty())) {
      current->uuid = printable_line(kv->value, 80);
    } else if (kv->key == "Function Type") {
      current->function_type = printable_line(kv->value, 40);
    }
  }
  return out;
}

}  // namespace hwaccel
