#include "src/system/block_devices.h"

#include <gtest/gtest.h>

#include "src/host/snapshot_host.h"

namespace hwaccel {
namespace {

BlockKind kind_of(const std::string& name, const std::string& link = "",
                  std::optional<bool> rotational = std::nullopt, const std::string& model = "",
                  const std::string& transport = "") {
  BlockFacts f;
  f.name = name;
  f.link_target = link;
  f.rotational = rotational;
  f.model = model;
  f.nvme_transport = transport;
  return classify_block_device(f);
}

TEST(BlockDevices, Sizes) {
  EXPECT_EQ(parse_block_size_bytes("7501476528\n"), 7501476528ull * 512);
  EXPECT_EQ(parse_block_size_bytes("0\n"), 0u);
  EXPECT_EQ(parse_block_size_bytes("-1"), std::nullopt);
  EXPECT_EQ(parse_block_size_bytes("99999999999999999999"), std::nullopt);
  EXPECT_EQ(parse_block_size_bytes("36028797018963968"), std::nullopt);  // x512 overflows
  EXPECT_EQ(parse_rotational("0\n"), false);
  EXPECT_EQ(parse_rotational("1\n"), true);
  EXPECT_EQ(parse_rotational("2\n"), std::nullopt);
}

TEST(BlockDevices, Kinds) {
  EXPECT_EQ(kind_of("nvme0n1", "", false, "SAMSUNG MZQL23T8HCLS-00A07", "pcie").kind, "nvme");
  EXPECT_EQ(kind_of("nvme0n1", "", false, "Amazon Elastic Block Store", "pcie").kind, "network");
  EXPECT_EQ(kind_of("nvme1n1", "", false, "Amazon EC2 NVMe Instance Storage", "pcie").kind, "nvme");
  EXPECT_EQ(kind_of("nvme0n1", "", false, "nvme_card-pd", "pcie").kind, "network");
  EXPECT_EQ(kind_of("nvme2n1", "", false, "Linux", "tcp").kind, "network");
  EXPECT_EQ(kind_of("nvme2n1", "../devices/virtual/nvme-fabrics/ctl/nvme2/nvme2n1").kind,
            "network");
  EXPECT_EQ(
      kind_of("sda", "../devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block/sda",
              false)
          .kind,
      "ssd");
  EXPECT_EQ(
      kind_of("sdb", "../devices/pci0000:00/0000:00:17.0/ata2/host1/target1:0:0/1:0:0:0/block/sdb",
              true)
          .kind,
      "hdd");
  EXPECT_EQ(
      kind_of("sdc", "../devices/platform/host6/session1/target6:0:0/6:0:0:0/block/sdc", true).kind,
      "network");
  EXPECT_EQ(
      kind_of("sda",
              "../devices/pci0000:00/0000:00:03.0/virtio0/host0/target0:0:1/0:0:1:0/block/sda",
              true)
          .kind,
      "paravirtual");
  EXPECT_EQ(kind_of("sda",
                    "../devices/LNXSYSTM:00/LNXSYBUS:00/ACPI0004:00/VMBUS:00/"
                    "f8b3781a-1e82-4818-a1c3-63d806ec15bb/host0/target0:0:0/0:0:0:0/block/sda",
                    true)
                .kind,
            "paravirtual");
  EXPECT_EQ(
      kind_of(
          "sdd",
          "../devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host7/target7:0:0/7:0:0:0/block/sdd",
          false)
          .kind,
      "other");
  EXPECT_EQ(kind_of("vda").kind, "paravirtual");
  EXPECT_EQ(kind_of("xvda").kind, "paravirtual");
  EXPECT_EQ(kind_of("loop3").kind, "virtual");
  EXPECT_EQ(kind_of("zram0").kind, "virtual");
  EXPECT_EQ(kind_of("dm-0").kind, "virtual");
  EXPECT_EQ(kind_of("md127").kind, "virtual");
  EXPECT_EQ(kind_of("nbd0").kind, "network");
  EXPECT_EQ(kind_of("rbd0").kind, "network");
  EXPECT_EQ(kind_of("sr0").kind, "other");
  EXPECT_EQ(kind_of("mmcblk0").kind, "other");
  EXPECT_EQ(kind_of("sde").kind, "other");  // rotational unknown
}

TEST(BlockDevices, ScanSkipsEmptyAndWarnsOnGarbage) {
  Snapshot s;
  auto put = [&](const std::string& p, const std::string& v) {
    s.files[p] = FileEntry::of_content(v);
  };
  // Attributes live under the link's target (as a recording keeps them).
  s.files["/sys/block/nvme0n1"] =
      FileEntry::of_link("../devices/pci0000:00/0000:00:01.1/0000:01:00.0/nvme/nvme0/nvme0n1");
  const std::string n = "/sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0/nvme/nvme0/nvme0n1";
  put(n + "/size", "7501476528\n");
  put(n + "/queue/rotational", "0\n");
  put(n + "/device/model", "SAMSUNG MZQL23T8HCLS-00A07               \n");
  put(n + "/device/transport", "pcie\n");
  put(n + "/device/address", "0000:01:00.0\n");
  put("/sys/bus/pci/devices/0000:01:00.0/current_link_speed", "16.0 GT/s PCIe\n");
  put("/sys/bus/pci/devices/0000:01:00.0/current_link_width", "4\n");
  put("/sys/block/loop0/size", "0\n");
  put("/sys/block/sda/size", "lots\n");
  SnapshotHost host(s);
  std::vector<Warning> w;
  auto devices = scan_block_devices(host, w);
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_EQ(devices[0].name, "nvme0n1");
  EXPECT_EQ(devices[0].kind, "nvme");
  EXPECT_EQ(devices[0].model, "SAMSUNG MZQL23T8HCLS-00A07");
  EXPECT_EQ(devices[0].size_bytes, 7501476528ull * 512);
  EXPECT_EQ(devices[0].pci_bus_id, "0000:01:00.0");
  ASSERT_TRUE(devices[0].pcie);
  EXPECT_EQ(devices[0].pcie->current.gbytes_per_s, 7.88);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].message.find("/sys/block/sda/size: unexpected \"lots\""), std::string::npos);
}

}  // namespace
}  // namespace hwaccel

namespace hwaccel {
namespace {

TEST(NaturalOrder, CountsLikePeople) {
  EXPECT_TRUE(natural_less("rdmap79s0", "rdmap113s0"));
  EXPECT_FALSE(natural_less("rdmap113s0", "rdmap79s0"));
  EXPECT_TRUE(natural_less("nvme2n1", "nvme10n1"));
  EXPECT_TRUE(natural_less("mlx5_9", "mlx5_10"));
  EXPECT_TRUE(natural_less("md0", "nvme0n1"));
  EXPECT_FALSE(natural_less("sda", "sda"));
  EXPECT_TRUE(natural_less("sda", "sdaa"));
}

}  // namespace
}  // namespace hwaccel
