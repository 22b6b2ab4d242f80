// What an Intel Gaudi host shows: the cards as PCI functions of Habana's vendor
// id bound to habanalabs, and hl-smi's CSV query (the probe's argv) listing them
// in its own index order, which is not the bus order on real HLS-Gaudi3 boxes.
// Formats: fixtures/hosts/gaudi3-8.yaml (from a real hl-smi capture).
#include <algorithm>

#include "sim/synth_parts.h"
#include "src/probe/gaudi_probe.h"

namespace hwaccel::sim::detail {

void add_gaudi(const Plan& plan, Snapshot& s) {
  const HostSpec& spec = *plan.spec;
  auto it = spec.drivers.find("habanalabs");
  const bool has_driver_spec = it != spec.drivers.end();
  const DriverState state = has_driver_spec ? it->second.state : DriverState::ok;
  const bool present = has_driver_spec || !plan.gaudi.empty();
  const bool bound = state != DriverState::missing;
  // Without the driver the Habana software is taken as absent too: what hl-smi
  // prints on a host without habanalabs is not known from a capture.
  const bool installed =
      spec.tools ? std::find(spec.tools->begin(), spec.tools->end(), "hl-smi") != spec.tools->end()
                 : present && bound && state != DriverState::tool_missing;
  for (const auto& d : plan.gaudi) {
    const std::string dir = "/sys/bus/pci/devices/" + d.address;
    s.files[dir + "/vendor"] = FileEntry::of_content("0x1da3\n");
    s.files[dir + "/device"] = FileEntry::of_content(hex_id(d.sku->pci_device, 4) + "\n");
    s.files[dir + "/class"] = FileEntry::of_content(hex_id(d.sku->pci_class, 6) + "\n");
    s.files[dir + "/numa_node"] = FileEntry::of_content(std::to_string(d.numa) + "\n");
    if (bound)
      s.files[dir + "/driver"] = FileEntry::of_link("../../../../bus/pci/drivers/habanalabs");
  }
  if (plan.gaudi.empty() && !has_driver_spec) return;  // the probe asks nothing without a card
  ToolEntry query;
  query.argv = gaudi_query_argv();
  query.run.ms = 120;
  if (!installed || !bound) {
    query.run.outcome = ToolOutcome::not_found;
    query.run.ms = 0;
    s.tools[query.argv] = query;
    return;
  }
  std::string out = "index, name, bus_id, memory.total [MiB], memory.free [MiB], driver_version\n";
  for (std::size_t i = 0; i < plan.gaudi.size(); ++i) {
    const Device& d = plan.gaudi[i];
    const std::uint64_t total = d.sku->memory_mib;
    std::uint64_t free = total - d.sku->idle_used_mib;
    if (d.spec->free_bytes) free = std::min<std::uint64_t>(*d.spec->free_bytes >> 20, total);
    const std::string driver = has_driver_spec && !it->second.version.empty()
                                   ? it->second.version
                                   : std::string(d.sku->driver);
    out += std::to_string(i) + ", " + std::string(d.sku->name) + ", " + d.address + ", " +
           std::to_string(total) + " MiB, " + std::to_string(free) + " MiB, " + driver + "\n";
  }
  query.run.out = out;
  s.tools[query.argv] = query;
}

}  // namespace hwaccel::sim::detail
