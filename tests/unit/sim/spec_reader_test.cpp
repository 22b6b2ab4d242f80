// Bad specs are refused with the file, line, column and what was expected.
#include "sim/spec_reader.h"

#include <gtest/gtest.h>

namespace hwaccel::sim {
namespace {

std::string error_of(const std::string& text) {
  HostSpec spec;
  auto e = parse_spec(text, "bad.yaml", spec);
  return e ? e->to_string() : "";
}

const std::string kCpu = "cpu: {model: X, uarch: zen4}\n";

TEST(SpecReader, LocatesEveryMistake) {
  struct Case {
    std::string text, expected;
  };
  const Case cases[] = {
      {"label: x\n", "bad.yaml:1:1: schema: expected \"hwsim-spec/1\""},
      {"schema: hwsim-spec/2\n", "bad.yaml:1:9: schema: expected \"hwsim-spec/1\""},
      {"schema: hwsim-spec/1\ncpus: 4\n", "bad.yaml:2:1: unknown key \"cpus\" (expected one of:"},
      {"schema: hwsim-spec/1\n" + kCpu + "accelerators: [h100 x8]\n",
       "bad.yaml:3:16: accelerators[0]: unknown SKU \"h100\" (the catalogue has: h100-sxm"},
      {"schema: hwsim-spec/1\n" + kCpu + "accelerators:\n  - {sku: h100-sxm, count: many}\n",
       "bad.yaml:4:28: accelerators[0].count: expected a whole number from 1 to 64"},
      {"schema: hwsim-spec/1\n" + kCpu + "memory: {total: lots}\n",
       "bad.yaml:3:17: memory.total: expected a size"},
      {"schema: hwsim-spec/1\ncpu: {model: X, uarch: pentium}\n",
       "bad.yaml:2:24: cpu.uarch: unknown \"pentium\""},
      {"schema: hwsim-spec/1\n" + kCpu + "drivers: {nvidia: broken}\n",
       "bad.yaml:3:19: drivers.nvidia: expected ok, missing, mismatch or tool-missing"},
      {"schema: hwsim-spec/1\n" + kCpu + "interconnect: infiniband\n",
       "bad.yaml:3:15: interconnect: expected nvswitch, nvlink-pairs or pcie"},
      {"schema: hwsim-spec/1\n" + kCpu +
           "accelerators:\n  - {sku: h100-sxm, count: 2, bus: [1b]}\n",
       "bad.yaml:4:36: accelerators[0].bus: 1 addresses for 2 devices"},
      {"schema: hwsim-spec/1\n" + kCpu + "accelerators:\n  - {sku: rtx4090, mig: [1g.10gb]}\n",
       "rtx4090 has no MIG"},
      {"schema: hwsim-spec/1\narch: aarch64\n" + kCpu, "cpu.uarch: zen4 is not an aarch64 CPU"},
      {"schema: hwsim-spec/1\n" + kCpu + "vulkan: {drivers: [mesa]}\n",
       "bad.yaml:3:20: vulkan.drivers[0]: expected nvk, nvidia, radv, anv, moltenvk or llvmpipe"},
      {"schema: hwsim-spec/1\n" + kCpu + "vulkan: {loader: 1.3}\n",
       "bad.yaml:3:10: vulkan: unknown key \"loader\""},
      {"schema: hwsim-spec/1\nos: darwin\n" + kCpu, "cpu.uarch: zen4 is not an arm64 CPU"},
      {"schema: hwsim-spec/1\nos: windows\n" + kCpu, "bad.yaml:2:5: os: expected linux or darwin"},
      {"schema: hwsim-spec/1\n" + kCpu + "accelerators:\n  - {sku: npu3720, node: locked}\n",
       "bad.yaml:4:26: accelerators[0].node: expected ok or denied"},
      {"schema: hwsim-spec/1\n" + kCpu + "vm: qemu\n", "bad.yaml:3:5: vm: expected firecracker"},
      {"schema: hwsim-spec/1\ncpu: {model: X, uarch: zen4\n",
       "bad.yaml:3:1: end of map flow not found"},
  };
  for (const auto& c : cases) {
    const auto e = error_of(c.text);
    EXPECT_NE(e.find(c.expected), std::string::npos) << c.text << "\n got: " << e;
  }
}

TEST(SpecReader, ReadsShortAndLongForms) {
  HostSpec spec;
  ASSERT_FALSE(parse_spec(R"(schema: hwsim-spec/1
cpu: {model: "AMD EPYC 9654 96-Core Processor", uarch: zen4, sockets: 2, cores: 96, threads: 2}
memory: {total: 1.5 TiB}
accelerators:
  - mi300x x8
  - {sku: h100-sxm, bus: ["00:09.0"], free: 40 GiB, mig: [3g.40gb]}
)",
                          "ok.yaml", spec));
  ASSERT_EQ(spec.accelerators.size(), 2u);
  EXPECT_EQ(spec.accelerators[0].sku, "mi300x");
  EXPECT_EQ(spec.accelerators[0].count, 8);
  EXPECT_EQ(spec.accelerators[1].bus[0], "0000:00:09.0");
  EXPECT_EQ(spec.accelerators[1].free_bytes, std::uint64_t{40} << 30);
  EXPECT_EQ(spec.memory.total_kb, std::uint64_t{3} << 29);
  EXPECT_EQ(spec.cpu.logical_cpus(), 384);
}

TEST(SpecReader, Sizes) {
  EXPECT_EQ(parse_spec_size("2112948142 kB"), std::uint64_t{2112948142} * 1024);
  EXPECT_EQ(parse_spec_size("80 GiB"), std::uint64_t{80} << 30);
  EXPECT_EQ(parse_spec_size("512M"), std::uint64_t{512} << 20);
  EXPECT_EQ(parse_spec_size("1.5T"), std::uint64_t{3} << 39);
  EXPECT_EQ(parse_spec_size("123"), 123u);
  EXPECT_FALSE(parse_spec_size("lots"));
  EXPECT_FALSE(parse_spec_size("1.2.3G"));
  EXPECT_FALSE(parse_spec_size(""));
}

}  // namespace
}  // namespace hwaccel::sim
