// rocm-smi's emulator against the host's AMD devices, on every fixture that has one.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "sim/emulate/rocm_smi.h"
#include "tests/unit/sim/emulate/emulated_hosts.h"

namespace hwaccel::sim {
namespace {

using testing::ask;
using testing::count;

std::vector<const Entry*> ready_amd(const Detection& d) {
  std::vector<const Entry*> out;
  for (const auto& e : d.entries)
    if (e.backend == "rocm" && !e.partition && e.status == EntryStatus::ready) out.push_back(&e);
  return out;
}

// A monitoring script's question: names, VRAM and bus of every card, as JSON.
TEST(RocmSmiEmulator, JsonCardsAreTheHostsAmdGpusOnEveryFixture) {
  auto hosts = testing::hosts_with("rocm");
  ASSERT_GE(hosts.size(), 2u);
  for (const auto& c : hosts) {
    auto gpus = ready_amd(c->detection);
    if (gpus.empty()) continue;
    auto answer =
        ask(*c, {"rocm-smi", "--showproductname", "--showmeminfo", "vram", "--showbus", "--json"});
    ASSERT_EQ(answer.exit_code, 0) << c->name << answer.err;
    auto doc = nlohmann::json::parse(answer.out);
    ASSERT_EQ(doc.size(), gpus.size()) << c->name << "\n" << answer.out;
    for (std::size_t i = 0; i < gpus.size(); ++i) {
      const auto& card = doc.at("card" + std::to_string(i));
      EXPECT_EQ(card.at("Card series"), gpus[i]->name) << c->name;
      EXPECT_EQ(card.at("PCI Bus"), gpus[i]->pci_bus_id) << c->name;
      EXPECT_EQ(card.at("GFX Version"), gpus[i]->compute_class) << c->name;
      // A discrete GPU's detected memory is its VRAM; an APU's is system
      // memory (GTT), and its VRAM is amdgpu's carve-out counter.
      const bool apu = gpus[i]->memory.kind == MemoryKind::unified;
      const auto sysfs_vram = c->snapshot.files.find("/sys/bus/pci/devices/" +
                                                     gpus[i]->pci_bus_id + "/mem_info_vram_total");
      if (apu && sysfs_vram != c->snapshot.files.end()) {
        EXPECT_EQ(card.at("VRAM Total Memory (B)").get<std::string>() + "\n",
                  sysfs_vram->second.bytes)
            << c->name;
      } else if (!apu && gpus[i]->memory.total_bytes) {
        EXPECT_EQ(card.at("VRAM Total Memory (B)"), std::to_string(*gpus[i]->memory.total_bytes))
            << c->name;
      }
    }
  }
}

// On an APU, rocm-smi's VRAM is the firmware's carve-out and GTT the system
// memory the GPU may map, each read from amdgpu's own counters: a Strix Halo
// with 4 GiB carved out shows 4 GiB of VRAM, not its 96 GiB of GTT.
TEST(RocmSmiEmulator, AnApusVramIsTheCarveOutAndGttIsItsOwnCounter) {
  struct Case {
    const char* host;
    const char* vram_total;
    const char* vram_used;
    const char* gtt_total;
  };
  for (const Case& k : {Case{"strix-halo", "4294967296", "181092352", "103079215104"},
                        Case{"ryzen-ai-laptop", "536870912", "132452352", "16383512576"}}) {
    auto c = testing::load_host(k.host);
    ASSERT_TRUE(c) << k.host;
    auto doc = nlohmann::json::parse(
        ask(*c, {"rocm-smi", "--showmeminfo", "vram", "gtt", "vis_vram", "--json"}).out);
    const auto& card = doc.at("card0");
    EXPECT_EQ(card.at("VRAM Total Memory (B)"), k.vram_total) << k.host;
    EXPECT_EQ(card.at("VRAM Total Used Memory (B)"), k.vram_used) << k.host;
    EXPECT_EQ(card.at("GTT Total Memory (B)"), k.gtt_total) << k.host;
    EXPECT_EQ(card.at("GTT Total Used Memory (B)"), "N/A") << k.host << ": not recorded";
    EXPECT_EQ(card.at("VIS_VRAM Total Memory (B)"), "N/A") << k.host << ": not recorded";
  }
  auto c = testing::load_host("strix-halo");
  ASSERT_TRUE(c);
  auto table = ask(*c, {"rocm-smi"});
  EXPECT_NE(table.out.find("4%"), std::string::npos)
      << "VRAM% is 181092352 of 4294967296 bytes\n" << table.out;
}

TEST(RocmSmiEmulator, TextSectionsAndTheConciseTable) {
  auto c = testing::load_host("mi300x-8");
  ASSERT_TRUE(c);
  auto bus = ask(*c, {"rocm-smi", "--showbus"});
  EXPECT_NE(bus.out.find("GPU[0]\t\t: PCI Bus: 0000:05:00.0\n"), std::string::npos) << bus.out;
  EXPECT_NE(bus.out.find("End of ROCm SMI Log"), std::string::npos);
  auto mem = ask(*c, {"rocm-smi", "-d", "3", "--showmeminfo", "vram"});
  EXPECT_NE(mem.out.find("GPU[3]\t\t: VRAM Total Memory (B): 205822885888\n"), std::string::npos)
      << mem.out;
  EXPECT_EQ(count(mem.out, "GPU["), 2u) << "one device asked, two lines";
  auto table = ask(*c, {"rocm-smi"});
  EXPECT_EQ(count(table.out, "[0x74a1 : 0x00]"), 8u) << table.out;
  EXPECT_NE(table.out.find("NPS1, SPX"), std::string::npos);
  auto driver = ask(*c, {"rocm-smi", "--showdriverversion", "--json"});
  EXPECT_EQ(nlohmann::json::parse(driver.out).at("system").at("Driver version"),
            "5.15.0-119-generic");
}

TEST(RocmSmiEmulator, WithoutAmdgpuAndForUnknownOptionsAnswersAsTheToolDoes) {
  auto c = testing::load_host("amd-no-driver");
  ASSERT_TRUE(c);
  auto answer = ask(*c, {"rocm-smi", "--showproductname"});
  EXPECT_EQ(answer.err, "ERROR:root:Driver not initialized (amdgpu not found in modules)\n");
  EXPECT_EQ(answer.out, "");
  auto bad = ask(*c, {"rocm-smi", "--showeverything"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("rocm-smi: error: unrecognized arguments: --showeverything"),
            std::string::npos);
  auto choice = ask(*c, {"rocm-smi", "--showmeminfo", "hbm"});
  EXPECT_EQ(choice.exit_code, 2);
}

}  // namespace
}  // namespace hwaccel::sim
