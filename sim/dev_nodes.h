// The device numbers and modes a Linux driver gives its nodes (a snapshot records
// that a node is a character device, not its numbers). `hwsim run` only says them
// (-v): the nodes it presents are this machine's /dev/null, which reaches no driver
// (docs/hwsim.md), never a node with these numbers. Fixed majors come from the kernel's
// Documentation/admin-guide/devices.txt (nvidia 195, DRM 226, accel 261, misc 10);
// drivers with a dynamic major (nvidia-uvm, nvidia-caps, kfd, neuron, vfio groups,
// habanalabs) get the number such a machine typically shows, marked `dynamic`.
// Modes are the drivers' or udev's defaults (nvidia 0666, DRM card 0660, ...).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace hwaccel::sim {

struct DevNumber {
  unsigned major = 0, minor = 0;
  unsigned mode = 0666;
  bool dynamic = false;  // the driver's major is assigned at load time: a typical one
};

// The numbers for a node at `path` ("/dev/nvidia3", "/dev/dri/renderD129"), or
// nullopt for a name no rule knows (it stays a plain file, and says so).
std::optional<DevNumber> device_number(std::string_view path);

}  // namespace hwaccel::sim
