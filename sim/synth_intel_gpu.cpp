// What an Intel GPU host shows to oneAPI's probe: the PCI function bound to i915,
// its DRM card (made with the other GPUs' cards in synth_amd.cpp), the local-memory
// files Intel's DKMS i915 adds to a discrete card (lmem_total_bytes,
// lmem_avail_bytes; mainline has none, an iGPU has no local memory), and `xpu-smi
// discovery`'s table (XPU Manager 1.2's layout, fixtures/hosts/intel-max-1550.yaml),
// installed by default where there is a data-center (discrete) GPU.
#include <cstdio>

#include "sim/synth_parts.h"

namespace hwaccel::sim::detail {
namespace {

std::string card_of(const Snapshot& s, const std::string& address) {
  const std::string target = "../../../bus/pci/devices/" + address;
  for (int n = 0; n < 64; ++n) {
    auto it = s.files.find("/sys/class/drm/card" + std::to_string(n) + "/device");
    if (it != s.files.end() && it->second.target == target) return "card" + std::to_string(n);
  }
  return "";
}

std::string row(const std::string& id, const std::string& text) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "| %-10s| %-85s|\n", id.c_str(), text.c_str());
  return buf;
}

std::string discovery(const Plan& plan, const Snapshot& s) {
  const std::string rule = "+-----------+" + std::string(86, '-') + "+\n";
  std::string out = rule + row("Device ID", "Device Information") + rule;
  for (std::size_t i = 0; i < plan.intel_gpu.size(); ++i) {
    const Device& d = plan.intel_gpu[i];
    const Sku& sku = *d.sku;
    char uuid[64];
    std::snprintf(uuid, sizeof uuid, "00000000-0000-%04x-0000-00%02x%04x%04x",
                  unsigned(std::stoul(d.address.substr(5, 2), nullptr, 16)), unsigned(sku.revision),
                  unsigned(sku.pci_device), unsigned(sku.pci_vendor));
    const std::string card = card_of(s, d.address);
    out += row(std::to_string(i), "Device Name: " + std::string(sku.name));
    out += row("", "Vendor Name: Intel(R) Corporation");
    out += row("", std::string("SOC UUID: ") + uuid);
    out += row("", "PCI BDF Address: " + d.address);
    out += row("", "DRM Device: /dev/dri/" + card);
    out += row("", "Function Type: physical");
    out += rule;
  }
  return out;
}

}  // namespace

void add_intel_gpu(const Plan& plan, Snapshot& s) {
  if (plan.intel_gpu.empty()) return;
  const HostSpec& spec = *plan.spec;
  auto it = spec.drivers.find("i915");
  const DriverState state = it != spec.drivers.end() ? it->second.state : DriverState::ok;
  const bool loaded = state != DriverState::missing;
  bool any_discrete = false;
  for (const auto& d : plan.intel_gpu) {
    const Sku& sku = *d.sku;
    const std::string dir = "/sys/bus/pci/devices/" + d.address;
    s.files[dir + "/vendor"] = FileEntry::of_content(hex_id(sku.pci_vendor, 4) + "\n");
    s.files[dir + "/device"] = FileEntry::of_content(hex_id(sku.pci_device, 4) + "\n");
    s.files[dir + "/class"] = FileEntry::of_content(hex_id(sku.pci_class, 6) + "\n");
    if (sku.revision)
      s.files[dir + "/revision"] = FileEntry::of_content(hex_id(sku.revision, 2) + "\n");
    s.files[dir + "/numa_node"] = FileEntry::of_content(std::to_string(d.numa) + "\n");
    if (!loaded) continue;
    s.files[dir + "/driver"] = FileEntry::of_link("../../../../bus/pci/drivers/i915");
    if (sku.apu || !sku.vram_bytes) continue;
    any_discrete = true;
    const std::string card = card_of(s, d.address);
    if (card.empty()) continue;
    const std::uint64_t avail = d.spec->free_bytes ? std::min(*d.spec->free_bytes, sku.vram_bytes)
                                                   : sku.vram_bytes - sku.vram_idle_used;
    s.files["/sys/class/drm/" + card + "/lmem_total_bytes"] =
        FileEntry::of_content(std::to_string(sku.vram_bytes) + "\n");
    s.files["/sys/class/drm/" + card + "/lmem_avail_bytes"] =
        FileEntry::of_content(std::to_string(avail) + "\n");
  }
  const std::vector<std::string> argv = {"xpu-smi", "discovery"};
  if (!loaded ||
      !tool_installed(spec, "xpu-smi", any_discrete && state != DriverState::tool_missing)) {
    s.tools[argv] = not_found_tool(argv);
    return;
  }
  ToolEntry t;
  t.argv = argv;
  t.run.ms = 300;
  t.run.out = discovery(plan, s);
  s.tools[argv] = t;
}

}  // namespace hwaccel::sim::detail
