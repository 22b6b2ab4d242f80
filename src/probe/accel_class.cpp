#include "src/probe/accel_class.h"

#include "src/probe/nvidia_smi_csv.h"
#include "src/vocabulary/path.h"

namespace hwaccel {
namespace {

std::string last_component(std::string_view target) {
  while (!target.empty() && target.back() == '/') target.remove_suffix(1);
  auto slash = target.rfind('/');
  return std::string(slash == std::string_view::npos ? target : target.substr(slash + 1));
}

}  // namespace

std::string pci_address_of_link(std::string_view target) {
  return normalise_pci_bus_id(last_component(target));
}

std::vector<AccelClassDevice> scan_accel_class(Host& host) {
  std::vector<AccelClassDevice> devices;
  auto names = host.list(kAccelClassDir);
  if (!names) return devices;
  for (const auto& name : *names) {
    AccelClassDevice d;
    d.name = name;
    const std::string device = join_path(kAccelClassDir, name) + "/device";
    if (auto target = host.readlink(device)) d.pci_address = pci_address_of_link(*target);
    if (auto driver = host.readlink(device + "/driver")) d.driver = last_component(*driver);
    devices.push_back(std::move(d));
  }
  return devices;
}

}  // namespace hwaccel
