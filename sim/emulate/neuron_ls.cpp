// neuron-ls on a simulated host.
//
// Sources (facts, not text): the JSON shapes listed in src/probe/neuron_ls_json.h
// (trn1.2xlarge, trn2.48xlarge captures; numa_node a string, memory_size bytes,
// connected_to null on a single device) and the inf2.48xlarge capture in
// fixtures/hosts/inf2-48xlarge.yaml (four-space indent); the table from AWS's Neuron
// docs and public captures (aws-neuron-sdk neuron-ls user guide; an EKS Trainium
// blueprint's trn1.32xlarge session; an inf2.xlarge EKS doc): "instance-type:" and
// "instance-id:" lines, then a "+----+" box whose two header rows read NEURON
// DEVICE / NEURON CORES / NEURON MEMORY / CONNECTED DEVICES / PCI BDF (centred),
// cells left-aligned, "32 GB" memory, "12, 3, 4, 1" neighbours; the fatal
// discovery error without the driver (level=fatal msg="Failed to load MLA system
// information" error="failed to discover Neuron devices", on stderr). neuron-ls is
// a Go tool: an unknown flag is "Error: unknown flag: X", exit 1.
//
// The devices come from the snapshot's own neuron-ls JSON where it recorded one
// (it holds the neighbours), else from hwaccel's neuron devices.
#include "sim/emulate/neuron_ls.h"

#include <algorithm>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "sim/emulate/emulate_common.h"
#include "src/probe/neuron_ls_json.h"

