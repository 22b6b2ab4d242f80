// xpu-smi on a simulated host.
//
// Sources (facts, not text): the `xpu-smi discovery` capture of 4x Data Center GPU
// Max 1550 in fixtures/hosts/intel-max-1550.yaml and the shapes in
// src/probe/xpu_smi_discovery.h (a two-column "+---+---+" box, "Device ID" and
// "Device Information" columns of 11 and 86, one "Key: value" per line, releases
// 1.2 adding "Device Type", "PCI Device ID" and "UUID"); Intel XPU Manager's CLI is
// CLI11 (xpumanager/cli), so an argument it does not expect is "The following
// argument was not expected: X" / "Run with --help for more information.", exit
// 109 (CLI11's ExtrasError), and `-j` prints a "device_list" of snake_case keys.
// Without a device the words are not in the sources: "No device discovered", exit 1.
//
// The devices come from the snapshot's own `xpu-smi discovery` where it recorded
// one (it holds the UUIDs and DRM nodes), else from hwaccel's oneapi devices.
#include "sim/emulate/xpu_smi.h"

#include <cstdio>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "sim/emulate/emulate_common.h"
#include "src/probe/xpu_smi_discovery.h"

namespace hwaccel::sim {

namespace {

using Json = nlohmann::ordered_json;

struct Xpu {
  XpuSmiDevice d;
  std::string device_id;  // "0x0bd5"; "" unknown
  std::optional<std::uint64_t> memory;
};

std::vector<Xpu> xpus(const EmulatedHost& host) {
  std::vector<const Entry*> entries;
  for (const Entry* e : emulate::devices_of(host.detection, "oneapi"))
    if (e->status == EntryStatus::ready) entries.push_back(e);
  auto entry_at = [&](const std::string& bdf) -> const Entry* {
    for (const Entry* e : entries)
      if (e->pci_bus_id == bdf) return e;
    return nullptr;
  };
  auto id_of = [](const Entry* e) {
    if (!e || !e->pci_device_id) return std::string();
    char b[8];
    std::snprintf(b, sizeof b, "0x%04x", *e->pci_device_id);
    return std::string(b);
  };
  std::vector<Xpu> out;
  if (const ToolEntry* run = emulate::recorded_ok(host.snapshot, {"xpu-smi", "discovery"})) {
    for (auto& d : parse_xpu_smi_discovery(run->run.out).devices) {
      const Entry* e = entry_at(d.pci_address);
      out.push_back({d, id_of(e), e ? e->memory.total_bytes : std::nullopt});
    }
    if (!out.empty()) return out;
  }
  for (const Entry* e : entries) {
    Xpu x;
    x.d.id = static_cast<int>(out.size());
    x.d.name = e->name;
    x.d.pci_address = e->pci_bus_id;
    x.d.uuid = e->uuid;
    x.d.function_type = "physical";
    x.device_id = id_of(e);
    x.memory = e->memory.total_bytes;
    out.push_back(std::move(x));
  }
  return out;
}

std::string boxed(const std::vector<std::pair<std::string, std::vector<std::string>>>& rows) {
  const std::string rule =
      "+-----------+-------------------------------------------------------------------------------"
      "-------+\n";
  std::string out = rule +
                    "| Device ID | Device Information                                              "
                    "                     |\n" +
                    rule;
  for (const auto& [id, lines] : rows) {
    for (std::size_t i = 0; i < lines.size(); ++i)
      out += "| " + emulate::pad_right(i == 0 ? id : "", 10) + "| " +
             emulate::pad_right(lines[i], 85) + "|\n";
    out += rule;
  }
  return out;
}

std::vector<std::string> summary(const Xpu& x) {
  std::vector<std::string> lines = {"Device Name: " + x.d.name,
                                    "Vendor Name: Intel(R) Corporation"};
  if (!x.d.uuid.empty()) lines.push_back("SOC UUID: " + x.d.uuid);
  lines.push_back("PCI BDF Address: " + x.d.pci_address);
  if (!x.d.drm_device.empty()) lines.push_back("DRM Device: " + x.d.drm_device);
  lines.push_back("Function Type: " +
                  (x.d.function_type.empty() ? std::string("physical") : x.d.function_type));
  return lines;
}

std::vector<std::string> details(const Xpu& x) {
  std::vector<std::string> lines = {"Device Type: GPU", "Device Name: " + x.d.name,
                                    "Vendor Name: Intel(R) Corporation"};
  if (!x.d.uuid.empty()) lines.push_back("SOC UUID: " + x.d.uuid);
  lines.push_back("PCI BDF Address: " + x.d.pci_address);
  if (!x.device_id.empty()) lines.push_back("PCI Device ID: " + x.device_id);
  if (!x.d.drm_device.empty()) lines.push_back("DRM Device: " + x.d.drm_device);
  if (x.memory)
    lines.push_back("Memory Physical Size: " + std::to_string(emulate::mib_of(*x.memory)) +
                    ".00 MiB");
  return lines;
}

Json json_of(const Xpu& x) {
  Json j;
  j["device_function_type"] = x.d.function_type.empty() ? "physical" : x.d.function_type;
  j["device_id"] = x.d.id;
  j["device_name"] = x.d.name;
  j["device_type"] = "GPU";
  j["drm_device"] = x.d.drm_device;
  j["pci_bdf_address"] = x.d.pci_address;
  j["pci_device_id"] = x.device_id;
  j["uuid"] = x.d.uuid;
  j["vendor_name"] = "Intel(R) Corporation";
  return j;
}

ToolAnswer unexpected(const std::string& arg) {
  return emulate::usage_error("The following argument was not expected: " + arg +
                                  "\nRun with --help for more information.\n",
                              109);
}

}  // namespace

ToolAnswer emulate_xpu_smi(const EmulatedHost& host, const std::vector<std::string>& argv) {
  if (argv.size() < 2 || argv[1] == "-h" || argv[1] == "--help")
    return {"Intel XPU System Management Interface\nUsage: xpu-smi [Options]\n", "", 0};
  if (argv[1] != "discovery") return unexpected(argv[1]);
  bool json = false;
  std::optional<int> one;
  for (std::size_t i = 2; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a == "-j" || a == "--json") {
      json = true;
    } else if ((a == "-d" || a == "--device") && i + 1 < argv.size()) {
      one = std::atoi(argv[++i].c_str());
    } else {
      return unexpected(a);
    }
  }
  std::vector<Xpu> list = xpus(host);
  if (list.empty()) return {"No device discovered\n", "", 1};
  if (one) {
    for (const auto& x : list)
      if (x.d.id == *one) {
        if (json)
          return {json_of(x).dump(4, ' ', false, Json::error_handler_t::replace) + "\n", "", 0};
        return {boxed({{std::to_string(x.d.id), details(x)}}), "", 0};
      }
    return {"Error: device not found\n", "", 1};
  }
  if (json) {
    Json all;
    all["device_list"] = Json::array();
    for (const auto& x : list) all["device_list"].push_back(json_of(x));
    return {all.dump(4, ' ', false, Json::error_handler_t::replace) + "\n", "", 0};
  }
  std::vector<std::pair<std::string, std::vector<std::string>>> rows;
  for (const auto& x : list) rows.emplace_back(std::to_string(x.d.id), summary(x));
  return {boxed(rows), "", 0};
}

}  // namespace hwaccel::sim
