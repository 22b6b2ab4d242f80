#include "src/export/device_files.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <sstream>
#include <vector>

#include "src/model/number_text.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {

namespace {

bool all_digits(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

// A Linux device minor number has 20 bits.
constexpr std::int64_t kMaxDeviceMinor = (std::int64_t{1} << 20) - 1;

// "Device Minor: \t 3" in the nvidia module's information file: the minor as
// decimal digits; "" when there is no such line. `bad` gets a value that is
// there but is not a device number ("99999999999999999999", "-1", "07").
std::string nvidia_minor(const std::string& text, std::string& bad) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("Device Minor:", 0) != 0) continue;
    std::string value = line.substr(13);
    value.erase(0, value.find_first_not_of(" \t"));
    value.erase(value.find_last_not_of(" \t\r") + 1);
    if (auto n = parse_integer_in(value, 0, kMaxDeviceMinor);
        n && (value.size() == 1 || value.front() != '0'))
      return value;
    bad = value.size() > 40 ? value.substr(0, 37) + "..." : value;
    return "";
  }
  return "";
}

// The first NAME<digits> entry of a sysfs directory ("renderD128", "accel0").
std::string first_node(Host& host, const std::string& dir, const std::string& prefix) {
  auto names = host.list(dir);
  if (!names) return "";
  for (const auto& n : *names)
    if (n.size() > prefix.size() && n.rfind(prefix, 0) == 0 && all_digits(n.substr(prefix.size())))
      return n;
  return "";
}

std::string gres_name(const Entry& e) {
  if (e.backend == "neuron") return "neuron";
  switch (e.type) {
    case DeviceType::gpu:
      return "gpu";
    case DeviceType::npu:
      return "npu";
    case DeviceType::tpu:
      return "tpu";
    default:
      return e.backend;
  }
}

}  // namespace

DeviceFile device_file(Host& host, const Entry& e) {
  DeviceFile f;
  f.gres = gres_name(e);
  if (e.type == DeviceType::cpu || e.partition) return f;
  // A probe that opened or found the device's node names it in its provenance
  // (TPU /dev/accelN or /dev/vfio/N, Qualcomm /dev/accel/accelN).
  for (const auto& p : e.provenance) {
    if (p.rfind("file:/dev/", 0) == 0) {
      f.path = p.substr(5, p.find(' ', 5) - 5);  // "file:/dev/vfio/0 (stat)" -> "/dev/vfio/0"
      f.source = "the " + e.backend + " probe";
      return f;
    }
    // The Neuron driver's class device neuronN is /dev/neuronN.
    const std::string neuron_class = "file:/sys/devices/virtual/neuron_device/neuron";
    if (p.rfind(neuron_class, 0) == 0 && all_digits(p.substr(neuron_class.size()))) {
      f.path = "/dev/neuron" + p.substr(neuron_class.size());
      f.source = p.substr(5);
      return f;
    }
  }
  const std::string sys = "/sys/bus/pci/devices/" + e.pci_bus_id;
  if (e.backend == "cuda") {
    if (!e.pci_bus_id.empty()) {
      const std::string info = "/proc/driver/nvidia/gpus/" + e.pci_bus_id + "/information";
      if (auto text = host.read(info)) {
        std::string bad;
        if (auto minor = nvidia_minor(*text, bad); !minor.empty()) {
          f.path = "/dev/nvidia" + minor;
          f.source = info;
          return f;
        }
        if (!bad.empty()) {
          f.path = "/dev/nvidia" + std::to_string(e.index);
          f.assumed = true;
          f.source = info + ": Device Minor \"" + printable_line(bad) +
                     "\" is not a device number (0-" + std::to_string(kMaxDeviceMinor) +
                     "); index assumed";
          return f;
        }
      }
    }
    f.path = "/dev/nvidia" + std::to_string(e.index);
    f.assumed = true;
    f.source = "no Device Minor in /proc/driver/nvidia/gpus/<bus>/information; index assumed";
    return f;
  }
  if (!e.pci_bus_id.empty()) {
    if (auto node = first_node(host, sys + "/accel", "accel"); !node.empty()) {
      f.path = "/dev/accel/" + node;
      f.source = sys + "/accel";
      return f;
    }
    if (auto node = first_node(host, sys + "/drm", "renderD"); !node.empty()) {
      f.path = "/dev/dri/" + node;
      f.source = sys + "/drm";
      return f;
    }
  }
  f.assumed = true;
  if (e.backend == "tpu") {
    f.path = "/dev/accel" + std::to_string(e.index);
    f.source = "the TPU driver's /dev/accelN naming; index assumed";
  } else if (e.backend == "neuron") {
    f.path = "/dev/neuron" + std::to_string(e.index);
    f.source = "the Neuron driver's /dev/neuronN naming; index assumed";
  } else if (e.type == DeviceType::gpu) {
    f.path = "/dev/dri/renderD" + std::to_string(128 + e.index);
    f.source = "no drm node under " + sys + "; renderD(128+index) assumed";
  } else {
    f.path = "/dev/accel/accel" + std::to_string(e.index);
    f.source = "no accel node under " + sys + "; index assumed";
  }
  return f;
}

std::string gres_type(const Entry& e) {
  static const std::vector<std::string> skip = {"nvidia",  "amd",      "intel",   "google",
                                                "geforce", "instinct", "radeon",  "tesla",
                                                "(tm)",    "aws",      "qualcomm"};
  std::istringstream in(e.name);
  std::string word, out;
  while (in >> word) {
    // "AWS Trainium (2 NeuronCores)": a parenthesised count is no model number.
    if (word[0] == '(') break;
    std::string lower;
    for (char c : word)
      if (std::isalnum(static_cast<unsigned char>(c)))
        lower += char(std::tolower(static_cast<unsigned char>(c)));
    if (lower.empty() || std::find(skip.begin(), skip.end(), lower) != skip.end()) continue;
    out += (out.empty() ? "" : "_") + lower;
    if (std::any_of(lower.begin(), lower.end(), [](unsigned char c) { return std::isdigit(c); }))
      break;
  }
  return out.empty() ? e.backend : out;
}

}  // namespace hwaccel