namespace hwaccel::sim {

namespace {

using Json = nlohmann::ordered_json;

std::vector<NeuronLsDevice> devices(const EmulatedHost& host) {
  for (const auto& argv : std::vector<std::vector<std::string>>{
           {"neuron-ls", "--json-output"}, {"neuron-ls", "--output-format", "json"}}) {
    if (const ToolEntry* run = emulate::recorded_ok(host.snapshot, argv)) {
      NeuronLsOutput parsed = parse_neuron_ls_json(run->run.out);
      if (parsed.parsed && !parsed.devices.empty()) return parsed.devices;
    }
  }
  std::vector<NeuronLsDevice> out;
  for (const Entry* e : emulate::devices_of(host.detection, "neuron")) {
    if (e->status != EntryStatus::ready) continue;
    NeuronLsDevice d;
    d.index = static_cast<int>(out.size());
    d.bdf = e->pci_bus_id;
    // "AWS Trainium (2 NeuronCores)": the runtime's core count.
    if (auto open = e->name.find('('); open != std::string::npos) {
      int cores = std::atoi(e->name.c_str() + open + 1);
      if (cores > 0) d.nc_count = cores;
    }
    d.memory_bytes = e->memory.total_bytes;
    d.numa_node = e->numa_node;
    d.cpu_affinity = e->cpu_affinity;
    out.push_back(std::move(d));
  }
  return out;
}

std::string instance_type(const EmulatedHost& host) {
  for (const char* path :
       {"/sys/class/dmi/id/product_name", "/sys/devices/virtual/dmi/id/product_name"})
    if (auto v = emulate::recorded_text(host.snapshot, path); v && !v->empty()) return *v;
  return "";
}

Json json_of(const std::vector<NeuronLsDevice>& list) {
  Json all = Json::array();
  int core = 0;
  for (const auto& d : list) {
    Json j;
    j["neuron_device"] = d.index.value_or(0);
    j["bdf"] = d.bdf;
    j["cpu_affinity"] = d.cpu_affinity;
    j["numa_node"] = d.numa_node ? std::to_string(*d.numa_node) : "-1";
    j["connected_to"] = d.connected_to.empty() ? Json(nullptr) : Json(d.connected_to);
    j["nc_count"] = d.nc_count.value_or(0);
    if (d.logical_nc_config) j["logical_neuroncore_config"] = *d.logical_nc_config;
    j["memory_size"] = d.memory_bytes.value_or(0);
    Json cores = Json::array();
    for (int i = 0; i < d.nc_count.value_or(0); ++i) cores.push_back(core++);
    j["neuroncore_ids"] = cores;
    j["neuron_processes"] = Json::array();
    all.push_back(std::move(j));
  }
  return all;
}

std::string table(const std::vector<NeuronLsDevice>& list, const std::string& type) {
  const std::vector<std::pair<std::string, std::string>> heads = {
      {"NEURON", "DEVICE"}, {"NEURON", "CORES"}, {"NEURON", "MEMORY"}, {"CONNECTED", "DEVICES"},
      {"PCI", "BDF"},       {"CPU", "AFFINITY"}, {"NUMA", "NODE"}};
  std::vector<std::vector<std::string>> rows;
  for (const auto& d : list) {
    std::string connected;
    for (std::size_t i = 0; i < d.connected_to.size(); ++i)
      connected += (i ? ", " : "") + std::to_string(d.connected_to[i]);
    std::string memory =
        d.memory_bytes ? std::to_string(*d.memory_bytes / (1024ull * 1024 * 1024)) + " GB" : "N/A";
    rows.push_back({std::to_string(d.index.value_or(0)),
                    d.nc_count ? std::to_string(*d.nc_count) : "N/A", memory, connected, d.bdf,
                    d.cpu_affinity, d.numa_node ? std::to_string(*d.numa_node) : "-1"});
  }
  std::vector<std::size_t> widths;
  for (std::size_t c = 0; c < heads.size(); ++c) {
    std::size_t w = std::max(heads[c].first.size(), heads[c].second.size());
    for (const auto& r : rows) w = std::max(w, r[c].size());
    widths.push_back(w);
  }
  auto rule = [&] {
    std::string s = "+";
    for (auto w : widths) s += std::string(w + 2, '-') + "+";
    return s + "\n";
  };
  auto centred = [](const std::string& text, std::size_t w) {
    std::size_t left = (w - text.size() + 1) / 2;
    return std::string(left, ' ') + text + std::string(w - text.size() - left, ' ');
  };
  std::string out;
  if (!type.empty()) out += "instance-type: " + type + "\n";  // instance-id: not in a snapshot
  out += rule();
  for (int line = 0; line < 2; ++line) {
    out += "|";
    for (std::size_t c = 0; c < heads.size(); ++c)
      out += " " + centred(line == 0 ? heads[c].first : heads[c].second, widths[c]) + " |";
    out += "\n";
  }
  out += rule();
  for (const auto& r : rows) {
    out += "|";
    for (std::size_t c = 0; c < r.size(); ++c)
      out += " " + emulate::pad_right(r[c], widths[c]) + " |";
    out += "\n";
  }
  out += rule();
  return out;
}

}  // namespace

ToolAnswer emulate_neuron_ls(const EmulatedHost& host, const std::vector<std::string>& argv) {
  bool json = false;
  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a == "--json-output" || a == "-j") {
      json = true;
    } else if (a == "--output-format" && i + 1 < argv.size() &&
               (argv[i + 1] == "json" || argv[i + 1] == "table")) {
      json = argv[++i] == "json";
    } else if (a == "--wide" || a == "-w" || a == "--show-all-procs" || a == "-a" ||
               a == "--topology" || a == "-t") {
      // layout options: the same devices
    } else if (a == "-h" || a == "--help") {
      return {"Usage:\n  neuron-ls [flags]\n", "", 0};
    } else {
      return emulate::usage_error("Error: unknown flag: " + a + "\nUsage:\n  neuron-ls [flags]\n",
                                  1);
    }
  }
  std::vector<NeuronLsDevice> list = devices(host);
  if (list.empty() || emulate::driver_missing(host.detection, "neuron"))
    return {"",
            "level=fatal msg=\"Failed to load MLA system information\" error=\"failed to discover "
            "Neuron devices\"\n",
            1};
  if (json) {
    // The recorded JSON is the real tool's own answer: give it as it was.
    for (const auto& form : std::vector<std::vector<std::string>>{
             {"neuron-ls", "--json-output"}, {"neuron-ls", "--output-format", "json"}})
      if (const ToolEntry* run = emulate::recorded_ok(host.snapshot, form))
        return {run->run.out, "", 0};
  }
  const std::string type = instance_type(host);
  if (json)
    return {json_of(list).dump(4, ' ', false, Json::error_handler_t::replace) + "\n", "", 0};
  return {table(list, type), "", 0};
}

}  // namespace hwaccel::sim
