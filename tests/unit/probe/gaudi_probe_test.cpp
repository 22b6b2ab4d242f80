#include "src/probe/gaudi_probe.h"

#include <gtest/gtest.h>

#include "tests/unit/probe/snapshot_builder.h"

namespace hwaccel {
namespace {

using testing::SnapshotBuilder;

ProbeResult probe(SnapshotBuilder& b) {
  SnapshotHost host(b.snapshot);
  return GaudiProbe().run(host);
}

const std::string kHeader =
    "index, name, bus_id, memory.total [MiB], memory.free [MiB], driver_version\n";

void two_cards(SnapshotBuilder& b, const std::string& driver) {
  b.pci("0000:19:00.0", "0x1da3", "0x1060", "0x120000", driver, 0);
  b.pci("0000:3b:00.0", "0x1da3", "0x1060", "0x120000", driver, 0);
}

TEST(GaudiProbe, NothingOnTheBusIsNoDeviceWithoutRunningHlSmi) {
  SnapshotBuilder b;
  b.pci("0000:00:02.0", "0x8086", "0x0d5a", "0x060000", "");  // something else on the bus
  SnapshotHost host(b.snapshot);
  auto r = GaudiProbe().run(host);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::no_device);
  EXPECT_TRUE(host.misses().empty());  // hl-smi was not asked
}

TEST(GaudiProbe, ReadyCardsFromHlSmi) {
  SnapshotBuilder b;
  two_cards(b, "habanalabs");
  b.tool(gaudi_query_argv(), 0,
         kHeader +
             "0, HL-325L, 0000:19:00.0, 131072 MiB, 130400 MiB, 1.24.1-b336d5e\n"
             "1, HL-325L, 0000:3b:00.0, 131072 MiB, 130400 MiB, 1.24.1-b336d5e\n");
  auto r = probe(b);
  ASSERT_TRUE(r.backend.ready);
  ASSERT_EQ(r.entries.size(), 2u);
  EXPECT_EQ(r.entries[0].name, "Intel Gaudi 3 (HL-325L)");
  EXPECT_EQ(r.entries[0].compute_class, "gaudi3");
  EXPECT_EQ(r.entries[0].pci_device_id, 0x1060);
  EXPECT_EQ(r.entries[1].physical_id, "pci:0000:3b:00.0");
  EXPECT_EQ(r.entries[1].driver_version, "1.24.1-b336d5e");
}

TEST(GaudiProbe, NoToolWithTheDriverIsToolNotFound) {
  SnapshotBuilder b;
  two_cards(b, "habanalabs");
  b.tool_outcome(gaudi_query_argv(), ToolOutcome::not_found);
  auto r = probe(b);
  EXPECT_FALSE(r.backend.ready);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::tool_not_found);
  ASSERT_EQ(r.entries.size(), 2u);
  EXPECT_EQ(r.entries[0].reason->code, ReasonCode::tool_not_found);
  EXPECT_EQ(r.entries[0].name, "Intel Gaudi 3");
}

TEST(GaudiProbe, NoDriverIsDriverNotFound) {
  SnapshotBuilder b;
  two_cards(b, "");
  b.tool_outcome(gaudi_query_argv(), ToolOutcome::not_found);
  auto r = probe(b);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::driver_not_found);
  EXPECT_EQ(r.entries[1].reason->code, ReasonCode::driver_not_found);
}

TEST(GaudiProbe, FailingToolWithoutDriverIsDriverNotFound) {
  SnapshotBuilder b;
  two_cards(b, "");
  b.tool(gaudi_query_argv(), 1, "", "hl-smi: failed to open any device\n");
  auto r = probe(b);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::driver_not_found);
}

TEST(GaudiProbe, FailingToolWithDriverIsAProbeFailureInItsWords) {
  SnapshotBuilder b;
  two_cards(b, "habanalabs");
  b.tool(gaudi_query_argv(), 1, "", "hl-smi: failed to open any device\n");
  auto r = probe(b);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::probe_failed);
  EXPECT_NE(r.backend.reason->detail.find("failed to open any device"), std::string::npos);
}

TEST(GaudiProbe, ACardHlSmiDoesNotListIsUnavailable) {
  SnapshotBuilder b;
  two_cards(b, "habanalabs");
  b.tool(gaudi_query_argv(), 0,
         kHeader + "0, HL-325L, 0000:19:00.0, 131072 MiB, 130400 MiB, 1.24.1-b336d5e\n");
  auto r = probe(b);
  ASSERT_TRUE(r.backend.ready);
  ASSERT_EQ(r.entries.size(), 2u);
  EXPECT_EQ(r.entries[1].status, EntryStatus::unavailable);
  EXPECT_EQ(r.entries[1].reason->code, ReasonCode::probe_failed);
}

TEST(GaudiProbe, HangIsATimeout) {
  SnapshotBuilder b;
  two_cards(b, "habanalabs");
  b.tool_outcome(gaudi_query_argv(), ToolOutcome::timeout);
  EXPECT_EQ(probe(b).backend.reason->code, ReasonCode::timeout);
}

}  // namespace
}  // namespace hwaccel
