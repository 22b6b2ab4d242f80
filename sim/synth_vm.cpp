// The PCI bus of a microVM: Firecracker's PCI transport puts a host bridge
// (8086:0d57, no driver) at 0000:00:00.0 and one virtio function (vendor 0x1af4)
// per device after it, as the llvmpipe-only recording of such a VM shows. Only
// the attributes that recording holds are written (the bridge's, and the virtio
// functions' vendor), so a replay reads what the real VM gave the recorder.
#include "sim/synth_parts.h"

namespace hwaccel::sim::detail {

void add_vm(const Plan& plan, Snapshot& s) {
  if (plan.spec->vm != "firecracker") return;
  const std::string bridge = "/sys/bus/pci/devices/0000:00:00.0";
  s.files[bridge + "/vendor"] = FileEntry::of_content("0x8086\n");
  s.files[bridge + "/device"] = FileEntry::of_content("0x0d57\n");
  s.files[bridge + "/class"] = FileEntry::of_content("0x060000\n");
  s.files[bridge + "/revision"] = FileEntry::of_content("0x00\n");
  s.files[bridge + "/subsystem_vendor"] = FileEntry::of_content("0x0000\n");
  s.files[bridge + "/subsystem_device"] = FileEntry::of_content("0x0000\n");
  s.files[bridge + "/numa_node"] = FileEntry::of_content("-1\n");
  s.files[bridge + "/driver"] = FileEntry::of_absent();
  // Five virtio functions, as the recorded VM has (their device ids were not recorded).
  for (int slot = 1; slot <= 5; ++slot)
    s.files["/sys/bus/pci/devices/0000:00:0" + std::to_string(slot) + ".0/vendor"] =
        FileEntry::of_content("0x1af4\n");
}

}  // namespace hwaccel::sim::detail
