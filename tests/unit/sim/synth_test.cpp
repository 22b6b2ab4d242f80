// Synthesised hosts detect as the real machines would: an 8x H100 NVSwitch box,
// a GB10 (unified memory), a host whose NVIDIA driver is missing, an MI300X box;
// and synthesis is deterministic and replays strictly.
#include "sim/synth.h"

#include <gtest/gtest.h>

#include "sim/spec_reader.h"
#include "src/host/snapshot_host.h"
#include "src/registry/detection.h"
#include "src/snapshot/snapshot_codec.h"

namespace hwaccel::sim {
namespace {

HostSpec spec_of(const std::string& text) {
  HostSpec spec;
  auto error = parse_spec(text, "test.yaml", spec);
  EXPECT_FALSE(error) << error->to_string();
  return spec;
}

Detection detect_spec(const std::string& text,
                      std::vector<std::vector<std::string>>* misses = nullptr) {
  SnapshotHost host(synthesize(spec_of(text)));
  Detection d = detect(host);
  if (misses) *misses = host.misses();
  return d;
}

std::vector<const Entry*> of(const Detection& d, const std::string& backend) {
  std::vector<const Entry*> out;
  for (const auto& e : d.entries)
    if (e.backend == backend) out.push_back(&e);
  return out;
}

const BackendStatus* backend(const Detection& d, const std::string& name) {
  for (const auto& b : d.backends)
    if (b.name == name) return &b;
  return nullptr;
}

const char* kEightH100 = R"(schema: hwsim-spec/1
label: hgx
cpu: {model: "Intel(R) Xeon(R) Platinum 8480C", uarch: sapphire-rapids, sockets: 2, cores: 56, threads: 2}
memory: {total: 2 TiB, available: 1.9 TiB}
accelerators: [h100-sxm x8]
interconnect: nvswitch
ib_ports: 8
)";

TEST(Synth, EightH100sOnNvswitchAreEightReadySm90GpusFullyLinked) {
  std::vector<std::vector<std::string>> misses;
  auto d = detect_spec(kEightH100, &misses);
  EXPECT_TRUE(misses.empty());
  auto gpus = of(d, "cuda");
  ASSERT_EQ(gpus.size(), 8u);
  for (const auto* g : gpus) {
    EXPECT_EQ(g->status, EntryStatus::ready);
    EXPECT_EQ(g->name, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(g->memory.total_bytes, std::uint64_t{81559} << 20);
    EXPECT_EQ(g->memory.free_bytes, std::uint64_t{81007} << 20);
    EXPECT_EQ(g->compute_class, "sm_90");
    EXPECT_EQ(g->pci_device_id, 0x2330);
  }
  EXPECT_EQ(gpus[0]->numa_node, 0);
  EXPECT_EQ(gpus[7]->numa_node, 1);
  EXPECT_EQ(gpus[7]->cpu_affinity, "56-111,168-223");
  ASSERT_EQ(d.links.size(), 28u);  // every pair
  for (const auto& l : d.links) {
    EXPECT_EQ(l.kind, "nvlink");
    EXPECT_EQ(l.lanes, 18);
  }
  EXPECT_EQ(d.host.facts.cpus, 224);
  ASSERT_EQ(of(d, "cpu").size(), 1u);
  EXPECT_EQ(of(d, "cpu")[0]->compute_class, "avx512");
  EXPECT_EQ(of(d, "cpu")[0]->memory.total_bytes, std::uint64_t{2} << 40);
}

// A monitoring agent on a synthesised host reads an idle GPU of the SKU as a real
// capture shows it (sim/sku_catalog.h, IdleFigures), where one exists; a SKU
// without a capture has none (its cells are [N/A]), never a made-up figure.
TEST(Synth, IdleFiguresOnlyWhereARealCaptureOfTheSkuExists) {
  auto idle_query = [](const Snapshot& s) -> const ToolEntry* {
    for (const auto& [argv, tool] : s.tools)
      if (argv.size() == 3 && argv[1].find("temperature.gpu") != std::string::npos) return &tool;
    return nullptr;
  };
  const Snapshot h100 = synthesize(spec_of(kEightH100));
  const ToolEntry* q = idle_query(h100);
  ASSERT_TRUE(q);
  EXPECT_NE(q->run.out.find("index, pci.bus_id, temperature.gpu, power.draw [W], power.limit [W], "
                            "pstate, utilization.gpu [%], utilization.memory [%], "
                            "clocks.current.graphics [MHz], clocks.current.sm [MHz], "
                            "clocks.current.memory [MHz]\n"),
            std::string::npos);
  EXPECT_NE(q->run.out.find(", 42, 72.63 W, 700.00 W, P0, 0 %, 0 %, 345 MHz, 345 MHz, 2619 MHz\n"),
            std::string::npos);
  // The probe's own answers are unchanged by it.
  SnapshotHost host(h100);
  EXPECT_EQ(of(detect(host), "cuda").size(), 8u);
  const Snapshot a100 = synthesize(spec_of(R"(schema: hwsim-spec/1
label: a100
cpu: {model: "AMD EPYC 7742 64-Core Processor", uarch: zen2, sockets: 2, cores: 64, threads: 2}
memory: {total: 1 TiB}
accelerators: [a100-sxm4-80gb x8]
interconnect: nvswitch
)"));
  EXPECT_FALSE(idle_query(a100)) << "no capture of an A100: no idle figures";
}

TEST(Synth, PcieOnlyGpusAreLinkedByTheirPcieTopology) {
  auto d = detect_spec(R"(schema: hwsim-spec/1
cpu: {model: "AMD EPYC 9654 96-Core Processor", uarch: zen4, sockets: 2, cores: 96, threads: 2}
accelerators: [h100-sxm x4]
interconnect: pcie
)");
  ASSERT_EQ(of(d, "cuda").size(), 4u);
  ASSERT_EQ(d.links.size(), 6u);
  int sys = 0;
  for (const auto& l : d.links) {
    EXPECT_EQ(l.kind, "pcie");
    sys += l.path == "SYS";
  }
  EXPECT_EQ(sys, 4);  // two GPUs per socket: 4 of the 6 pairs cross it
}

TEST(Synth, Gb10IsOneUnifiedMemoryGpuSizedByTheHost) {
  std::vector<std::vector<std::string>> misses;
  auto d = detect_spec(R"(schema: hwsim-spec/1
arch: aarch64
cpu: {uarch: gb10, clusters: [cortex-x925 x10, cortex-a725 x10]}
memory: {total: 125508468 kB, available: 121737812 kB}
accelerators: [gb10]
)",
                       &misses);
  EXPECT_TRUE(misses.empty());
  auto gpus = of(d, "cuda");
  ASSERT_EQ(gpus.size(), 1u);
  EXPECT_EQ(gpus[0]->status, EntryStatus::ready);
  EXPECT_EQ(gpus[0]->name, "NVIDIA GB10");
  EXPECT_EQ(gpus[0]->memory.kind, MemoryKind::unified);
  EXPECT_EQ(gpus[0]->memory.total_bytes, std::uint64_t{125508468} * 1024);
  EXPECT_EQ(gpus[0]->memory.free_bytes, std::uint64_t{121737812} * 1024);
  EXPECT_EQ(gpus[0]->compute_class, "sm_121");
  EXPECT_EQ(gpus[0]->pci_bus_id, "000f:01:00.0");
  EXPECT_EQ(of(d, "cpu")[0]->name, "Arm Cortex-X925 x10 + Cortex-A725 x10");
  EXPECT_EQ(of(d, "cpu")[0]->compute_class, "sve2");
}

TEST(Synth, AMissingNvidiaDriverIsDriverNotFoundOnEveryGpu) {
  auto d = detect_spec(R"(schema: hwsim-spec/1
cpu: {model: "Intel(R) Xeon(R) Platinum 8480C", uarch: sapphire-rapids, sockets: 2, cores: 56, threads: 2}
accelerators: [h100-sxm x8]
drivers: {nvidia: missing}
)");
  auto cuda = backend(d, "cuda");
  ASSERT_TRUE(cuda && cuda->reason);
  EXPECT_FALSE(cuda->ready);
  EXPECT_EQ(cuda->reason->code, ReasonCode::driver_not_found);
  EXPECT_NE(cuda->reason->detail.find("couldn't communicate with the NVIDIA driver"),
            std::string::npos);
  auto gpus = of(d, "cuda");
  ASSERT_EQ(gpus.size(), 8u);
  for (const auto* g : gpus) {
    EXPECT_EQ(g->status, EntryStatus::unavailable);
    EXPECT_EQ(g->reason->code, ReasonCode::driver_not_found);
    EXPECT_EQ(g->name, "NVIDIA H100 SXM5 80GB");  // from the PCI id: no driver to ask
  }
}

TEST(Synth, DriverStatesGiveTheirReasons) {
  const std::string base = R"(schema: hwsim-spec/1
cpu: {model: "Intel(R) Xeon(R) Platinum 8480C", uarch: sapphire-rapids, sockets: 2, cores: 56, threads: 2}
accelerators: [rtx4090 x2]
)";
  auto mismatch = detect_spec(base + "drivers: {nvidia: mismatch}\n");
  EXPECT_EQ(backend(mismatch, "cuda")->reason->code, ReasonCode::probe_failed);
  EXPECT_NE(backend(mismatch, "cuda")->reason->detail.find("version mismatch"), std::string::npos);
  auto no_tool = detect_spec(base + "drivers: {nvidia: tool-missing}\n");
  EXPECT_EQ(backend(no_tool, "cuda")->reason->code, ReasonCode::tool_not_found);
  EXPECT_EQ(of(no_tool, "cuda").size(), 2u);
  auto no_gpu = detect_spec(R"(schema: hwsim-spec/1
cpu: {model: "AMD EPYC 7B13", uarch: zen3, cores: 2, threads: 2}
drivers: {nvidia: ok}
)");
  EXPECT_EQ(backend(no_gpu, "cuda")->reason->code, ReasonCode::no_device);
  auto cpu_only = detect_spec(R"(schema: hwsim-spec/1
cpu: {model: "AMD EPYC 7B13", uarch: zen3, cores: 2, threads: 2}
)");
  EXPECT_EQ(backend(cpu_only, "cuda")->reason->code, ReasonCode::tool_not_found);
  EXPECT_EQ(backend(cpu_only, "rocm")->reason->code, ReasonCode::no_device);
}

TEST(Synth, Mi300xHostAndItsPartitions) {
  std::vector<std::vector<std::string>> misses;
  auto d = detect_spec(R"(schema: hwsim-spec/1
cpu: {model: "AMD EPYC 9654 96-Core Processor", uarch: zen4, sockets: 2, cores: 96, threads: 2}
accelerators:
  - {sku: mi300x, count: 2, compute_partition: CPX}
  - mi300x x6
)",
                       &misses);
  EXPECT_TRUE(misses.empty());
  auto gpus = of(d, "rocm");
  int partitions = 0, whole = 0;
  for (const auto* g : gpus) {
    if (g->partition) {
      ++partitions;
      EXPECT_EQ(g->partition->profile, "CPX");
    } else {
      ++whole;
      EXPECT_EQ(g->compute_class, "gfx942");
    }
  }
  EXPECT_EQ(whole, 8);
  EXPECT_EQ(partitions, 16);
  auto amd_missing = detect_spec(R"(schema: hwsim-spec/1
cpu: {model: "AMD EPYC 9654 96-Core Processor", uarch: zen4, sockets: 2, cores: 96, threads: 2}
accelerators: [mi300x x8]
drivers: {amdgpu: missing}
)");
  EXPECT_EQ(backend(amd_missing, "rocm")->reason->code, ReasonCode::driver_not_found);
  EXPECT_EQ(of(amd_missing, "rocm").size(), 8u);
}

