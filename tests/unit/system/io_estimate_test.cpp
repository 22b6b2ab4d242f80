#include "src/system/io_estimate.h"

#include <gtest/gtest.h>

#include "src/system/pcie_link.h"

namespace hwaccel {
namespace {

TEST(IoEstimate, DataSizes) {
  EXPECT_EQ(parse_data_size("100G"), 100000000000ull);
  EXPECT_EQ(parse_data_size("100GB"), 100000000000ull);
  EXPECT_EQ(parse_data_size("100g"), 100000000000ull);
  EXPECT_EQ(parse_data_size("1.5T"), 1500000000000ull);
  EXPECT_EQ(parse_data_size("1GiB"), 1073741824ull);
  EXPECT_EQ(parse_data_size("2Ti"), 2199023255552ull);
  EXPECT_EQ(parse_data_size("512"), 512u);
  EXPECT_EQ(parse_data_size("512B"), 512u);
  EXPECT_EQ(parse_data_size("10 M"), 10000000u);
  EXPECT_EQ(parse_data_size(""), std::nullopt);
  EXPECT_EQ(parse_data_size("0"), std::nullopt);
  EXPECT_EQ(parse_data_size("G"), std::nullopt);
  EXPECT_EQ(parse_data_size("100X"), std::nullopt);
  EXPECT_EQ(parse_data_size("100GiBs"), std::nullopt);
  EXPECT_EQ(parse_data_size("-5G"), std::nullopt);
  EXPECT_EQ(parse_data_size("99999999999P"), std::nullopt);
}

BlockDevice device(const std::string& name, const std::string& kind, std::uint64_t size) {
  BlockDevice d;
  d.name = name;
  d.kind = kind;
  d.size_bytes = size;
  return d;
}

TEST(IoEstimate, RatesPerKindAndThePcieLink) {
  BlockDevice gen4 = device("nvme0n1", "nvme", 3840000000000);
  gen4.pcie = PcieLink{pcie_link_state("16.0 GT/s PCIe", "4"), {}, ""};
  EXPECT_EQ(assumed_rate(gen4)->gbytes_per_s, 7.0);  // 0.9 x 7.88 = 7.09, capped at 7.0
  BlockDevice gen3 = device("nvme1n1", "nvme", 1000000000000);
  gen3.pcie = PcieLink{pcie_link_state("8.0 GT/s PCIe", "2"), {}, ""};
  EXPECT_EQ(assumed_rate(gen3)->gbytes_per_s, 1.77);  // 0.9 x 1.97 (a x2 link)
  EXPECT_EQ(assumed_rate(device("nvme2n1", "nvme", 1))->gbytes_per_s, 3.5);
  EXPECT_EQ(assumed_rate(device("sda", "ssd", 1))->gbytes_per_s, 0.55);
  EXPECT_EQ(assumed_rate(device("sdb", "hdd", 1))->gbytes_per_s, 0.2);
  EXPECT_EQ(assumed_rate(device("vda", "paravirtual", 1))->gbytes_per_s, 0.2);
  EXPECT_FALSE(assumed_rate(device("loop0", "virtual", 1)));
  EXPECT_FALSE(assumed_rate(device("sr0", "other", 1)));
}

TEST(IoEstimate, BestDeviceThatFitsAndStriping) {
  std::vector<BlockDevice> storage = {
      device("nvme0n1", "network", 200000000000), device("nvme1n1", "nvme", 3840000000000),
      device("nvme2n1", "nvme", 3840000000000), device("loop0", "virtual", 100000000),
      device("sda", "hdd", 50000000000)};
  auto e = estimate_ingest(storage, 100000000000);
  ASSERT_EQ(e.devices.size(), 4u);
  EXPECT_EQ(e.devices[0].device, "nvme1n1");
  ASSERT_TRUE(e.best);
  EXPECT_EQ(e.devices[*e.best].device, "nvme1n1");
  EXPECT_NEAR(e.devices[*e.best].seconds, 100.0 / 3.5, 1e-6);
  EXPECT_EQ(e.striped_count, 2u);
  EXPECT_EQ(e.striped_gbytes_per_s, 7.0);
  EXPECT_FALSE(e.devices[3].fits);  // the 50 GB disk
  EXPECT_TRUE(e.notes.empty());
}

TEST(IoEstimate, NothingToEstimateFrom) {
  auto none = estimate_ingest({}, 1000);
  EXPECT_FALSE(none.best);
  ASSERT_EQ(none.notes.size(), 1u);
  auto virt = estimate_ingest({device("loop0", "virtual", 5000)}, 1000);
  EXPECT_FALSE(virt.best);
  EXPECT_NE(virt.notes[0].find("only virtual"), std::string::npos);
  auto small = estimate_ingest({device("sda", "ssd", 500)}, 1000);
  EXPECT_FALSE(small.best);
  EXPECT_NE(small.notes[0].find("no single device"), std::string::npos);
}

}  // namespace
}  // namespace hwaccel
