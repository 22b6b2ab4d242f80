#include "sim/kernel_fill.h"

#include <gtest/gtest.h>

#include <map>

#include "sim/dev_nodes.h"
#include "sim/kernel_fill_parts.h"
#include "sim/kfd_properties.h"

namespace hwaccel::sim {
namespace {

TEST(KernelFill, ListsAndMasksAreTheKernels) {
  EXPECT_EQ(cpu_list({0, 1, 2, 3, 8, 10, 11}), "0-3,8,10-11");
  EXPECT_EQ(cpu_mask({0, 1, 2, 3}, 20), "0000f");
  // 224 CPUs: seven 32-bit groups, the highest first.
  EXPECT_EQ(cpu_mask({0, 32, 223}, 224),
            "80000000,00000000,00000000,00000000,00000000,00000001,00000001");
}

TEST(KernelFill, PciDevicesMoveToTheKernelsPlaceWithAConfigAndDriver) {
  Snapshot s;
  s.facts.os = "linux";
  s.facts.cpus = 4;
  s.facts.kernel = "6.8.0-1-generic";
  const std::string bus = "/sys/bus/pci/devices/0000:1b:00.0/";
  s.files[bus + "vendor"] = FileEntry::of_content("0x10de\n");
  s.files[bus + "device"] = FileEntry::of_content("0x2330\n");
  s.files[bus + "class"] = FileEntry::of_content("0x030200\n");
  s.files[bus + "revision"] = FileEntry::of_content("0xa1\n");
  s.files[bus + "driver"] = FileEntry::of_link("../../../../bus/pci/drivers/nvidia");
  s.files["/sys/class/dmi/id/sys_vendor"] = FileEntry::of_content("NVIDIA\n");
  FilledPaths filled = fill_implied(s);
  // Below a root port on the root bus just under its own (sim/pci_layout.h).
  const std::string place = "pci0000:1a/0000:1a:01.0/0000:1b:00.0";
  EXPECT_EQ(s.files.at("/sys/bus/pci/devices/0000:1b:00.0").target, "../../../devices/" + place);
  const std::string dev = "/sys/devices/" + place + "/";
  EXPECT_EQ(s.files.at(dev + "driver").target, "../../../../bus/pci/drivers/nvidia");
  EXPECT_EQ(s.files.at("/sys/bus/pci/drivers/nvidia/0000:1b:00.0").target,
            "../../../../devices/" + place);
  // The root port: a type 1 header whose bus numbers hold the device's bus.
  const std::string port = "/sys/devices/pci0000:1a/0000:1a:01.0/";
  EXPECT_EQ(s.files.at("/sys/bus/pci/devices/0000:1a:01.0").target,
            "../../../devices/pci0000:1a/0000:1a:01.0");
  EXPECT_EQ(s.files.at(port + "class").bytes, "0x060400\n");
  EXPECT_EQ(s.files.at(port + "driver").target, "../../../bus/pci/drivers/pcieport");
  EXPECT_EQ(s.files.at(port + "secondary_bus_number").bytes, "27\n");
  const std::string& header = s.files.at(port + "config").bytes;
  ASSERT_EQ(header.size(), 256u);
  EXPECT_EQ(header[0x0e], 1);       // type 1
  EXPECT_EQ(header[0x18], 0x1a);    // primary
  EXPECT_EQ(header[0x19], 0x1b);    // secondary
  EXPECT_EQ(header[0x1a], 0x1b);    // subordinate
  EXPECT_EQ(header[0x42] >> 4, 4);  // PCIe root port
  const std::string& config = s.files.at(dev + "config").bytes;
  ASSERT_EQ(config.size(), 256u);
  EXPECT_EQ(static_cast<unsigned char>(config[0]), 0xde);
  EXPECT_EQ(static_cast<unsigned char>(config[3]), 0x23);
  EXPECT_EQ(static_cast<unsigned char>(config[8]), 0xa1);    // revision
  EXPECT_EQ(static_cast<unsigned char>(config[0xb]), 0x03);  // base class
  EXPECT_EQ(s.files.at("/sys/class/dmi/id").target, "../../devices/virtual/dmi/id");
  EXPECT_EQ(s.files.at("/sys/devices/virtual/dmi/id/sys_vendor").bytes, "NVIDIA\n");
  EXPECT_EQ(s.files.at("/proc/sys/kernel/osrelease").bytes, "6.8.0-1-generic\n");
  EXPECT_EQ(filled.at("/proc/sys/kernel/osrelease"), "facts.kernel");
}

// A recorded nvidia-smi topo -m says GPU0 and NIC0 (mlx5_0, found through its
// infiniband device link) are PXB: one root port, the NIC on the first switch,
// the GPU behind a second; the NIC's class device moves into its folder.
TEST(KernelFill, TheRecordedTopoMatrixPlacesDevicesBehindSwitches) {
  Snapshot s;
  s.facts.os = "linux";
  s.facts.cpus = 4;
  auto device = [&](const std::string& bdf, const char* vendor, const char* cls) {
    const std::string bus = "/sys/bus/pci/devices/" + bdf + "/";
    s.files[bus + "vendor"] = FileEntry::of_content(vendor);
    s.files[bus + "device"] = FileEntry::of_content("0x1234\n");
    s.files[bus + "class"] = FileEntry::of_content(cls);
    s.files[bus + "numa_node"] = FileEntry::of_content("0\n");
  };
  device("0000:18:00.0", "0x15b3\n", "0x020700\n");
  device("0000:1b:00.0", "0x10de\n", "0x030200\n");
  device("0000:2a:00.0", "0x144d\n", "0x010802\n");  // not in the matrix
  s.files["/sys/class/infiniband/mlx5_0/device"] = FileEntry::of_link("../../../0000:18:00.0");
  ToolEntry topo;
  topo.argv = {"nvidia-smi", "topo", "-m"};
  topo.run.out =
      "\t\x1b[4mGPU0\tNIC0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\x1b[0m\n"
      "GPU0\t X \tPXB\t0-3\t0\t\tN/A\nNIC0\tPXB\t X \t\t\t\t\n\nLegend:\n\n  X    = Self\n"
      "\nNIC Legend:\n\n  NIC0: mlx5_0\n";
  s.tools[topo.argv] = topo;
  FilledPaths filled = fill_implied(s);
  EXPECT_EQ(s.files.at("/sys/bus/pci/devices/0000:1b:00.0").target,
            "../../../devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:01.0/0000:19:00.0/"
            "0000:1a:00.0/0000:1b:00.0");
  EXPECT_EQ(s.files.at("/sys/bus/pci/devices/0000:18:00.0").target,
            "../../../devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:00.0/0000:18:00.0");
  // The NVMe drive the matrix does not name: its own host bridge, a root port.
  EXPECT_EQ(s.files.at("/sys/bus/pci/devices/0000:2a:00.0").target,
            "../../../devices/pci0000:29/0000:29:01.0/0000:2a:00.0");
  EXPECT_EQ(s.files.at("/sys/bus/pci/drivers/pcieport/0000:17:01.0").target,
            "../../../../devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:01.0");
  // The class device moves into its device's folder, where its recorded link points.
  const std::string nic = "pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:00.0/0000:18:00.0";
  EXPECT_EQ(s.files.at("/sys/class/infiniband/mlx5_0").target,
            "../../devices/" + nic + "/infiniband/mlx5_0");
  EXPECT_EQ(s.files.at("/sys/devices/" + nic + "/infiniband/mlx5_0/device").target,
            "../../../0000:18:00.0");
  const std::string up = "/sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/";
  EXPECT_EQ(static_cast<unsigned char>(s.files.at(up + "config").bytes[0x42]) >> 4, 5);
  EXPECT_NE(filled.at(up + "class").find("topo -m"), std::string::npos);
}

// A server's BMC VGA (ast) and two amdgpu GPUs: cards in bus order, render nodes
// only for the GPUs, each /sys/class/drm entry a link into its device's folder;
// an NVIDIA GPU without nvidia-drm gets none.
TEST(KernelFill, DisplayDevicesGetTheirDrmMinors) {
  Snapshot s;
  s.facts.os = "linux";
  s.facts.cpus = 4;
  auto device = [&](const std::string& bdf, const char* vendor, const char* cls, const char* drv) {
    const std::string bus = "/sys/bus/pci/devices/" + bdf + "/";
    s.files[bus + "vendor"] = FileEntry::of_content(vendor);
    s.files[bus + "device"] = FileEntry::of_content("0x1234\n");
    s.files[bus + "class"] = FileEntry::of_content(cls);
    s.files[bus + "driver"] = FileEntry::of_link(std::string("../../../../bus/pci/drivers/") + drv);
  };
  device("0000:02:00.0", "0x1a03\n", "0x030000\n", "ast");
  device("0000:26:00.0", "0x1002\n", "0x038000\n", "amdgpu");
  device("0000:46:00.0", "0x1002\n", "0x038000\n", "amdgpu");
  device("0000:65:00.0", "0x10de\n", "0x030200\n", "nvidia");
  device("0000:85:00.0", "0x15b3\n", "0x020700\n", "mlx5_core");
  fill_implied(s);
  EXPECT_EQ(s.files.at("/sys/class/drm/card0").target,
            "../../devices/pci0000:01/0000:01:01.0/0000:02:00.0/drm/card0");
  EXPECT_EQ(s.files.at("/sys/class/drm/card2").target,
            "../../devices/pci0000:01/0000:01:03.0/0000:46:00.0/drm/card2");
  EXPECT_EQ(s.files.at("/sys/class/drm/renderD128").target,
            "../../devices/pci0000:01/0000:01:02.0/0000:26:00.0/drm/renderD128");
  EXPECT_EQ(
      s.files.at("/sys/devices/pci0000:01/0000:01:02.0/0000:26:00.0/drm/renderD128/dev").bytes,
      "226:128\n");
  EXPECT_EQ(s.files.at("/sys/devices/pci0000:01/0000:01:03.0/0000:46:00.0/drm/card2/device").target,
            "../../../0000:46:00.0");
  EXPECT_FALSE(s.files.count("/sys/class/drm/card3"));       // nvidia without nvidia-drm
  EXPECT_FALSE(s.files.count("/sys/class/drm/renderD130"));  // nor the NIC
  // A recorded /sys/class/drm is the host's: nothing is added to it.
  Snapshot recorded;
  recorded.facts.os = "linux";
  recorded.facts.cpus = 4;
  recorded.files["/sys/class/drm"] = FileEntry::of_absent();
  recorded.files["/sys/bus/pci/devices/0000:26:00.0/vendor"] = FileEntry::of_content("0x1002\n");
  recorded.files["/sys/bus/pci/devices/0000:26:00.0/class"] = FileEntry::of_content("0x038000\n");
  recorded.files["/sys/bus/pci/devices/0000:26:00.0/driver"] =
      FileEntry::of_link("../../../../bus/pci/drivers/amdgpu");
  fill_implied(recorded);
  EXPECT_FALSE(recorded.files.count("/sys/class/drm/card0"));
}

// `hwsim run` plans its /proc mounts from the /proc part of the fill alone.
TEST(KernelFill, TheProcOnlyFillGivesTheWholeFillsProc) {
  Snapshot s;
  s.facts.os = "linux";
  s.facts.cpus = 8;
  s.facts.kernel = "6.8.0";
  s.files["/proc/cpuinfo"] = FileEntry::of_content("processor\t: 0\ncache size\t: 1024 KB\n");
  s.files["/sys/bus/pci/devices/0000:1b:00.0/vendor"] = FileEntry::of_content("0x10de\n");
  auto proc_of = [](const Snapshot& x) {
    std::map<std::string, std::string> out;
    for (const auto& [p, e] : x.files)
      if (p.rfind("/proc/", 0) == 0) out[p] = e.bytes + std::to_string(static_cast<int>(e.kind));
    return out;
  };
  EXPECT_EQ(proc_of(with_implied_proc(s)), proc_of(with_implied(s)));
  EXPECT_FALSE(with_implied_proc(s).files.count("/sys/devices/system/cpu/online"));
}

TEST(KernelFill, NeverOverARecordedPathNorIntoARecordedListing) {
  Snapshot s;
  s.facts.os = "linux";
  s.facts.cpus = 2;
  s.files["/sys/devices/system/cpu/online"] = FileEntry::of_content("0\n");
  s.files["/sys/devices/system/node"] = FileEntry::of_dir({"node0"});
  fill_implied(s);
  EXPECT_EQ(s.files.at("/sys/devices/system/cpu/online").bytes, "0\n");
  EXPECT_EQ(s.files.count("/sys/devices/system/node/online"), 0u);
  EXPECT_EQ(s.files.count("/sys/devices/system/node/node0/cpulist"), 1u);
}

TEST(KernelFill, AHostileCpuCountFillsNoCpus) {
  Snapshot s;
  s.facts.os = "linux";
  s.facts.cpus = 1'000'000'000;
  fill_implied(s);
  EXPECT_EQ(s.files.count("/sys/devices/system/cpu/possible"), 0u);
}

// An AMD APU as hand-written snapshots have it: the card's class entry through the
// bus folder, KFD node properties, amdgpu bound.
Snapshot amd_apu(const std::string& kernel) {
  Snapshot s;
  s.facts.os = "linux";
  s.facts.cpus = 4;
  s.facts.kernel = kernel;
  const std::string bus = "/sys/bus/pci/devices/0000:c5:00.0/";
  s.files[bus + "vendor"] = FileEntry::of_content("0x1002\n");
  s.files[bus + "device"] = FileEntry::of_content("0x1586\n");
  s.files[bus + "class"] = FileEntry::of_content("0x038000\n");
  s.files[bus + "subsystem_vendor"] = FileEntry::of_content("0xf111\n");
  s.files[bus + "subsystem_device"] = FileEntry::of_content("0x000a\n");
  s.files[bus + "mem_info_vram_total"] = FileEntry::of_content("4294967296\n");
  s.files[bus + "driver"] = FileEntry::of_link("../../../../bus/pci/drivers/amdgpu");
  s.files["/sys/class/drm/card1/device"] =
      FileEntry::of_link("../../../bus/pci/devices/0000:c5:00.0");
  const std::string nodes = "/sys/class/kfd/kfd/topology/nodes/";
  s.files[nodes + "0/properties"] = FileEntry::of_content(
      "cpu_cores_count 4\nsimd_count 0\nio_links_count 1\np2p_links_count 0\n");
  s.files[nodes + "1/properties"] = FileEntry::of_content(
      "cpu_cores_count 0\nsimd_count 80\nio_links_count 1\np2p_links_count 0\n"
      "gfx_target_version 110501\nlocation_id 50432\ndomain 0\nhive_id 0\nnum_xcc 1\n");
  return s;
}

TEST(KernelFill, KfdNodesGetTheirIdsLinksAndTheModulesState) {
  Snapshot s = amd_apu("6.14.0-15-generic");
  FilledPaths filled = fill_implied(s);
  const std::string nodes = "/sys/class/kfd/kfd/topology/nodes/";
  EXPECT_EQ(s.files.at("/sys/module/amdgpu/initstate").bytes, "live\n");
  EXPECT_EQ(s.files.at(nodes + "0/gpu_id").bytes, "0\n");
  EXPECT_EQ(s.files.at(nodes + "0/name").bytes, "\n");
  EXPECT_EQ(s.files.at(nodes + "1/name").bytes, "ip discovery\n");
  // kernel 6.14: crc16 of the eight words, as kfd_generate_gpu_id() computes it.
  KfdGpuIdInputs in;
  in.devfn = 0, in.subsystem = 0x000a << 16 | 0xf111, in.domain = 0, in.device = 0x1586;
  in.bus = 0xc5, in.local_mem = 4294967296ull, in.xcc = 1 << 16, in.with_xcc = in.crc = true;
  EXPECT_EQ(s.files.at(nodes + "1/gpu_id").bytes, std::to_string(kfd_gpu_id_hash(in)) + "\n");
  EXPECT_NE(filled.at(nodes + "1/gpu_id").find("crc16"), std::string::npos);
  EXPECT_EQ(s.files.at(nodes + "1/io_links/0/properties")
                .bytes.rfind("type 2\nversion_major 0\nversion_minor 0\nnode_from 1\nnode_to 0\n"
                             "weight 20\n",
                             0),
            0u);
  EXPECT_NE(s.files.at(nodes + "0/io_links/0/properties").bytes.find("node_from 0\nnode_to 1\n"),
            std::string::npos);
  EXPECT_EQ(s.files.at(nodes + "1/p2p_links").kind, FileEntry::Kind::dir);
  // Before 6.10: the XOR of hash_32 over the words.
  Snapshot old = amd_apu("6.8.0-49-generic");
  fill_implied(old);
  in.crc = false;
  EXPECT_EQ(old.files.at(nodes + "1/gpu_id").bytes, std::to_string(kfd_gpu_id_hash(in)) + "\n");
  // The card's class entry is the kernel's link into its device's folder, and
  // `device` leads back from there, as rocm-smi reads a bus id through it.
  const std::string place = s.files.at("/sys/bus/pci/devices/0000:c5:00.0").target.substr(9);
  EXPECT_EQ(s.files.at("/sys/class/drm/card1").target, "../../" + place + "/drm/card1");
  EXPECT_EQ(s.files.at("/sys/" + place + "/drm/card1/device").target, "../../../0000:c5:00.0");
}

TEST(KernelFill, KfdLinksThatContradictTheRecordedCountAreLeftOut) {
  Snapshot s = amd_apu("6.14.0-15-generic");
  const std::string nodes = "/sys/class/kfd/kfd/topology/nodes/";
  s.files[nodes + "1/properties"].bytes += "io_links_count 3\n";  // the later line wins
  s.files[nodes + "1/gpu_id"] = FileEntry::of_content("4242\n");
  fill_implied(s);
  EXPECT_EQ(s.files.count(nodes + "1/io_links/0/properties"), 0u);
  EXPECT_EQ(s.files.at(nodes + "1/gpu_id").bytes, "4242\n") << "recorded: kept";
  // No amdgpu bound: no module state to present.
  Snapshot unbound = amd_apu("6.14.0-15-generic");
  unbound.files.erase("/sys/bus/pci/devices/0000:c5:00.0/driver");
  fill_implied(unbound);
  EXPECT_EQ(unbound.files.count("/sys/module/amdgpu/initstate"), 0u);
}

TEST(DevNodes, DriversNumbers) {
  EXPECT_EQ(device_number("/dev/nvidia3")->minor, 3u);
  EXPECT_EQ(device_number("/dev/nvidia3")->major, 195u);
  EXPECT_EQ(device_number("/dev/nvidiactl")->minor, 255u);
  EXPECT_EQ(device_number("/dev/dri/renderD129")->minor, 129u);
  EXPECT_EQ(device_number("/dev/accel/accel0")->major, 261u);
  EXPECT_TRUE(device_number("/dev/nvidia-uvm")->dynamic);
  EXPECT_FALSE(device_number("/dev/nvidia-x"));
  EXPECT_FALSE(device_number("/dev/nvidia12345678"));
}

}  // namespace
}  // namespace hwaccel::sim
