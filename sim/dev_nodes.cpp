#include "sim/dev_nodes.h"

#include <charconv>

namespace hwaccel::sim {
namespace {

// `text` = prefix followed by a decimal number (no sign, no leading junk): that number.
std::optional<unsigned> numbered(std::string_view text, std::string_view prefix) {
  if (text.substr(0, prefix.size()) != prefix || text.size() == prefix.size() ||
      text.size() - prefix.size() > 6)
    return std::nullopt;
  unsigned n = 0;
  auto digits = text.substr(prefix.size());
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return n;
}

struct Rule {
  std::string_view prefix;  // the node's path up to its number ("/dev/nvidia")
  unsigned major, mode;
  bool dynamic;
};

// Numbered nodes. devices.txt: 195 nvidia (minor = index), 226 DRM (cards from 0,
// render nodes from 128: renderD128 is minor 128), 261 accel. Dynamic majors as a
// machine with the driver typically shows them.
constexpr Rule kNumbered[] = {
    {"/dev/nvidia-nvswitch", 507, 0666, true}, {"/dev/nvidia-caps/nvidia-cap", 511, 0400, true},
    {"/dev/nvidia", 195, 0666, false},         {"/dev/dri/card", 226, 0660, false},
    {"/dev/dri/renderD", 226, 0666, false},    {"/dev/accel/accel", 261, 0660, false},
    {"/dev/accel", 261, 0660, false},          {"/dev/neuron", 246, 0666, true},
    {"/dev/hl_controlD", 508, 0666, true},     {"/dev/hl", 508, 0666, true},
    {"/dev/vfio/", 243, 0600, true},
};

}  // namespace

std::optional<DevNumber> device_number(std::string_view path) {
  // Named nodes first: nvidiactl and nvidia-modeset take minors 255 and 254 of 195.
  if (path == "/dev/nvidiactl") return DevNumber{195, 255, 0666, false};
  if (path == "/dev/nvidia-modeset") return DevNumber{195, 254, 0666, false};
  if (path == "/dev/nvidia-uvm") return DevNumber{509, 0, 0666, true};
  if (path == "/dev/nvidia-uvm-tools") return DevNumber{509, 1, 0666, true};
  if (path == "/dev/nvidia-nvswitchctl") return DevNumber{507, 255, 0666, true};
  if (path == "/dev/kfd") return DevNumber{234, 0, 0666, true};
  if (path == "/dev/vfio/vfio") return DevNumber{10, 196, 0666, false};
  for (const Rule& r : kNumbered) {
    if (auto n = numbered(path, r.prefix)) {
      // A hl_controlD node sits on the odd minor after its hl device.
      unsigned minor = r.prefix == "/dev/hl"            ? *n * 2
                       : r.prefix == "/dev/hl_controlD" ? *n * 2 + 1
                                                        : *n;
      return DevNumber{r.major, minor, r.mode, r.dynamic};
    }
  }
  return std::nullopt;
}

}  // namespace hwaccel::sim
