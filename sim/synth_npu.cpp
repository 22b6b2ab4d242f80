// What a laptop NPU shows: the PCI function bound to its accel driver (intel_vpu
// for Intel's NPU, amdxdna for AMD's XDNA), its /sys/class/accel/accelN link and
// /dev/accel/accelN node, and the `test -r NODE -a -w NODE` the probe runs to ask
// whether this user may open it (fixtures meteor-lake-npu, ryzen-ai-laptop). A
// `node: denied` accelerator gives the node as EACCES (a user outside the render
// group), as meteor-lake-npu-denied records it.
#include <cerrno>

#include "sim/synth_parts.h"

namespace hwaccel::sim::detail {

void add_npu(const Plan& plan, Snapshot& s) {
  for (const auto& d : plan.npu) {
    const Sku& sku = *d.sku;
    const std::string driver(sku.kernel_driver);
    auto it = plan.spec->drivers.find(driver);
    const bool loaded = it == plan.spec->drivers.end() || it->second.state != DriverState::missing;
    const std::string dir = "/sys/bus/pci/devices/" + d.address;
    s.files[dir + "/vendor"] = FileEntry::of_content(hex_id(sku.pci_vendor, 4) + "\n");
    s.files[dir + "/device"] = FileEntry::of_content(hex_id(sku.pci_device, 4) + "\n");
    s.files[dir + "/class"] = FileEntry::of_content(hex_id(sku.pci_class, 6) + "\n");
    if (sku.revision)
      s.files[dir + "/revision"] = FileEntry::of_content(hex_id(sku.revision, 2) + "\n");
    s.files[dir + "/numa_node"] = FileEntry::of_content(std::to_string(d.numa) + "\n");
    if (!loaded) continue;
    s.files[dir + "/driver"] = FileEntry::of_link("../../../../bus/pci/drivers/" + driver);
    const std::string accel = "accel" + std::to_string(next_accel_index(s));
    const std::string node = "/dev/accel/" + accel;
    s.files["/sys/class/accel/" + accel + "/device"] =
        FileEntry::of_link("../../../bus/pci/devices/" + d.address);
    if (d.spec->node_denied) {
      s.files[node] = FileEntry::of_error(EACCES);
      continue;
    }
    s.files[node] = FileEntry::of_node(FileKind::char_device);
    ToolEntry test;
    test.argv = {"test", "-r", node, "-a", "-w", node};
    test.run.ms = 1;
    s.tools[test.argv] = test;
  }
  // Intel's older out-of-tree driver registered a misc device instead; a host
  // with the accel class has none.
  if (!plan.npu.empty()) s.files["/sys/class/misc/intel_npu"] = FileEntry::of_absent();
}

}  // namespace hwaccel::sim::detail
