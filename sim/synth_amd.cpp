// What an AMD host shows to the ROCm probe: the PCI functions, amdgpu's sysfs
// attributes (mem_info_*, product_name, partitions), the DRM cards and render
// nodes, and the KFD topology (CPU nodes first, then one node per GPU or per
// compute partition). Formats: amdgpu and kfd_topology.c as cited in
// fixtures/hosts/mi300x-8.yaml and strix-halo.yaml.
#include <algorithm>
#include <cstdio>

#include "sim/kfd_properties.h"
#include "sim/synth_parts.h"

namespace hwaccel::sim::detail {
namespace {

int partitions_of(const std::string& mode) {
  if (mode == "DPX") return 2;
  if (mode == "TPX") return 3;
  if (mode == "QPX") return 4;
  if (mode == "CPX") return 8;
  return 1;
}

struct PciParts {
  int domain = 0, bus = 0, devfn = 0;
};

PciParts parts_of(const std::string& address) {
  PciParts p;
  unsigned d = 0, b = 0, dev = 0, fn = 0;
  std::sscanf(address.c_str(), "%x:%x:%x.%x", &d, &b, &dev, &fn);
  p.domain = int(d), p.bus = int(b), p.devfn = int(dev << 3 | fn);
  return p;
}

// A GPU node's properties (sim/kfd_properties.h): the SKU's shape, its PCI
// place, and the links the KFD fill gives it (one to its CPU node, one to each
// other GPU of its XGMI hive).
std::string kfd_gpu_properties(const Sku& sku, const PciParts& pci, int render_minor, int xcc,
                               int location_low, int links, std::uint64_t hive) {
  KfdProperties v = kfd_gpu_shape(sku.gfx_target_version);
  v["simd_count"] = std::uint64_t(sku.simd_count * xcc / std::max(1, sku.num_xcc));
  v["mem_banks_count"] = 1;
  v["io_links_count"] = std::uint64_t(links);
  v["simd_id_base"] = 2147487744ull;
  v["gfx_target_version"] = sku.gfx_target_version;
  v["vendor_id"] = 4098;
  v["device_id"] = sku.pci_device;
  v["location_id"] = std::uint64_t(pci.bus << 8 | location_low);
  v["domain"] = std::uint64_t(pci.domain);
  v["drm_render_minor"] = std::uint64_t(render_minor);
  v["hive_id"] = hive;
  v["num_xcc"] = std::uint64_t(xcc);
  return kfd_properties_text(v, true);
}

std::string kfd_cpu_properties(int cores, int links) {
  return kfd_properties_text({{"cpu_cores_count", std::uint64_t(cores)},
                              {"mem_banks_count", 1},
                              {"io_links_count", std::uint64_t(links)}},
                             false);
}

}  // namespace

void add_amd(const Plan& plan, Snapshot& s) {
  const HostSpec& spec = *plan.spec;
  auto driver_it = spec.drivers.find("amdgpu");
  const DriverState state =
      driver_it != spec.drivers.end() ? driver_it->second.state : DriverState::ok;
  const bool loaded = state != DriverState::missing;
  const bool kfd = loaded && state != DriverState::mismatch;

  // DRM cards: every GPU whose driver is loaded gets one, in PCI order, NVIDIA
  // GPUs included (nvidia-drm); render minors follow the cards.
  struct Card {
    std::string address;
    bool amd;
  };
  std::vector<Card> cards;
  // Another kernel driver (nouveau) holding the NVIDIA GPUs also makes a DRM card.
  auto bound = [&](const char* driver) {
    auto it = spec.drivers.find(driver);
    return it == spec.drivers.end() || it->second.state != DriverState::missing ||
           !it->second.bound_to.empty();
  };
  if (bound("nvidia"))
    for (const auto& d : plan.nvidia) cards.push_back({d.address, false});
  if (loaded)
    for (const auto& d : plan.amd) cards.push_back({d.address, true});
  if (bound("i915"))
    for (const auto& d : plan.intel_gpu) cards.push_back({d.address, false});
  std::stable_sort(cards.begin(), cards.end(),
                   [](const Card& a, const Card& b) { return a.address < b.address; });

  std::vector<std::string> drm_names;
  for (std::size_t c = 0; c < cards.size(); ++c) {
    const std::string card = "card" + std::to_string(c);
    const std::string render = "renderD" + std::to_string(128 + c);
    drm_names.push_back(card);
    drm_names.push_back(render);
    s.files["/sys/class/drm/" + card + "/device"] =
        FileEntry::of_link("../../../bus/pci/devices/" + cards[c].address);
    s.files["/sys/class/drm/" + render + "/device"] =
        FileEntry::of_link("../../../bus/pci/devices/" + cards[c].address);
    s.files["/dev/dri/" + card] = FileEntry::of_node(FileKind::char_device);
    s.files["/dev/dri/" + render] = FileEntry::of_node(FileKind::char_device);
    if (!cards[c].amd)
      s.files["/sys/bus/pci/devices/" + cards[c].address + "/drm"] =
          FileEntry::of_dir({card, render});
  }
  // Without any GPU driver the firmware framebuffer is the only DRM card.
  if (cards.empty() && (!plan.amd.empty() || !plan.intel_gpu.empty())) {
    drm_names.push_back("card0");
    drm_names.push_back("card0-Unknown-1");
    s.files["/sys/class/drm/card0/device"] =
        FileEntry::of_link("../../../devices/platform/simple-framebuffer.0");
    s.files["/sys/devices/platform/simple-framebuffer.0/uevent"] =
        FileEntry::of_content("DRIVER=simple-framebuffer\nMODALIAS=platform:simple-framebuffer\n");
  }
  if (!drm_names.empty()) {
    drm_names.push_back("version");
    std::sort(drm_names.begin(), drm_names.end());
    s.files["/sys/class/drm"] = FileEntry::of_dir(drm_names);
  }

  // KFD: one CPU node per socket, then the GPUs (per compute partition) in PCI order.
  int node = 0;
  const int sockets = spec.cpu.clusters.empty() ? spec.cpu.sockets : 1;
  const std::string kfd_dir = "/sys/class/kfd/kfd/topology/nodes/";
  // The KFD fill links each GPU node to the CPU node of its NUMA node and, within
  // an XGMI hive (more than one partitionable Instinct), to every other GPU node.
  auto cpu_node_of = [&](int numa) { return numa >= 0 && numa < sockets ? numa : 0; };
  std::vector<int> gpus_on(std::size_t(std::max(1, sockets)), 0);
  int gpu_nodes = 0;
  for (const auto& d : plan.amd) {
    const int parts =
        partitions_of(d.spec->compute_partition.empty() && !d.sku->compute_partitions.empty()
                          ? d.sku->compute_partitions.front()
                          : d.spec->compute_partition);
    gpus_on[std::size_t(cpu_node_of(d.numa))] += parts;
    gpu_nodes += parts;
  }
  const bool hive = plan.amd.size() > 1 &&
                    std::all_of(plan.amd.begin(), plan.amd.end(),
                                [](const auto& d) { return !d.sku->compute_partitions.empty(); });
  // Instinct GPUs of one hive share a hive id (a made-up but stable value).
  const std::uint64_t hive_id = hive ? 0x9e3779b97f4a7c15ull : 0;
  if (kfd && !plan.amd.empty()) {
    for (int k = 0; k < sockets; ++k)
      s.files[kfd_dir + std::to_string(node++) + "/properties"] = FileEntry::of_content(
          kfd_cpu_properties(spec.cpu.logical_cpus() / sockets / std::max(1, spec.cpu.threads),
                             sockets - 1 + gpus_on[std::size_t(k)]));
    s.files["/dev/kfd"] = FileEntry::of_node(FileKind::char_device);
  }

  for (const auto& d : plan.amd) {
    const Sku& sku = *d.sku;
    const std::string dir = "/sys/bus/pci/devices/" + d.address;
    s.files[dir + "/vendor"] = FileEntry::of_content("0x1002\n");
    s.files[dir + "/device"] = FileEntry::of_content(hex_id(sku.pci_device, 4) + "\n");
    s.files[dir + "/class"] = FileEntry::of_content(hex_id(sku.pci_class, 6) + "\n");
    if (sku.subsystem_vendor) {
      s.files[dir + "/subsystem_vendor"] =
          FileEntry::of_content(hex_id(sku.subsystem_vendor, 4) + "\n");
      s.files[dir + "/subsystem_device"] =
          FileEntry::of_content(hex_id(sku.subsystem_device, 4) + "\n");
    }
    if (sku.revision)
      s.files[dir + "/revision"] = FileEntry::of_content(hex_id(sku.revision, 2) + "\n");
    s.files[dir + "/numa_node"] = FileEntry::of_content(std::to_string(d.numa) + "\n");
    if (!loaded) continue;
    s.files[dir + "/local_cpulist"] =
        FileEntry::of_content((d.numa < 0 ? "0-" + std::to_string(spec.cpu.logical_cpus() - 1)
                                          : cpulist_of_node(spec.cpu, d.numa)) +
                              "\n");
    s.files[dir + "/driver"] = FileEntry::of_link("../../../../bus/pci/drivers/amdgpu");
    std::size_t c = 0;
    while (c < cards.size() && cards[c].address != d.address) ++c;
    const int render_minor = int(128 + c);
    s.files[dir + "/drm"] =
        FileEntry::of_dir({"card" + std::to_string(c), "renderD" + std::to_string(render_minor)});
    const std::uint64_t used = d.spec->free_bytes
                                   ? sku.vram_bytes - std::min(*d.spec->free_bytes, sku.vram_bytes)
                                   : sku.vram_idle_used;
    s.files[dir + "/mem_info_vram_total"] =
        FileEntry::of_content(std::to_string(sku.vram_bytes) + "\n");
    s.files[dir + "/mem_info_vram_used"] =
        FileEntry::of_content(std::to_string(sku.apu ? sku.vram_idle_used : used) + "\n");
    const std::uint64_t gtt =
        d.spec->gtt_bytes ? *d.spec->gtt_bytes : (spec.memory.total_kb * 1024 / 2) / 4096 * 4096;
    s.files[dir + "/mem_info_gtt_total"] = FileEntry::of_content(std::to_string(gtt) + "\n");
    if (!sku.vbios.empty())
      s.files[dir + "/vbios_version"] = FileEntry::of_content(std::string(sku.vbios) + "\n");
    if (sku.has_product_name)
      s.files[dir + "/product_name"] = FileEntry::of_content(std::string(sku.name) + "\n");
    std::string compute = d.spec->compute_partition;
    std::string memory = d.spec->memory_partition;
    if (!sku.compute_partitions.empty()) {
      if (compute.empty()) compute = sku.compute_partitions.front();
      if (memory.empty()) memory = sku.memory_partitions.front();
      std::string offered, memories;
      for (const auto& m : sku.compute_partitions) offered += (offered.empty() ? "" : ", ") + m;
      for (const auto& m : sku.memory_partitions) memories += (memories.empty() ? "" : ", ") + m;
      s.files[dir + "/current_compute_partition"] = FileEntry::of_content(compute + "\n");
      s.files[dir + "/current_memory_partition"] = FileEntry::of_content(memory + "\n");
      s.files[dir + "/available_compute_partition"] = FileEntry::of_content(offered + "\n");
      s.files[dir + "/available_memory_partition"] = FileEntry::of_content(memories + "\n");
    }
    if (!kfd) continue;
    const PciParts pci = parts_of(d.address);
    const int parts = partitions_of(compute);
    for (int k = 0; k < parts; ++k) {
      const std::string node_dir = kfd_dir + std::to_string(node++);
      // Partition 0 keeps the function's own location; the others number up from it.
      s.files[node_dir + "/properties"] = FileEntry::of_content(
          kfd_gpu_properties(sku, pci, render_minor, std::max(1, sku.num_xcc / parts),
                             pci.devfn + k, 1 + (hive ? gpu_nodes - 1 : 0), hive_id));
      if (parts > 1) {
        // NPS1: every partition sees the whole HBM; NPS4: a quarter each (not verified
        // on hardware: amdgpu's kfd_topology reports the partition's own memory range).
        const std::uint64_t share = memory == "NPS4" ? sku.vram_bytes / 4 : sku.vram_bytes;
        s.files[node_dir + "/mem_banks/0/properties"] =
            FileEntry::of_content("heap_type 1\nsize_in_bytes " + std::to_string(share) +
                                  "\nflags 0\nwidth 4096\nmem_clk_max 1300\n");
      }
    }
  }
}

}  // namespace hwaccel::sim::detail
