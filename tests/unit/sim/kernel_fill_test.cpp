#include "sim/kernel_fill.h"

#include <gtest/gtest.h>

#include "sim/dev_nodes.h"
#include "sim/kernel_fill_parts.h"

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
  EXPECT_EQ(s.files.at("/sys/bus/pci/devices/0000:1b:00.0").target,
            "../../../devices/pci0000:1b/0000:1b:00.0");
  const std::string dev = "/sys/devices/pci0000:1b/0000:1b:00.0/";
  EXPECT_EQ(s.files.at(dev + "driver").target, "../../../bus/pci/drivers/nvidia");
  EXPECT_EQ(s.files.at("/sys/bus/pci/drivers/nvidia/0000:1b:00.0").target,
            "../../../../devices/pci0000:1b/0000:1b:00.0");
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
