// Gathers the SystemInfo of a host (ports, storage, environment), and adds to
// device entries what sysfs knows about their PCI function: the PCIe link and,
// where the probe left it empty, the NUMA node.
#pragma once

#include <vector>

#include "src/host/host.h"
#include "src/model/entry.h"
#include "src/system/host_resources.h"
#include "src/system/system_info.h"

namespace hwaccel {

// Never throws for anything the machine says; failures are warnings.
SystemInfo scan_system(Host& host);

// The host's resources with the notes their scan gave (system warnings), scanned once
// by a detection for the CPU probe and the system section.
struct ScannedResources {
  HostResources resources;
  std::vector<Warning> warnings;
};
ScannedResources scan_resources(Host& host);

// The same, with the resources already scanned (moved in): the warnings come in the
// same order as scan_system(host) gives them.
SystemInfo scan_system(Host& host, ScannedResources scanned);

// For every entry with a pci_bus_id: pcie from the four link attributes, and
// numa_node from /sys/bus/pci/devices/ADDR/numa_node when the entry has none
// (-1 there means no affinity and leaves it empty). Each bus id is read once.
void attach_pci_details(Host& host, std::vector<Entry>& entries, std::vector<Warning>& warnings);

}  // namespace hwaccel