TEST(Synth, IsDeterministicAndDependsOnTheSeed) {
  const auto a = write_snapshot(synthesize(spec_of(kEightH100)));
  const auto b = write_snapshot(synthesize(spec_of(kEightH100)));
  EXPECT_EQ(a, b);
  const auto c = write_snapshot(synthesize(spec_of(std::string(kEightH100) + "seed: 7\n")));
  EXPECT_NE(a, c);  // other UUIDs
  Snapshot reread;
  ASSERT_FALSE(parse_snapshot(a, "synth.yaml", reread));
  EXPECT_EQ(write_snapshot(reread), a);
}

// `vm:` makes the CPU a guest's: the kernel's "hypervisor" flag after rdrand, as in
// the recorded Firecracker guests (fixtures/hosts/h200-firecracker.yaml), so the
// synthesis says "VM" like the recording; without `vm:` the host stays bare metal.
TEST(Synth, AVmSpecGivesTheGuestsHypervisorFlag) {
  const std::string cpu =
      "schema: hwsim-spec/1\ncpu: {model: \"Intel(R) Xeon(R) Processor\", uarch: "
      "sapphire-rapids, sockets: 1, cores: 4, threads: 1}\n";
  Snapshot guest = synthesize(spec_of(cpu + "vm: firecracker\n"));
  const std::string& flags = guest.files.at("/proc/cpuinfo").bytes;
  EXPECT_NE(flags.find(" rdrand hypervisor "), std::string::npos) << flags.substr(0, 2000);
  SnapshotHost guest_host(guest);
  const Detection guest_detection = detect(guest_host);
  EXPECT_EQ(guest_detection.system.environment.virtual_machine, std::optional<bool>(true));

  Snapshot metal = synthesize(spec_of(cpu));
  EXPECT_EQ(metal.files.at("/proc/cpuinfo").bytes.find("hypervisor"), std::string::npos);
  SnapshotHost metal_host(metal);
  EXPECT_EQ(detect(metal_host).system.environment.virtual_machine, std::optional<bool>(false));
}

}  // namespace
}  // namespace hwaccel::sim
