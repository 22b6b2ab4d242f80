// What an AWS Inferentia2 / Trainium instance shows: the devices as PCI
// functions of Amazon's vendor id bound to neuron-driver, the driver's class
// folder /sys/devices/virtual/neuron_device/neuronN and module version, and,
// when aws-neuronx-tools is installed, `neuron-ls --json-output` (its JSON array
// as fixtures/hosts/inf2-48xlarge.yaml shows it). connected_to is synthesised
// as a ring (each device to the one before and after it, as inf2 wires them);
// trn1's real 2D torus is not modelled.
#include <algorithm>

#include "sim/synth_parts.h"
#include "src/probe/neuron_probe.h"

namespace hwaccel::sim::detail {

void add_neuron(const Plan& plan, Snapshot& s) {
  const HostSpec& spec = *plan.spec;
  auto it = spec.drivers.find("neuron");
  const bool has_driver_spec = it != spec.drivers.end();
  const DriverState state = has_driver_spec ? it->second.state : DriverState::ok;
  if (plan.neuron.empty() && !has_driver_spec) return;
  const bool bound = state != DriverState::missing;
  const bool installed = spec.tools ? std::find(spec.tools->begin(), spec.tools->end(),
                                                "neuron-ls") != spec.tools->end()
                                    : bound && state != DriverState::tool_missing;
  const std::string version = has_driver_spec && !it->second.version.empty() ? it->second.version
                              : plan.neuron.empty() ? std::string("2.24.7.0")
                                                    : std::string(plan.neuron[0].sku->driver);
  std::vector<std::string> names;
  for (std::size_t i = 0; i < plan.neuron.size(); ++i) {
    const Device& d = plan.neuron[i];
    const std::string dir = "/sys/bus/pci/devices/" + d.address;
    s.files[dir + "/vendor"] = FileEntry::of_content("0x1d0f\n");
    s.files[dir + "/device"] = FileEntry::of_content(hex_id(d.sku->pci_device, 4) + "\n");
    s.files[dir + "/class"] = FileEntry::of_content(hex_id(d.sku->pci_class, 6) + "\n");
    s.files[dir + "/numa_node"] = FileEntry::of_content(std::to_string(d.numa) + "\n");
    if (!bound) continue;
    s.files[dir + "/driver"] = FileEntry::of_link("../../../../bus/pci/drivers/neuron-driver");
    names.push_back("neuron" + std::to_string(i));
  }
  if (bound && !plan.neuron.empty()) {
    std::sort(names.begin(), names.end());
    s.files["/sys/devices/virtual/neuron_device"] = FileEntry::of_dir(names);
    s.files["/sys/module/neuron/version"] = FileEntry::of_content(version + "\n");
  }
  ToolEntry ls;
  ls.argv = neuron_ls_argv();
  ls.run.ms = 300;
  if (!installed || !bound) {
    ls.run.outcome = ToolOutcome::not_found;
    ls.run.ms = 0;
    s.tools[ls.argv] = ls;
    return;
  }
  const std::size_t n = plan.neuron.size();
  std::string out = "[";
  int core = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Device& d = plan.neuron[i];
    const int cores = d.sku->neuron_cores;
    out += std::string(i ? "," : "") + "\n    {\n";
    out += "        \"neuron_device\": " + std::to_string(i) + ",\n";
    out += "        \"bdf\": \"" + d.address + "\",\n";
    out += "        \"cpu_affinity\": \"" + cpulist_of_node(spec.cpu, d.numa) + "\",\n";
    out += "        \"numa_node\": \"" + std::to_string(std::max(0, d.numa)) + "\",\n";
    out += "        \"connected_to\": [";
    if (n > 1) {
      out += "\n            " + std::to_string((i + n - 1) % n);
      if (n > 2) out += ",\n            " + std::to_string((i + 1) % n);
      out += "\n        ";
    }
    out += "],\n";
    out += "        \"nc_count\": " + std::to_string(cores) + ",\n";
    out += "        \"memory_size\": " + std::to_string(d.sku->memory_mib << 20) + ",\n";
    out += "        \"neuroncore_ids\": [";
    for (int c = 0; c < cores; ++c)
      out += std::string(c ? "," : "") + "\n            " + std::to_string(core++);
    out += cores ? "\n        ],\n" : "],\n";
    out += "        \"neuron_processes\": []\n    }";
  }
  out += "\n]";
  ls.run.out = out;
  s.tools[ls.argv] = ls;
}

}  // namespace hwaccel::sim::detail
