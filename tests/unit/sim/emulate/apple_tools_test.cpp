// system_profiler and sysctl on the Mac fixtures: argvs the snapshots never
// recorded, answered from their Apple facts in the shapes public outputs have
// (the Apple probe's own parser reads the JSON back), unknown names refused as
// macOS words it, and no answer on a host that is not a Mac.
#include <gtest/gtest.h>

#include "sim/emulate/apple_tools.h"
#include "src/probe/apple_system_profiler.h"
#include "tests/unit/sim/emulate/emulated_hosts.h"

namespace hwaccel::sim {
namespace {

ToolAnswer run_tool(const testing::HostCase& c, std::vector<std::string> argv) {
  auto emulator = find_tool_emulator(argv[0]);
  EXPECT_TRUE(emulator) << argv[0];
  return emulator(c.host(), argv);
}

TEST(AppleTools, SysctlAnswersNamesFromTheHostsFacts) {
  auto c = testing::load_host("mac-studio-m2-ultra");
  ASSERT_TRUE(c);
  auto a = run_tool(*c, {"sysctl", "hw.memsize"});
  EXPECT_EQ(a.out, "hw.memsize: 206158430208\n");
  EXPECT_EQ(a.exit_code, 0);
  a = run_tool(*c, {"sysctl", "-n", "hw.memsize", "hw.ncpu", "machdep.cpu.brand_string"});
  EXPECT_EQ(a.out, "206158430208\n24\nApple M2 Ultra\n");
  a = run_tool(*c, {"sysctl", "hw.ncpu", "hw.perflevel0.physicalcpu", "hw.perflevel1.physicalcpu"});
  EXPECT_EQ(a.out, "hw.ncpu: 24\nhw.perflevel0.physicalcpu: 16\nhw.perflevel1.physicalcpu: 8\n");
  // An unknown name: macOS's words on stderr, the others still answered, status 1.
  a = run_tool(*c, {"sysctl", "-n", "hw.perflevel0.count", "hw.pagesize"});
  EXPECT_EQ(a.err, "sysctl: unknown oid 'hw.perflevel0.count'\n");
  EXPECT_EQ(a.out, "16384\n");
  EXPECT_EQ(a.exit_code, 1);
}

TEST(AppleTools, SystemProfilerHardwareTextAndJson) {
  auto c = testing::load_host("macbook-pro-m3-max");
  ASSERT_TRUE(c);
  auto text = run_tool(*c, {"system_profiler", "SPHardwareDataType"}).out;
  EXPECT_NE(text.find("Hardware:\n\n    Hardware Overview:\n\n"), std::string::npos);
  EXPECT_NE(text.find("      Chip: Apple M3 Max\n"), std::string::npos);
  EXPECT_NE(text.find("      Total Number of Cores: 16 (12 performance and 4 efficiency)\n"),
            std::string::npos);
  EXPECT_NE(text.find("      Memory: 128 GB\n"), std::string::npos);
  // The JSON as public outputs lay it out (key order, " : ", 2-space levels); Darwin
  // 23: three fields in number_processors. The conformance matrix parses it too.
  EXPECT_EQ(run_tool(*c, {"system_profiler", "SPHardwareDataType", "-json"}).out,
            "{\n  \"SPHardwareDataType\" : [\n    {\n"
            "      \"_name\" : \"hardware_overview\",\n"
            "      \"chip_type\" : \"Apple M3 Max\",\n"
            "      \"number_processors\" : \"proc 16:12:4\",\n"
            "      \"physical_memory\" : \"128 GB\"\n"
            "    }\n  ]\n}\n");
}

TEST(AppleTools, SystemProfilerDisplaysBothFormsAndBothTypesAtOnce) {
  auto c = testing::load_host("mac-studio-m2-ultra");
  ASSERT_TRUE(c);
  auto text = run_tool(*c, {"system_profiler", "SPDisplaysDataType"}).out;
  EXPECT_EQ(text.rfind("Graphics/Displays:\n\n    Apple M2 Ultra:\n\n", 0), 0u);
  EXPECT_NE(text.find("      Total Number of Cores: 76\n"), std::string::npos);
  EXPECT_NE(text.find("      Metal Support: Metal 3\n"), std::string::npos);
  // Both types in one object; the Apple probe's own reader takes the displays back.
  auto both =
      run_tool(*c, {"system_profiler", "-json", "SPDisplaysDataType", "SPHardwareDataType"}).out;
  MacDisplays read = parse_sp_displays_json(both);
  EXPECT_TRUE(read.valid_json);
  ASSERT_EQ(read.gpus.size(), 1u);
  EXPECT_EQ(read.gpus[0].model, "Apple M2 Ultra");
  EXPECT_EQ(read.gpus[0].cores, 76);
  EXPECT_EQ(read.gpus[0].metal, "Metal 3");
  EXPECT_TRUE(read.gpus[0].builtin);
  EXPECT_NE(both.find("\"physical_memory\" : \"192 GB\""), std::string::npos);
}

TEST(AppleTools, GarbageRecordedValuesAreBoundedNeverACrash) {
  Snapshot s;
  s.facts.os = "darwin";
  s.facts.cpus = -5;
  s.facts.kernel = "\xff";
  for (const char* name : {"hw.memsize", "machdep.cpu.brand_string"}) {
    ToolEntry t;
    t.argv = {"sysctl", "-n", name};
    t.run.out = std::string(100000, '9') + "\n";
    s.tools[t.argv] = t;
  }
  Detection d;
  Entry gpu;
  gpu.backend = "apple";
  gpu.name = "x (99999999999-core GPU)";
  gpu.compute_class = "metal3";
  d.entries.push_back(gpu);
  auto c = testing::detected("garbage", s);
  c->detection = d;
  auto a = run_tool(*c, {"sysctl", "-n", "hw.memsize", "machdep.cpu.brand_string", "hw.ncpu"});
  // Recorded values are cut at 4096 bytes each; cpus < 0 is no hw.ncpu.
  EXPECT_EQ(a.exit_code, 1);
  EXPECT_LE(a.out.size(), 2 * 4097u);
  EXPECT_NO_THROW(run_tool(*c, {"system_profiler", "-json", "SPHardwareDataType"}));
  EXPECT_NO_THROW(run_tool(*c, {"system_profiler", "SPDisplaysDataType"}));
}

TEST(AppleTools, NotAMacHasNoAnswer) {
  auto c = testing::load_host("dgx-h100");
  ASSERT_TRUE(c);
  EXPECT_EQ(run_tool(*c, {"sysctl", "-n", "hw.memsize"}).exit_code, 127);
  EXPECT_EQ(run_tool(*c, {"system_profiler", "SPHardwareDataType"}).exit_code, 127);
}

}  // namespace
}  // namespace hwaccel::sim
