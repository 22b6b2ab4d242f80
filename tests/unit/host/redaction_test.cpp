#include "src/host/redaction.h"

#include <gtest/gtest.h>

namespace hwaccel {
namespace {

TEST(Redaction, ReplacesIdentifiersWithStablePseudonyms) {
  Snapshot s;
  s.facts.hostname = "dgx-node-042";
  s.host.label = "dgx-node-042";
  s.files["/proc/sys/kernel/hostname"] = FileEntry::of_content("dgx-node-042\n");
  s.files["/sys/class/dmi/id/product_serial"] = FileEntry::of_content("1653922001234\n");
  s.files["/sys/class/net/eth0/address"] = FileEntry::of_content("a0:36:9f:12:34:56\n");
  s.files["/sys/class/dmi/id/product_name"] = FileEntry::of_content("DGXH100\n");
  ToolEntry smi;
  smi.argv = {"nvidia-smi", "-L"};
  smi.run.out =
      "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-8f6e3c2a-1b4d-4e5f-9a7b-0c1d2e3f4a5b)\n"
      "GPU 1: NVIDIA H100 80GB HBM3 (UUID: GPU-11111111-2222-3333-4444-555555555555)\n"
      "again GPU-8f6e3c2a-1b4d-4e5f-9a7b-0c1d2e3f4a5b on dgx-node-042; dgx-node-0425 stays\n"
      "    Serial Number                         : 1654922006789\n";
  s.tools[smi.argv] = smi;

  redact(s);
  EXPECT_TRUE(s.host.redacted);
  EXPECT_EQ(s.facts.hostname, "host-1");
  EXPECT_EQ(s.host.label, "host-1");
  EXPECT_EQ(s.files.at("/proc/sys/kernel/hostname").bytes, "host-1\n");
  // Digits stay digits (a parser that expects a number still gets one).
  EXPECT_EQ(s.files.at("/sys/class/dmi/id/product_serial").bytes, "0000000000001\n");
  EXPECT_EQ(s.files.at("/sys/class/net/eth0/address").bytes, "02:00:00:00:00:01\n");
  EXPECT_EQ(s.files.at("/sys/class/dmi/id/product_name").bytes, "DGXH100\n");
  const std::string& out = s.tools.at(smi.argv).run.out;
  EXPECT_EQ(out.find("8f6e3c2a"), std::string::npos);
  EXPECT_EQ(out.find("1654922006789"), std::string::npos);
  EXPECT_NE(out.find("GPU-00000000-0000-4000-8000-000000000001)"), std::string::npos) << out;
  EXPECT_NE(out.find("GPU-00000000-0000-4000-8000-000000000002)"), std::string::npos) << out;
  EXPECT_NE(out.find("again GPU-00000000-0000-4000-8000-000000000001 on host-1;"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("dgx-node-0425 stays"), std::string::npos) << out;
}

// A short hostname ("vm", as on the Firecracker H200 host of
// fixtures/hosts/h200-firecracker.yaml) is not replaced inside text, where it
// would also hit ordinary words, but the label that `detect --record` copies
// from it is a whole value and must not keep it.
TEST(Redaction, ShortHostnameLeavesNeitherFactsNorLabel) {
  Snapshot s;
  s.facts.hostname = "vm";
  s.host.label = "vm";
  s.files["/proc/cpuinfo"] = FileEntry::of_content("flags\t\t: vme vmx\nvm bits\n");
  redact(s);
  EXPECT_EQ(s.facts.hostname, "host-1");
  EXPECT_EQ(s.host.label, "host-1");
  EXPECT_EQ(s.files.at("/proc/cpuinfo").bytes, "flags\t\t: vme vmx\nvm bits\n");

  // A label that is not the hostname stays free text, the hostname in it replaced.
  Snapshot t;
  t.facts.hostname = "dgx-node-042";
  t.host.label = "rack 3 dgx-node-042";
  redact(t);
  EXPECT_EQ(t.host.label, "rack 3 host-1");
}

TEST(Redaction, InfinibandIdsAndCloudAssetTags) {
  Snapshot s;
  s.files["/sys/class/infiniband/mlx5_0/node_guid"] =
      FileEntry::of_content("946d:ae03:00fb:6a3c\n");
  s.files["/sys/class/infiniband/mlx5_0/sys_image_guid"] =
      FileEntry::of_content("946d:ae03:00fb:6a3c\n");
  s.files["/sys/class/infiniband/mlx5_0/ports/1/gids/0"] =
      FileEntry::of_content("fe80:0000:0000:0000:946d:ae03:00fb:6a3c\n");
  s.files["/sys/class/infiniband/efa_0/node_guid"] = FileEntry::of_content("0000:0000:0000:0000\n");
  s.files["/sys/class/infiniband/mlx5_0/ports/1/rate"] =
      FileEntry::of_content("400 Gb/sec (4X NDR)\n");
  s.files["/sys/class/net/ibp24s0/address"] =
      FileEntry::of_content("00:00:10:29:fe:80:00:00:00:00:00:00:94:6d:ae:03:00:fb:6a:3c\n");
  s.files["/sys/class/dmi/id/chassis_asset_tag"] =
      FileEntry::of_content("7783-7084-3265-9085-8269-3286-77\n");
  s.files["/sys/class/dmi/id/board_asset_tag"] = FileEntry::of_content("ACME-0042\n");

  redact(s);
  // One GUID, one pseudonym, wherever it appears; the link-local prefix and zeros stay.
  EXPECT_EQ(s.files.at("/sys/class/infiniband/mlx5_0/node_guid").bytes, "0200:0000:0000:0001\n");
  EXPECT_EQ(s.files.at("/sys/class/infiniband/mlx5_0/sys_image_guid").bytes,
            "0200:0000:0000:0001\n");
  EXPECT_EQ(s.files.at("/sys/class/infiniband/mlx5_0/ports/1/gids/0").bytes,
            "fe80:0000:0000:0000:0200:0000:0000:0001\n");
  EXPECT_EQ(s.files.at("/sys/class/infiniband/efa_0/node_guid").bytes, "0000:0000:0000:0000\n");
  EXPECT_EQ(s.files.at("/sys/class/infiniband/mlx5_0/ports/1/rate").bytes, "400 Gb/sec (4X NDR)\n");
  // The whole 20-byte address, not just its first six bytes as a MAC.
  const std::string& ipoib = s.files.at("/sys/class/net/ibp24s0/address").bytes;
  EXPECT_EQ(ipoib.find("94:6d:ae"), std::string::npos) << ipoib;
  EXPECT_EQ(ipoib, "00:00:00:00:fe:80:00:00:00:00:00:00:02:00:00:00:00:00:00:01\n");
  // Azure's tag is the same on every Azure VM: kept, detection needs it.
  EXPECT_EQ(s.files.at("/sys/class/dmi/id/chassis_asset_tag").bytes,
            "7783-7084-3265-9085-8269-3286-77\n");
  EXPECT_EQ(s.files.at("/sys/class/dmi/id/board_asset_tag").bytes, "REDACTED-SERIAL-1\n");
}

TEST(Redaction, IsDeterministic) {
  auto make = [] {
    Snapshot s;
    s.facts.hostname = "alpha";
    s.files["/a"] = FileEntry::of_content("GPU-22222222-2222-2222-2222-222222222222\n");
    s.files["/b"] = FileEntry::of_content("GPU-11111111-1111-1111-1111-111111111111\n");
    return s;
  };
  Snapshot one = make(), two = make();
  redact(one);
  redact(two);
  EXPECT_TRUE(one == two);
  // Pseudonyms follow the sorted order of paths, not the order of discovery.
  EXPECT_EQ(one.files.at("/a").bytes, "GPU-00000000-0000-4000-8000-000000000001\n");
}

}  // namespace
}  // namespace hwaccel
