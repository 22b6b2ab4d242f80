#include "src/plan/catalogue.h"

#include <gtest/gtest.h>

namespace hwaccel::plan {
namespace {

const char* kMinimal = R"(format = "hwaccel-devices/1"
[perf_class.x]
decode_efficiency = 0.5
prefill_efficiency = 0.3
source = "test"

[[sku]]
id = "a"
name = "Accel A"
vendor = "V"
family = "F"
type = "gpu"
match = ["Accel A"]
pci = ["10de:1234"]
memory_gb = 80
memory_type = "HBM3"
usable_fraction = 0.9
bandwidth_gbs = 1000
peak_tflops = { fp32 = 10, bf16 = 100 }
native = ["fp32", "bf16"]
target = "sm_90"
compute_units = 10
perf_class = "x"
fabric = "none"
sources = { memory_gb = "m", bandwidth_gbs = "b", peak_tflops = "p", compute_units = "c", usable_fraction = "u" }
)";

std::string with(const std::string& from, const std::string& to) {
  std::string s = kMinimal;
  auto at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return s.replace(at, from.size(), to);
}

TEST(Catalogue, BuiltinParsesAndHasTheIssueSkus) {
  const auto& c = builtin_catalogue();
  for (const char* id :
       {"h100-sxm",       "h100-pcie",    "h100-nvl",     "h200-sxm",  "a100-40gb",
        "a100-80gb",      "b200",         "gb200",        "gb10",      "gh200",
        "l40s",           "l4",           "a10",          "rtx-3090",  "rtx-4090",
        "rtx-5090",       "rtx-6000-ada", "mi300x",       "mi325x",    "mi250x-gcd",
        "gaudi2",         "gaudi3",       "tpu-v4",       "tpu-v5e",   "tpu-v5p",
        "tpu-v6e",        "inferentia2",  "trainium1",    "trainium2", "apple-m1",
        "apple-m2-ultra", "apple-m3-max", "apple-m4-pro", "max-1550",  "rx-7900-xtx"}) {
    EXPECT_NE(c.find(id), nullptr) << id;
  }
  for (const auto& s : c.skus) {
    EXPECT_TRUE(s.sources.count("bandwidth_gbs")) << s.id;
    EXPECT_TRUE(s.sources.count("peak_tflops")) << s.id;
  }
}

TEST(Catalogue, MinimalParses) {
  auto r = parse_catalogue(kMinimal, "d.toml");
  ASSERT_TRUE(r.catalogue) << r.error;
  const Sku& s = r.catalogue->skus.at(0);
  EXPECT_DOUBLE_EQ(s.memory_bytes, 80e9);
  EXPECT_DOUBLE_EQ(s.peak("bf16"), 100e12);
  EXPECT_EQ(s.peak("fp8"), 0);
}

TEST(Catalogue, UnknownKeyIsLocated) {
  auto r = parse_catalogue(with("target = \"sm_90\"", "target = \"sm_90\"\nflavour = 3"), "d.toml");
  ASSERT_FALSE(r.catalogue);
  EXPECT_EQ(r.error.rfind("d.toml:22:1: ", 0), 0u) << r.error;
  EXPECT_NE(r.error.find("sku[0].flavour: unknown key"), std::string::npos) << r.error;
}

TEST(Catalogue, NativeFormatWithZeroPeakIsRefused) {
  auto r = parse_catalogue(
      with("native = [\"fp32\", \"bf16\"]", "native = [\"fp32\", \"bf16\", \"fp8\"]"), "d.toml");
  ASSERT_FALSE(r.catalogue);
  EXPECT_NE(r.error.find("d.toml:20:"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("\"fp8\" is native but peak_tflops.fp8 is zero"), std::string::npos)
      << r.error;
}

TEST(Catalogue, PeakForAFormatThatIsNotNativeIsRefused) {
  auto r = parse_catalogue(with("bf16 = 100 }", "bf16 = 100, int8 = 5 }"), "d.toml");
  ASSERT_FALSE(r.catalogue);
  EXPECT_NE(r.error.find("sku[0].peak_tflops.int8"), std::string::npos) << r.error;
}

TEST(Catalogue, NumberWithoutSourceIsRefused) {
  auto r = parse_catalogue(with("compute_units = \"c\", ", ""), "d.toml");
  ASSERT_FALSE(r.catalogue);
  EXPECT_NE(r.error.find("compute_units: has no sources.compute_units"), std::string::npos)
      << r.error;
}

TEST(Catalogue, SyntaxErrorIsLocated) {
  auto r = parse_catalogue("format = \n", "bad.toml");
  ASSERT_FALSE(r.catalogue);
  EXPECT_EQ(r.error.rfind("bad.toml:1:", 0), 0u) << r.error;
}

TEST(Catalogue, MatchesByPciThenName) {
  const auto& c = builtin_catalogue();
  Entry e;
  e.name = "NVIDIA H100 80GB HBM3";
  e.pci_vendor_id = 0x10de;
  e.pci_device_id = 0x2330;
  e.type = DeviceType::gpu;
  ASSERT_NE(c.match(e), nullptr);
  EXPECT_EQ(c.match(e)->id, "h100-sxm");
  e.pci_device_id = 0x20b2;  // the PCI id wins over the name
  EXPECT_EQ(c.match(e)->id, "a100-80gb");
  Entry byname;
  byname.name = "NVIDIA GeForce RTX 4090";
  byname.type = DeviceType::gpu;
  EXPECT_EQ(c.match(byname)->id, "rtx-4090");
  Entry unknown;
  unknown.name = "AMD Radeon 8050S/8060S Graphics (Strix Halo)";
  unknown.pci_vendor_id = 0x1002;
  unknown.pci_device_id = 0x1586;
  unknown.type = DeviceType::gpu;
  EXPECT_EQ(c.match(unknown), nullptr);
  Entry cpu;
  cpu.name = "AMD EPYC 9654 96-Core Processor";
  cpu.type = DeviceType::cpu;
  EXPECT_EQ(c.match(cpu)->id, "epyc-9654");
}

}  // namespace
}  // namespace hwaccel::plan
