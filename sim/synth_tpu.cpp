// What a Cloud TPU VM shows: the TPU chips as PCI functions of Google's vendor
// id. v2-v4 are bound to the TPU kernel driver and appear as /dev/accelN
// (/sys/class/accel); v5e and later are bound to vfio-pci and opened through
// their IOMMU group's /dev/vfio node. Formats: fixtures/hosts/tpu-*.yaml.
#include "sim/synth_parts.h"
#include "src/probe/device_node.h"

namespace hwaccel::sim::detail {
namespace {

// A node this user may open: the probe asks access(2) through `test -r -a -w`.
void add_node(Snapshot& s, const std::string& node) {
  s.files[node] = FileEntry::of_node(FileKind::char_device);
  ToolEntry access;
  access.argv = node_access_argv(node);
  access.run.ms = 1;
  s.tools[access.argv] = access;
}

}  // namespace

void add_tpu(const Plan& plan, Snapshot& s) {
  const HostSpec& spec = *plan.spec;
  auto it = spec.drivers.find("tpu");
  const DriverState state = it != spec.drivers.end() ? it->second.state : DriverState::ok;
  const bool bound = state != DriverState::missing;
  int accel = 0, group = 0;
  bool any_vfio = false;
  for (const auto& d : plan.tpu) {
    const Sku& sku = *d.sku;
    const std::string dir = "/sys/bus/pci/devices/" + d.address;
    s.files[dir + "/vendor"] = FileEntry::of_content("0x1ae0\n");
    s.files[dir + "/device"] = FileEntry::of_content(hex_id(sku.pci_device, 4) + "\n");
    s.files[dir + "/class"] = FileEntry::of_content(hex_id(sku.pci_class, 6) + "\n");
    if (!bound) continue;
    s.files[dir + "/driver"] =
        FileEntry::of_link("../../../../bus/pci/drivers/" + std::string(sku.kernel_driver));
    if (sku.kernel_driver == "vfio-pci") {
      const std::string g = std::to_string(group++);
      s.files[dir + "/iommu_group"] = FileEntry::of_link("../../../../kernel/iommu_groups/" + g);
      add_node(s, "/dev/vfio/" + g);
      any_vfio = true;
    } else {
      const std::string name = "accel" + std::to_string(accel++);
      s.files["/sys/class/accel/" + name + "/device"] =
          FileEntry::of_link("../../../bus/pci/devices/" + d.address);
      add_node(s, "/dev/" + name);
    }
  }
  if (any_vfio) s.files["/dev/vfio/vfio"] = FileEntry::of_node(FileKind::char_device);
}

}  // namespace hwaccel::sim::detail
