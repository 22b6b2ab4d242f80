#include "src/probe/hl_smi_csv.h"

#include <gtest/gtest.h>

#include "src/catalog/habana_ids.h"

namespace hwaccel {
namespace {

constexpr std::uint64_t kMiB = 1ull << 20;

// The header and first rows of a real 8x HL-325L capture (driver 1.24.1), cut to
// the fields the probe asks for plus the ones a wider query adds.
constexpr const char* kGaudi3 =
    "index, name, bus_id, driver_version, uuid, module_id, memory.total [MiB], memory.free [MiB], "
    "memory.used [MiB]\n"
    "0, HL-325L, 0000:3b:00.0, 1.24.1-b336d5e, 01P4-HL3090A0-18-UAN071-12-03-01, 1, 131072 MiB, "
    "130400 MiB, 672 MiB\n"
    "1, HL-325L, 0000:4c:00.0, 1.24.1-b336d5e, 01P4-HL3090A0-18-UAN071-05-08-05, 3, 131072 MiB, "
    "130400 MiB, 672 MiB\n";

TEST(HlSmiCsv, ReadsARealGaudi3Table) {
  auto q = parse_hl_smi_query(kGaudi3);
  ASSERT_EQ(q.devices.size(), 2u);
  EXPECT_TRUE(q.problems.empty());
  const auto& d = q.devices[1];
  EXPECT_EQ(d.index, 1);
  EXPECT_EQ(d.name, "HL-325L");
  EXPECT_EQ(d.bus_id, "0000:4c:00.0");
  EXPECT_EQ(d.memory_total_bytes, 131072 * kMiB);
  EXPECT_EQ(d.memory_free_bytes, 130400 * kMiB);
  EXPECT_EQ(d.driver_version, "1.24.1-b336d5e");
}

TEST(HlSmiCsv, NoUnitsUnderAMiBHeader) {
  auto q = parse_hl_smi_query(
      "index, name, bus_id, memory.total [MiB], memory.free [MiB], driver_version\n"
      "0, HL-225, 0000:19:00.0, 98304, 97000, 1.20.0-abc123\n");
  ASSERT_EQ(q.devices.size(), 1u);
  EXPECT_EQ(q.devices[0].memory_total_bytes, 98304 * kMiB);
}

TEST(HlSmiCsv, NotAvailableCellsAreUnknownNotZero) {
  auto q = parse_hl_smi_query(
      "index, name, bus_id, memory.total [MiB], memory.free [MiB], driver_version\n"
      "0, HL-325L, 0000:19:00.0, N/A, [N/A], N/A\n");
  ASSERT_EQ(q.devices.size(), 1u);
  EXPECT_FALSE(q.devices[0].memory_total_bytes);
  EXPECT_FALSE(q.devices[0].memory_free_bytes);
  EXPECT_EQ(q.devices[0].driver_version, "");
}

TEST(HlSmiCsv, GarbageMemoryIsAProblemNotACrash) {
  auto q = parse_hl_smi_query(
      "index, name, bus_id, memory.total [MiB]\n0, HL-325L, 0000:19:00.0, lots\n");
  ASSERT_EQ(q.devices.size(), 1u);
  EXPECT_FALSE(q.devices[0].memory_total_bytes);
  EXPECT_FALSE(q.problems.empty());
}

TEST(HlSmiCsv, TruncatedAndEmptyOutput) {
  EXPECT_TRUE(parse_hl_smi_query("").devices.empty());
  EXPECT_TRUE(parse_hl_smi_query("index, name, bus_id\n").devices.empty());
  auto q = parse_hl_smi_query("index, name, bus_id, memory.total [MiB]\n0, HL-325L, 0000:3b");
  EXPECT_TRUE(q.devices.empty());  // a cut row has too few cells
  EXPECT_FALSE(q.problems.empty());
}

TEST(HlSmiCsv, AnErrorMessageIsNoTable) {
  auto q = parse_hl_smi_query("hl-smi: could not open device\n");
  EXPECT_TRUE(q.devices.empty());
}

TEST(HabanaIds, ProductsAndPciIdsToGenerations) {
  EXPECT_EQ(gaudi_generation_of_product("HL-225")->compute_class, "gaudi2");
  EXPECT_EQ(gaudi_generation_of_product("HL-288")->compute_class, "gaudi2");
  EXPECT_EQ(gaudi_generation_of_product("HL-325L")->compute_class, "gaudi3");
  EXPECT_EQ(gaudi_generation_of_product("HL-205")->compute_class, "gaudi");
  EXPECT_FALSE(gaudi_generation_of_product("H100"));
  EXPECT_FALSE(gaudi_generation_of_product(""));
  EXPECT_EQ(gaudi_generation_of_pci(0x1020)->name, "Intel Gaudi 2");
  EXPECT_EQ(gaudi_generation_of_pci(0x1060)->name, "Intel Gaudi 3");
  EXPECT_FALSE(gaudi_generation_of_pci(0x0001));  // Goya: inference, not Gaudi
}

}  // namespace
}  // namespace hwaccel
