// amd-smi's emulator: `list` and `static`, human and JSON, against the host's GPUs.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "sim/emulate/amd_gpus.h"
#include "tests/unit/sim/emulate/emulated_hosts.h"

namespace hwaccel::sim {
namespace {

using testing::ask;
using testing::count;

TEST(AmdSmiEmulator, ListAndStaticJsonAreTheHostsGpus) {
  auto c = testing::load_host("mi300x-8");
  ASSERT_TRUE(c);
  auto list = nlohmann::json::parse(ask(*c, {"amd-smi", "list", "--json"}).out);
  ASSERT_EQ(list.size(), 8u);
  EXPECT_EQ(list[0].at("bdf"), "0000:05:00.0");
  EXPECT_EQ(list[7].at("bdf"), "0000:e5:00.0");
  EXPECT_EQ(list[0].at("node_id"), 2) << "the GPU's KFD node";
  auto stat = nlohmann::json::parse(ask(*c, {"amd-smi", "static", "--json", "-g", "1"}).out);
  ASSERT_EQ(stat.size(), 1u);
  EXPECT_EQ(stat[0].at("gpu"), 1);
  EXPECT_EQ(stat[0].at("asic").at("market_name"), "AMD Instinct MI300X");
  EXPECT_EQ(stat[0].at("asic").at("device_id"), "0x74a1");
  EXPECT_EQ(stat[0].at("vram").at("size").at("value"), 205822885888ull / (1024 * 1024));
  EXPECT_EQ(stat[0].at("vram").at("size").at("unit"), "MB");
}

TEST(AmdSmiEmulator, HumanListHasABlockPerGpu) {
  auto c = testing::load_host("strix-halo");
  ASSERT_TRUE(c);
  auto list = ask(*c, {"amd-smi", "list"});
  EXPECT_EQ(list.out.substr(0, 32), "GPU: 0\n    BDF: 0000:c5:00.0\n   ") << list.out;
  EXPECT_EQ(count(list.out, "GPU: "), 1u);
  auto stat = ask(*c, {"amd-smi", "static", "--asic"});
  EXPECT_NE(stat.out.find("    ASIC:\n        MARKET_NAME: "), std::string::npos) << stat.out;
  EXPECT_EQ(stat.out.find("VRAM:"), std::string::npos) << "only --asic asked";
}

// An APU's VRAM is amdgpu's carve-out (4 GiB on this Strix Halo), its GTT the
// 96 GiB of system memory it may map: amd-smi keeps them apart.
TEST(AmdSmiEmulator, AnApusVramAndGttAreAmdgpusOwnCounters) {
  auto c = testing::load_host("strix-halo");
  ASSERT_TRUE(c);
  auto stat = nlohmann::json::parse(ask(*c, {"amd-smi", "static", "--vram", "--json"}).out);
  EXPECT_EQ(stat[0].at("vram").at("size").at("value"), 4096);
  auto metric = ask(*c, {"amd-smi", "metric", "--mem-usage", "--json"});
  ASSERT_EQ(metric.exit_code, 0) << metric.err;
  const auto mem = nlohmann::json::parse(metric.out)[0].at("mem_usage");
  EXPECT_EQ(mem.at("total_vram").at("value"), 4096);
  EXPECT_EQ(mem.at("used_vram").at("value"), 181092352 / (1024 * 1024));
  EXPECT_EQ(mem.at("free_vram").at("value"), (4294967296 - 181092352) / (1024 * 1024));
  EXPECT_EQ(mem.at("total_gtt").at("value"), 98304);
  EXPECT_EQ(mem.at("used_gtt"), "N/A") << "not recorded";
  EXPECT_EQ(mem.at("free_gtt"), "N/A") << "derived from what was not recorded";
  auto human = ask(*c, {"amd-smi", "metric", "-m"});
  EXPECT_NE(human.out.find("    MEM_USAGE:\n        TOTAL_VRAM: 4096 MB\n"), std::string::npos)
      << human.out;
  auto other = ask(*c, {"amd-smi", "metric", "--power"});
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_NE(other.err.find("not emulated"), std::string::npos) << other.err;
}

TEST(AmdSmiEmulator, UuidIsBuiltFromTheSerialAsAmdSmiDoes) {
  emulate::AmdGpu gpu;
  gpu.device_id = 0x74a1;
  gpu.serial = "0xAF54E92B0A5D57C8";
  EXPECT_EQ(emulate::amd_smi_uuid(gpu), "afff74a1-0000-1000-8054-e92b0a5d57c8");
  gpu.serial = "";
  EXPECT_EQ(emulate::amd_smi_uuid(gpu), "N/A");
}

TEST(AmdSmiEmulator, FailsAsTheToolDoesWithoutTheDriverOrACommand) {
  auto c = testing::load_host("amd-no-driver");
  ASSERT_TRUE(c);
  auto answer = ask(*c, {"amd-smi", "list"});
  EXPECT_NE(answer.exit_code, 0);
  EXPECT_NE(answer.err.find("driver not initialized (amdgpu not found in modules)"),
            std::string::npos);
  auto bad = ask(*c, {"amd-smi", "lsit"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("invalid choice: 'lsit'"), std::string::npos);
}

}  // namespace
}  // namespace hwaccel::sim
