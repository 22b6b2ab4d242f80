// End-to-end tests of `hwaccel io`: the ingestion estimate on fixture hosts.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

using nlohmann::json;

std::string on(const std::string& fixture) {
  return " --host " + source_path("fixtures/hosts/" + fixture + ".yaml");
}

TEST(IoCli, DgxReadsFromItsGen4Nvme) {
  auto r = run_command(bin("hwaccel") + " io --dataset 100G" + on("dgx-h100"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 100 GB at 7.0 GB/s (90% of a Gen4 x4 link is 7.09, capped at 7.0) = 14.3 s.
  EXPECT_NE(r.out.find("estimate: 14.3 s reading from nvme0n1 (nvme, 7.00 GB/s)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("striped: 1.4 s reading all 10 nvme devices in parallel (70.00 GB/s)"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("md1"), std::string::npos) << "RAID devices are virtual: " << r.out;
}

TEST(IoCli, JsonSaysWhatItAssumed) {
  auto r = run_command(bin("hwaccel") + " io --json --dataset 1TiB" + on("aws-p5-docker"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json doc = json::parse(r.out);
  EXPECT_EQ(doc["schema"], "hwaccel-io/1");
  EXPECT_EQ(doc["dataset_bytes"], 1099511627776ull);
  EXPECT_EQ(doc["best"], "nvme1n1");
  ASSERT_FALSE(doc["devices"].empty());
  EXPECT_EQ(doc["devices"][0]["gbytes_per_s"], 3.5);
  EXPECT_NE(doc["devices"][0]["assumption"].get<std::string>().find("link not known"),
            std::string::npos);
  EXPECT_EQ(doc["striped"]["devices"], 8);
  // The EBS root volume is counted at a cloud volume's rate, and is too small.
  bool saw_ebs = false;
  for (const auto& d : doc["devices"])
    if (d["device"] == "nvme0n1") {
      saw_ebs = true;
      EXPECT_EQ(d["kind"], "network");
      EXPECT_EQ(d["fits"], false);
    }
  EXPECT_TRUE(saw_ebs);
}

TEST(IoCli, ABadSizeIsAUsageError) {
  auto r = run_command(bin("hwaccel") + " io --dataset lots" + on("dgx-h100"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--dataset: \"lots\" is not a size"), std::string::npos) << r.err;
  EXPECT_EQ(run_command(bin("hwaccel") + " io" + on("dgx-h100")).exit_code, 2);
}

TEST(IoCli, AHostWithoutBlockDevicesSaysSo) {
  auto r = run_command(bin("hwaccel") + " io --dataset 100G" + on("gx10"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("estimate: none"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("note: no block devices seen"), std::string::npos) << r.out;
}

// detect -v: the system tables; the default report: only the environment line.
TEST(SystemCli, VerboseShowsPortsStorageAndLinks) {
  auto v = run_command(bin("hwaccel") + " detect -v" + on("dgx-h100"));
  ASSERT_EQ(v.exit_code, 0) << v.err;
  EXPECT_NE(v.out.find("mlx5_0/1   ACTIVE  InfiniBand  400 Gb/sec (4X NDR)  50.00  0000:18:00.0"),
            std::string::npos)
      << v.out;
  EXPECT_NE(v.out.find("md1      virtual  30.7 TB"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("Gen5 x16 (63.02 GB/s)"), std::string::npos) << v.out;
  auto plain = run_command(bin("hwaccel") + " detect" + on("dgx-h100"));
  EXPECT_NE(plain.out.find("environment: bare metal\n"), std::string::npos) << plain.out;
  EXPECT_EQ(plain.out.find("network ports"), std::string::npos) << plain.out;

  auto ws = run_command(bin("hwaccel") + " detect -v" + on("rtx4090-amd-igpu"));
  EXPECT_NE(ws.out.find("Gen1 x16 (4.00 GB/s; max Gen4 x16, 31.51 GB/s)"), std::string::npos)
      << ws.out;
}

}  // namespace
}  // namespace hwaccel::testing
