#include "src/probe/neuron_probe.h"

#include <gtest/gtest.h>

#include "tests/unit/probe/snapshot_builder.h"

namespace hwaccel {
namespace {

using testing::SnapshotBuilder;
constexpr std::uint64_t kGiB = 1ull << 30;

ProbeResult probe(SnapshotBuilder& b) {
  SnapshotHost host(b.snapshot);
  return NeuronProbe().run(host);
}

void inf2(SnapshotBuilder& b, const std::string& driver = "neuron-driver") {
  b.pci("0000:00:1e.0", "0x1d0f", "0x7264", "0x088000", driver);
  b.pci("0000:00:1f.0", "0x1d0f", "0x7264", "0x088000", driver);
}

const char* kTwo = R"([
 {"neuron_device": 0, "bdf": "0000:00:1e.0", "cpu_affinity": "0-95", "numa_node": "0",
  "connected_to": [1], "nc_count": 2, "memory_size": 34359738368, "neuroncore_ids": [0, 1],
  "neuron_processes": []},
 {"neuron_device": 1, "bdf": "0000:00:1f.0", "cpu_affinity": "0-95", "numa_node": "0",
  "connected_to": [0], "nc_count": 2, "memory_size": 34359738368, "neuroncore_ids": [2, 3],
  "neuron_processes": []}])";

TEST(NeuronProbe, AnEc2HostWithoutNeuronIsNoDevice) {
  SnapshotBuilder b;
  b.pci("0000:00:05.0", "0x1d0f", "0xec20", "0x020000", "ena");   // ENA NIC
  b.pci("0000:00:04.0", "0x1d0f", "0x8061", "0x010802", "nvme");  // EBS volume
  SnapshotHost host(b.snapshot);
  auto r = NeuronProbe().run(host);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::no_device);
  EXPECT_TRUE(host.misses().empty());
}

TEST(NeuronProbe, ReadyDevicesFromNeuronLs) {
  SnapshotBuilder b;
  inf2(b);
  b.file("/sys/devices/virtual/neuron_device/neuron0/uevent", "");
  b.file("/sys/devices/virtual/neuron_device/neuron1/uevent", "");
  b.tool(neuron_ls_argv(), 0, kTwo);
  auto r = probe(b);
  ASSERT_TRUE(r.backend.ready);
  ASSERT_EQ(r.entries.size(), 2u);
  const Entry& e = r.entries[1];
  EXPECT_EQ(e.name, "AWS Inferentia2 (2 NeuronCores)");
  EXPECT_EQ(e.compute_class, "neuroncore_v2");
  EXPECT_EQ(e.physical_id, "pci:0000:00:1f.0");
  EXPECT_EQ(e.memory.total_bytes, 32 * kGiB);
  EXPECT_EQ(e.numa_node, 0);
  EXPECT_EQ(e.cpu_affinity, "0-95");
  EXPECT_EQ(e.driver_version, "");  // no /sys/module/neuron/version here
  ASSERT_EQ(r.links.size(), 1u);    // 0-1 listed from both ends: one link
  EXPECT_EQ(r.links[0].kind, "neuronlink");
}

TEST(NeuronProbe, TheModuleVersionIsTheDriverVersion) {
  SnapshotBuilder b;
  inf2(b);
  b.file("/sys/devices/virtual/neuron_device/neuron0/uevent", "");
  b.file("/sys/module/neuron/version", "2.24.7.0\n");
  b.tool(neuron_ls_argv(), 0, kTwo);
  auto r = probe(b);
  ASSERT_EQ(r.entries.size(), 2u);
  EXPECT_EQ(r.entries[0].driver_version, "2.24.7.0");
}

TEST(NeuronProbe, TheNoDriverMessageIsDriverNotFound) {
  SnapshotBuilder b;
  inf2(b, "");
  b.tool(neuron_ls_argv(), 1, "",
         "level=fatal msg=\"Failed to load MLA system information\" error=\"failed to discover "
         "Neuron devices\"\n");
  auto r = probe(b);
  EXPECT_FALSE(r.backend.ready);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::driver_not_found);
  ASSERT_EQ(r.entries.size(), 2u);
  EXPECT_EQ(r.entries[0].reason->code, ReasonCode::driver_not_found);
  EXPECT_EQ(r.entries[0].name, "AWS Inferentia2");
}

TEST(NeuronProbe, WithoutTheToolNodesAndDmiGiveTheDevices) {
  SnapshotBuilder b;
  b.file("/sys/devices/virtual/neuron_device/neuron0/uevent", "");
  b.file("/sys/devices/virtual/neuron_device/neuron1/uevent", "");
  b.file("/sys/class/dmi/id/product_name", "trn1.32xlarge\n");
  b.file("/sys/bus/pci/devices/0000:00:05.0/vendor", "0x1d0f\n");  // the bus shows no Neuron id
  b.file("/sys/bus/pci/devices/0000:00:05.0/device", "0xec20\n");
  b.tool_outcome(neuron_ls_argv(), ToolOutcome::not_found);
  auto r = probe(b);
  ASSERT_TRUE(r.backend.ready);
  ASSERT_EQ(r.entries.size(), 2u);
  EXPECT_EQ(r.entries[0].name, "AWS Trainium (2 NeuronCores)");
  EXPECT_EQ(r.entries[0].memory.total_bytes, 32 * kGiB);
  EXPECT_EQ(r.entries[0].api, "dev");
  EXPECT_FALSE(r.warnings.empty());
}

TEST(NeuronProbe, ANewerToolIsAskedTheNewerWay) {
  SnapshotBuilder b;
  inf2(b);
  b.tool(neuron_ls_argv(), 2, "", "Error: unknown flag: --json-output\n");
  b.tool(neuron_ls_newer_argv(), 0, kTwo);
  auto r = probe(b);
  ASSERT_TRUE(r.backend.ready);
  EXPECT_EQ(r.entries[0].provenance[0], "tool:neuron-ls --output-format json");
}

TEST(NeuronProbe, GarbageIsAProbeFailure) {
  SnapshotBuilder b;
  inf2(b);
  b.tool(neuron_ls_argv(), 0, "+--------+\n| NEURON |\n");
  auto r = probe(b);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::probe_failed);
  EXPECT_EQ(r.entries.size(), 2u);
}

}  // namespace
}  // namespace hwaccel
