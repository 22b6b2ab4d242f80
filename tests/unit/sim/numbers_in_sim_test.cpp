// Counts and sizes in specs and faults (issue 18, item 15): out of range is a
// located refusal before anything is built or allocated.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "sim/fault.h"
#include "sim/mutate.h"
#include "sim/spec_reader.h"
#include "sim/synth.h"
#include "sim/synth_parts.h"
#include "src/host/snapshot_host.h"
#include "tests/support/test_support.h"

namespace hwaccel::sim {
namespace {

const std::string kHead =
    "schema: hwsim-spec/1\ncpu: {model: X, uarch: sapphire-rapids}\naccelerators:\n";

std::string error_of(const std::string& text) {
  HostSpec spec;
  auto e = parse_spec(text, "s.yaml", spec);
  return e ? e->to_string() : "";
}

// "h100-sxm x99999" read as 9999 devices (stoi of the first four digits).
TEST(SpecCounts, ScalarCountHasTheMapFormsRange) {
  EXPECT_EQ(error_of(kHead + "  - h100-sxm x99999\n"),
            "s.yaml:4:5: accelerators[0]: \"x99999\" is out of range (x1 to x64)");
  EXPECT_EQ(error_of(kHead + "  - h100-sxm x0\n"),
            "s.yaml:4:5: accelerators[0]: \"x0\" is out of range (x1 to x64)");
  EXPECT_EQ(error_of(kHead + "  - h100-sxm x65\n"),
            "s.yaml:4:5: accelerators[0]: \"x65\" is out of range (x1 to x64)");
  HostSpec spec;
  ASSERT_FALSE(parse_spec(kHead + "  - h100-sxm x64\n", "s.yaml", spec));
  EXPECT_EQ(spec.accelerators.at(0).count, 64);
}

TEST(SpecCounts, AHostHasAtMost128Devices) {
  EXPECT_EQ(error_of(kHead + "  - h100-sxm x64\n  - h100-sxm x64\n  - h100-sxm x1\n"),
            "s.yaml:6:5: accelerators[2]: 129 devices in all; a host has at most 128");
  HostSpec spec;
  EXPECT_FALSE(
      parse_spec(kHead + "  - h100-sxm x64\n  - {sku: h100-sxm, count: 64}\n", "s.yaml", spec));
}

// The bus allocator stepped past ff ("0000:108:00.0") when the spec's own
// buses sat in its way.
TEST(SpecCounts, EveryDeviceGetsARealPciAddress) {
  std::string buses;
  for (int b = 0xc0; b <= 0xff; ++b) {
    char text[8];
    std::snprintf(text, sizeof text, "%02x", b);
    buses += (buses.empty() ? "" : ", ") + std::string(text);
  }
  HostSpec spec;
  auto e =
      parse_spec(kHead + "  - h100-sxm x64\n  - {sku: h100-sxm, count: 64, bus: [" + buses + "]}\n",
                 "s.yaml", spec);
  ASSERT_FALSE(e) << e->to_string();
  detail::Plan plan = detail::make_plan(spec);
  std::set<std::string> seen;
  for (const auto& d : plan.nvidia) {
    EXPECT_EQ(d.address.size(), 12u) << d.address;
    seen.insert(d.address);
  }
  EXPECT_EQ(seen.size(), 128u);
}

Snapshot fixture(const std::string& name) {
  auto loaded = load_snapshot_file(testing::source_path("fixtures/hosts/" + name + ".yaml"));
  EXPECT_FALSE(loaded.error) << loaded.error->to_string();
  return *loaded.snapshot;
}

std::string fault_error(Snapshot& s, const std::string& text) {
  std::string why;
  auto f = parse_fault(text, why);
  EXPECT_TRUE(f) << why;
  auto r = apply_fault(s, *f);
  return r.errors.empty() ? "" : r.errors.front();
}

// flood:nvidia-smi=1T ran into std::bad_alloc; 400M made one copy per
// nvidia-smi run (4 GB, 17 s). Refused before anything is allocated.
TEST(FaultSizes, FloodAndGarbageBeyondTheCapAreRefused) {
  Snapshot s = fixture("ws-4090-busy");
  EXPECT_EQ(fault_error(s, "flood:nvidia-smi=1T"),
            "--fault flood:nvidia-smi=1T: \"1T\" is more than the 256 MiB a fault may generate "
            "(a snapshot holds at most 512 MiB)");
  EXPECT_EQ(fault_error(s, "garbage:/proc/cpuinfo=1T"),
            "--fault garbage:/proc/cpuinfo=1T: \"1T\" is more than the 256 MiB a fault may "
            "generate (a snapshot holds at most 512 MiB)");
  // 200 MiB on each of the snapshot's nvidia-smi runs is more than 256 MiB in all.
  const auto e = fault_error(s, "flood:nvidia-smi=200M");
  EXPECT_NE(e.find("\"200M\" on 3 targets would make the snapshot's files and tool outputs"),
            std::string::npos)
      << e;
  EXPECT_EQ(fault_error(s, "flood:nvidia-smi=1M"), "");
}

}  // namespace
}  // namespace hwaccel::sim
