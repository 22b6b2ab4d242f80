#include "src/probe/tpu_probe.h"

#include <algorithm>

#include "src/catalog/google_tpu_ids.h"
#include "src/probe/accel_class.h"
#include "src/probe/device_node.h"
#include "src/probe/pci_bus.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

constexpr std::uint64_t kGiB = 1ull << 30;
constexpr std::string_view kVfioDriver = "vfio-pci";

struct Chip {
  PciDevice pci;
  TpuGeneration generation;
};

std::string bus_provenance(const std::string& address) {
  return "file:" + std::string(kPciDevicesDir) + "/" + address;
}

std::string last_component(std::string_view target) {
  auto slash = target.rfind('/');
  return std::string(slash == std::string_view::npos ? target : target.substr(slash + 1));
}

// v5e and later: vfio-pci, and the IOMMU group's node under /dev/vfio.
void through_vfio(Host& host, const Chip& chip, Entry& entry) {
  entry.api = "vfio";
  const std::string dir = std::string(kPciDevicesDir) + "/" + chip.pci.address;
  auto group = host.readlink(dir + "/iommu_group");
  if (!group) {
    entry.status = EntryStatus::unavailable;
    entry.reason = Reason{ReasonCode::probe_failed,
                          chip.pci.address + " is bound to vfio-pci but has no IOMMU group (" +
                              group.error().errno_name() + ")"};
    return;
  }
  const std::string node = "/dev/vfio/" + last_component(*group);
  if (auto problem = device_node_problem(host, node, entry.provenance)) {
    entry.status = EntryStatus::unavailable;
    entry.reason = *problem;
  }
}

// v2-v4: the TPU kernel driver and its /dev/accelN.
void through_driver(Host& host, const Chip& chip, const std::vector<AccelClassDevice>& accel,
                    Entry& entry) {
  entry.api = "accel";
  if (auto version = host.read("/sys/module/" + chip.pci.driver + "/version")) {
    entry.driver_version = printable_line(*version, 64);
    entry.provenance.push_back("file:/sys/module/" + chip.pci.driver + "/version");
  }
  auto at = std::find_if(accel.begin(), accel.end(), [&](const AccelClassDevice& a) {
    return a.pci_address == chip.pci.address;
  });
  if (at == accel.end()) return;  // the class is not there to say more; the driver is bound
  const std::string node = "/dev/" + at->name;
  if (auto problem = device_node_problem(host, node, entry.provenance)) {
    entry.status = EntryStatus::unavailable;
    entry.reason = *problem;
  }
}

Entry make_entry(Host& host, const Chip& chip, int index,
                 const std::vector<AccelClassDevice>& accel,
                 const std::optional<std::string>& accelerator_type) {
  Entry entry;
  entry.backend = "tpu";
  entry.index = index;
  entry.physical_id = "pci:" + chip.pci.address;
  entry.name = "Google TPU " + std::string(chip.generation.name);
  entry.vendor = "Google";
  entry.pci_vendor_id = chip.pci.vendor;
  entry.pci_device_id = chip.pci.device;
  entry.pci_bus_id = chip.pci.address;
  entry.type = DeviceType::tpu;
  entry.compute_class = "tpu_" + std::string(chip.generation.name);
  entry.memory.kind = MemoryKind::discrete;
  entry.memory.total_bytes = chip.generation.hbm_gib * kGiB;
  entry.memory.source = "catalogue: TPU " + std::string(chip.generation.name) + ", " +
                        std::to_string(chip.generation.hbm_gib) + " GiB HBM per chip (tpu-info)";
  entry.numa_node = chip.pci.numa_node;
  entry.provenance.push_back(bus_provenance(chip.pci.address));
  if (accelerator_type)
    entry.provenance.push_back("env:TPU_ACCELERATOR_TYPE=" + printable_line(*accelerator_type, 64));

  const std::string& driver = chip.pci.driver;
  if (driver.empty()) {
    entry.status = EntryStatus::unavailable;
    entry.reason = Reason{ReasonCode::driver_not_found,
                          "no driver bound to " + chip.pci.address + " (TPU " +
                              std::string(chip.generation.name) + " is used through " +
                              (chip.generation.vfio ? "vfio-pci)" : "the TPU kernel driver)")};
    entry.api = chip.generation.vfio ? "vfio" : "accel";
    return entry;
  }
  if (driver == kVfioDriver) {
    through_vfio(host, chip, entry);
  } else if (chip.generation.vfio) {
    entry.api = "vfio";
    entry.status = EntryStatus::unavailable;
    entry.reason = Reason{ReasonCode::driver_not_found,
                          chip.pci.address + " is bound to " + driver + ", not vfio-pci"};
  } else {
    through_driver(host, chip, accel, entry);
  }
  return entry;
}

}  // namespace

ProbeResult TpuProbe::run(Host& host) const {
  ProbeResult result;
  result.backend.name = "tpu";

  std::vector<Chip> chips;
  for (auto& device : pci_devices_of_vendor(host, kGooglePciVendor))
    if (auto generation = find_tpu_generation(device.device, device.subsystem_device))
      chips.push_back({std::move(device), *generation});
  if (chips.empty()) {
    result.backend.reason = pci_unreadable_reason(host, kGooglePciVendor, "a Google TPU");
    if (!result.backend.reason)
      result.backend.reason =
          Reason{ReasonCode::no_device,
                 "no Google TPU (PCI vendor 0x1ae0) on the PCI bus" + pci_bus_unlisted_note(host)};
    return result;
  }
  // tpu-info asserts one generation per host; say so rather than fail.
  for (const auto& chip : chips)
    if (chip.generation.name != chips.front().generation.name) {
      result.warnings.push_back(Warning{"tpu", "TPU chips of different generations on one host (" +
                                                   std::string(chips.front().generation.name) +
                                                   ", " + std::string(chip.generation.name) + ")"});
      break;
    }

  const auto accel = scan_accel_class(host);
  const auto accelerator_type = host.env("TPU_ACCELERATOR_TYPE");
  for (std::size_t i = 0; i < chips.size(); ++i)
    result.entries.push_back(make_entry(host, chips[i], int(i), accel, accelerator_type));

  result.backend.ready = std::any_of(result.entries.begin(), result.entries.end(),
                                     [](const Entry& e) { return e.status == EntryStatus::ready; });
  if (!result.backend.ready) result.backend.reason = result.entries.front().reason;
  return result;
}

}  // namespace hwaccel
