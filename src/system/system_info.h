// What detection finds around the devices: network ports (InfiniBand, RoCE,
// EFA), block devices, and the runtime environment (container, Kubernetes,
// cloud, VM). Plain data; src/system/*.cpp fill it, src/report renders it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/model/pcie_link.h"
#include "src/model/warning.h"
#include "src/system/host_resources.h"

namespace hwaccel {

// One port of an RDMA device under /sys/class/infiniband.
struct NetworkPort {
  std::string device;                  // "mlx5_0", "rdmap16s27" (EFA)
  int port = 0;                        // 1-based, as in ports/N
  std::string state;                   // "ACTIVE", "DOWN", "INIT", ...; "" unknown
  std::string link_layer;              // "InfiniBand" | "Ethernet" (RoCE) | "Unknown" (EFA) | ""
  std::string rate;                    // as sysfs says it: "400 Gb/sec (4X NDR)"; "" unknown
  std::optional<double> gbits_per_s;   // 400 (the rate's number)
  std::optional<double> gbytes_per_s;  // per direction, after encoding (see infiniband.h)
  std::string pci_bus_id;              // the adapter's PCI function; "" unknown
  std::optional<int> numa_node;
  std::optional<PcieLink> pcie;  // the adapter's own PCIe link
};

// One whole block device under /sys/block (partitions are not listed).
struct BlockDevice {
  std::string name;  // "nvme0n1", "sda", "vda"
  // nvme | ssd | hdd | paravirtual | network | virtual | other (see block_devices.h)
  std::string kind;
  std::string why;  // what the kind was decided from: "rotational=0, sd* on ata"
  std::optional<std::uint64_t> size_bytes;
  std::optional<bool> rotational;
  std::string model;       // device/model, trimmed; "" unknown
  std::string transport;   // nvme: pcie | tcp | rdma | fc | loop; sd: ata | usb | iscsi | ...
  std::string pci_bus_id;  // an NVMe controller's PCI function; "" unknown
  std::optional<PcieLink> pcie;
};

struct RuntimeEnvironment {
  std::string container;  // docker | podman | containerd | lxc | ... ; "" none seen
  std::vector<std::string> container_evidence;  // "/.dockerenv", "/proc/1/cgroup: /docker/"
  bool kubernetes = false;
  std::vector<std::string> kubernetes_evidence;
  std::string cloud;          // aws | gcp | azure | oci | ""
  std::string instance_type;  // from DMI where the cloud puts it there (AWS); "" otherwise
  // true: a hypervisor is seen; false: looked and saw none; nullopt: could not tell
  std::optional<bool> virtual_machine;
  std::string hypervisor;  // "KVM", "Hyper-V", "VMware", "Xen", "QEMU", ...; "" unknown
  std::vector<std::string> vm_evidence;
  // DMI as read (no serials, no UUIDs): empty when absent.
  std::string sys_vendor, product_name, board_vendor, bios_vendor, chassis_asset_tag;
};

// "rdmap79s0" before "rdmap113s0", "nvme2n1" before "nvme10n1": digit runs compare
// as numbers, so lists read in the order people count.
bool natural_less(const std::string& a, const std::string& b);

struct SystemInfo {
  HostResources resources;           // CPUs, NUMA nodes, memory; what this process may use
  std::vector<NetworkPort> ports;    // device, then port
  std::vector<BlockDevice> storage;  // by name
  RuntimeEnvironment environment;
  std::vector<Warning> warnings;  // backend "system"
};

}  // namespace hwaccel
