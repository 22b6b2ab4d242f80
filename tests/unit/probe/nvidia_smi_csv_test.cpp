#include "src/probe/nvidia_smi_csv.h"

#include <gtest/gtest.h>

#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

constexpr std::uint64_t kCsvMiB = 1048576;

constexpr std::string_view kCsvHeader =
    "index, uuid, pci.bus_id, name, memory.total [MiB], memory.used [MiB], memory.free [MiB], "
    "compute_cap, driver_version\n";

// What the real captures say, figure for figure (idle section of each file).
struct Capture {
  std::string file;
  std::string name;
  std::string bus_id;
  std::uint64_t total_mib, used_mib, free_mib;
  std::string compute_cap;
  std::string driver;
  std::size_t columns;
};

// Test names and logs show the GPU, not the struct's bytes.
void PrintTo(const Capture& c, std::ostream* os) {
  *os << c.name;
}

const Capture kCaptures[] = {
    {"nvidia-smi__linux-x86_64__nvidia-h100-mig__590.48.01.txt", "NVIDIA H100 80GB HBM3",
     "0000:00:09.0", 81559, 59, 81022, "9.0", "590.48.01", 212},
    {"nvidia-smi__linux-x86_64__nvidia-h200__590.48.01.txt", "NVIDIA H200", "0000:83:00.0", 143771,
     0, 143158, "9.0", "590.48.01", 212},
    {"nvidia-smi__linux-x86_64__nvidia-l40s__595.80.txt", "NVIDIA L40S", "0000:01:00.0", 46068, 0,
     45460, "8.9", "595.80", 202},
    {"nvidia-smi__linux-x86_64__nvidia-geforce-rtx-4080-super__595.71.05.txt",
     "NVIDIA GeForce RTX 4080 SUPER", "0000:01:00.0", 16376, 596, 15348, "8.9", "595.71.05", 202},
};

class RealCapture : public ::testing::TestWithParam<Capture> {};

TEST_P(RealCapture, QueryGpuSectionParsesEveryFigure) {
  const auto& expected = GetParam();
  auto path = testing::real_capture_path(expected.file);
  auto text = testing::slurp(path);
  if (!text) GTEST_FAIL() << "real capture not found: " << path;
  auto section = testing::capture_section(*text, "nvidia-smi --query-gpu=");
  ASSERT_TRUE(section) << "no --query-gpu section in " << expected.file;

  auto query = parse_nvidia_smi_gpu_query(*section);
  EXPECT_EQ(query.columns.size(), expected.columns);
  EXPECT_TRUE(query.problems.empty()) << query.problems.front();
  ASSERT_EQ(query.gpus.size(), 1u);
  const auto& gpu = query.gpus[0];
  EXPECT_EQ(gpu.index, 0);
  EXPECT_EQ(gpu.name, expected.name);
  EXPECT_EQ(gpu.uuid, "GPU-00000000-0000-0000-0000-000000000000");  // masked by its authors
  EXPECT_EQ(gpu.pci_bus_id, expected.bus_id);
  EXPECT_EQ(gpu.memory_total_bytes, expected.total_mib * kCsvMiB);
  EXPECT_EQ(gpu.memory_used_bytes, expected.used_mib * kCsvMiB);
  EXPECT_EQ(gpu.memory_free_bytes, expected.free_mib * kCsvMiB);
  EXPECT_FALSE(gpu.memory_not_reported);
  EXPECT_EQ(gpu.compute_cap, expected.compute_cap);
  EXPECT_EQ(gpu.driver_version, expected.driver);
}

INSTANTIATE_TEST_SUITE_P(NvidiaSmi, RealCapture, ::testing::ValuesIn(kCaptures),
                         [](const auto& info) { return testing::test_name(info.param.name); });

TEST(NvidiaSmiCsv, Gb10ReportsNoMemoryOfItsOwn) {
  auto query = parse_nvidia_smi_gpu_query(
      std::string(kCsvHeader) +
      "0, GPU-9a1b2c3d-0000-1111-2222-333344445555, 0000000F:01:00.0, NVIDIA GB10, [N/A], "
      "[N/A], [N/A], 12.1, 580.95.05\n");
  ASSERT_EQ(query.gpus.size(), 1u);
  const auto& gpu = query.gpus[0];
  EXPECT_EQ(gpu.name, "NVIDIA GB10");
  EXPECT_EQ(gpu.pci_bus_id, "000f:01:00.0");
  EXPECT_TRUE(gpu.memory_not_reported);
  EXPECT_FALSE(gpu.memory_total_bytes);
  EXPECT_FALSE(gpu.memory_free_bytes);
  EXPECT_EQ(gpu.compute_cap, "12.1");
  EXPECT_EQ(gpu.driver_version, "580.95.05");
  EXPECT_TRUE(query.problems.empty());
}

TEST(NvidiaSmiCsv, NotSupportedWithoutBracketsIsNoValueToo) {
  auto query = parse_nvidia_smi_gpu_query(std::string(kCsvHeader) +
                                          "0, GPU-x, 0000:01:00.0, Orin, Not Supported, "
                                          "Not Supported, N/A, 8.7, 540.4.0\n");
  ASSERT_EQ(query.gpus.size(), 1u);
  EXPECT_TRUE(query.gpus[0].memory_not_reported);
}

TEST(NvidiaSmiCsv, UsedMemoryAloneDoesNotMakeMemoryUnreported) {
  auto query = parse_nvidia_smi_gpu_query(std::string(kCsvHeader) +
                                          "0, GPU-x, 0000:01:00.0, X, 100 MiB, [N/A], 90 MiB, "
                                          "9.0, 1\n");
  ASSERT_EQ(query.gpus.size(), 1u);
  EXPECT_FALSE(query.gpus[0].memory_not_reported);
  EXPECT_EQ(query.gpus[0].memory_total_bytes, 100 * kCsvMiB);
  EXPECT_FALSE(query.gpus[0].memory_used_bytes);
}

TEST(NvidiaSmiCsv, NounitsValuesTakeTheHeadersUnit) {
  auto query = parse_nvidia_smi_gpu_query(std::string(kCsvHeader) +
                                          "0, GPU-a, 00000000:00:09.0, NVIDIA H100 80GB HBM3, "
                                          "81559, 59, 81022, 9.0, 590.48.01\n");
  ASSERT_EQ(query.gpus.size(), 1u);
  EXPECT_EQ(query.gpus[0].memory_total_bytes, 81559 * kCsvMiB);
  EXPECT_EQ(query.gpus[0].memory_free_bytes, 81022 * kCsvMiB);
}

TEST(NvidiaSmiCsv, ColumnsAreFoundByNameInAnyOrder) {
  auto query = parse_nvidia_smi_gpu_query(
      "driver_version, memory.free [MiB], name, index, pci.bus_id, memory.total [MiB]\n"
      "550.54.15, 80000 MiB, NVIDIA A100-SXM4-80GB, 3, 00000000:4E:00.0, 81920 MiB\n"
      "550.54.15, 81000 MiB, NVIDIA A100-SXM4-80GB, 2, 00000000:47:00.0, 81920 MiB\n");
  ASSERT_EQ(query.gpus.size(), 2u);
  EXPECT_EQ(query.gpus[0].index, 3);
  EXPECT_EQ(query.gpus[0].pci_bus_id, "0000:4e:00.0");
  EXPECT_EQ(query.gpus[0].memory_total_bytes, 81920 * kCsvMiB);
  EXPECT_EQ(query.gpus[1].index, 2);
  EXPECT_EQ(query.gpus[1].memory_free_bytes, 81000 * kCsvMiB);
  EXPECT_EQ(query.gpus[1].uuid, "");         // not asked for
  EXPECT_EQ(query.gpus[1].compute_cap, "");  // not asked for
}

TEST(NvidiaSmiCsv, RowsWithTheWrongNumberOfCellsAreSkippedWithANote) {
  auto query = parse_nvidia_smi_gpu_query(
      std::string(kCsvHeader) +
      "0, GPU-a, 0000:01:00.0, NVIDIA L40S, 46068 MiB, 0 MiB, 45460 MiB, 8.9, 595.80\n"
      "1, GPU-b, 0000:02:00.0, NVIDIA L40S, 46068 MiB\n"
      "2, GPU-c, 0000:03:00.0, NVIDIA L40S, Rev, B, 46068 MiB, 0 MiB, 45460 MiB, 8.9, 595.80\n");
  ASSERT_EQ(query.gpus.size(), 1u);
  EXPECT_EQ(query.gpus[0].uuid, "GPU-a");
  ASSERT_EQ(query.problems.size(), 2u);
  EXPECT_EQ(query.problems[0], "row 2 has 5 cells for 9 columns; skipped");
  EXPECT_EQ(query.problems[1], "row 3 has 11 cells for 9 columns; skipped");
}

TEST(NvidiaSmiCsv, UnreadableCellsAreNotedAndLeftEmpty) {
  auto query = parse_nvidia_smi_gpu_query(
      std::string(kCsvHeader) + "x, GPU-a, bogus, NVIDIA L4, 12 MB, 1 MiB, lots, 8.9, 1\n");
  ASSERT_EQ(query.gpus.size(), 1u);
  const auto& gpu = query.gpus[0];
  EXPECT_FALSE(gpu.index);
  EXPECT_EQ(gpu.pci_bus_id, "");
  EXPECT_FALSE(gpu.memory_total_bytes);
  EXPECT_EQ(gpu.memory_used_bytes, 1 * kCsvMiB);
  EXPECT_FALSE(gpu.memory_free_bytes);
  EXPECT_FALSE(gpu.memory_not_reported);
  ASSERT_EQ(query.problems.size(), 4u);
  EXPECT_EQ(query.problems[0], "GPU row 1: index \"x\" is not a number");
  EXPECT_EQ(query.problems[1], "GPU row 1: pci.bus_id \"bogus\" is not a PCI address");
  EXPECT_EQ(query.problems[2], "GPU row 1: memory.total \"12 MB\" is not a size");
  EXPECT_EQ(query.problems[3], "GPU row 1: memory.free \"lots\" is not a size");
}

TEST(NvidiaSmiCsv, HeaderOnlyMeansNoGpus) {
  auto query = parse_nvidia_smi_gpu_query(kCsvHeader);
  EXPECT_EQ(query.columns.size(), 9u);
  EXPECT_EQ(query.columns[4], "memory.total");
  EXPECT_TRUE(query.gpus.empty());
  EXPECT_TRUE(query.problems.empty());
}

TEST(NvidiaSmiCsv, TableKeepsUnitsApart) {
  auto table = parse_nvidia_smi_csv("name, memory.total [MiB], power.draw [W], odd [x\r\n");
  ASSERT_EQ(table.columns.size(), 4u);
  EXPECT_EQ(table.columns[1], "memory.total");
  EXPECT_EQ(table.units[1], "MiB");
  EXPECT_EQ(table.units[2], "W");
  EXPECT_EQ(table.columns[3], "odd [x");
  EXPECT_EQ(table.column("power.draw"), 2u);
  EXPECT_FALSE(table.column("missing"));
}

TEST(NvidiaSmiCsv, NoValueMarkers) {
  for (auto cell : {"[N/A]", "N/A", "[Not Supported]", "Not Supported", "not supported",
                    "[Requested functionality has been deprecated]", "[Unknown Error]",
                    "Unknown Error", " [N/A] ", "[Insufficient Permissions]"})
    EXPECT_TRUE(is_no_value(cell)) << cell;
  for (auto cell : {"", "0", "NVIDIA H100", "[N/A", "N/A MiB", "Disabled"})
    EXPECT_FALSE(is_no_value(cell)) << cell;
}

TEST(NvidiaSmiCsv, MemorySizes) {
  EXPECT_EQ(parse_memory_bytes("81559 MiB", "MiB"), 81559 * kCsvMiB);
  EXPECT_EQ(parse_memory_bytes("81559", "MiB"), 81559 * kCsvMiB);
  EXPECT_EQ(parse_memory_bytes("81559", ""), 81559 * kCsvMiB);
  EXPECT_EQ(parse_memory_bytes("2 GiB", "MiB"), 2048 * kCsvMiB);
  EXPECT_EQ(parse_memory_bytes("0 MiB", "MiB"), 0u);
  EXPECT_FALSE(parse_memory_bytes("", "MiB"));
  EXPECT_FALSE(parse_memory_bytes("[N/A]", "MiB"));
  EXPECT_FALSE(parse_memory_bytes("1.5 GiB", "MiB"));
  EXPECT_FALSE(parse_memory_bytes("-1 MiB", "MiB"));
  EXPECT_FALSE(parse_memory_bytes("12 furlongs", "MiB"));
  EXPECT_FALSE(parse_memory_bytes("99999999999999999 MiB", "MiB"));  // past 2^64 bytes
}

TEST(NvidiaSmiCsv, PciBusIdsAreNormalised) {
  EXPECT_EQ(normalise_pci_bus_id("00000000:00:09.0"), "0000:00:09.0");
  EXPECT_EQ(normalise_pci_bus_id("0000000F:01:00.0"), "000f:01:00.0");
  EXPECT_EQ(normalise_pci_bus_id("00000000:4E:00.0"), "0000:4e:00.0");
  EXPECT_EQ(normalise_pci_bus_id("0000:3B:00.0"), "0000:3b:00.0");
  EXPECT_EQ(normalise_pci_bus_id("3b:00.0"), "0000:3b:00.0");
  EXPECT_EQ(normalise_pci_bus_id(" 0000:c1:1f.7 "), "0000:c1:1f.7");
  EXPECT_EQ(normalise_pci_bus_id("00010000:01:00.0"), "10000:01:00.0");  // VMD domain
  for (auto bad :
       {"", "zz", "0000:00:20.0", "0000:00:00.8", "0000:100:00.0", "000000000:00:00.0",
        "0x0000:00:00.0", "0000:00:00", "0000:00:00.0.1", "0000:00:00.", "a:b:c:d.0", "[N/A]"})
    EXPECT_EQ(normalise_pci_bus_id(bad), "") << bad;
}

TEST(NvidiaSmiCsv, ComputeClasses) {
  EXPECT_EQ(compute_class_from_cap("9.0"), "sm_90");
  EXPECT_EQ(compute_class_from_cap("8.9"), "sm_89");
  EXPECT_EQ(compute_class_from_cap("10.0"), "sm_100");
  EXPECT_EQ(compute_class_from_cap("12.1"), "sm_121");
  for (auto bad : {"", "9", "9.", ".0", "9.x", "-1.0", "[N/A]", "9.10", "100.0"})
    EXPECT_EQ(compute_class_from_cap(bad), "") << bad;
}

TEST(NvidiaSmiCsv, GarbageNeverThrowsAndNotesAreCapped) {
  std::string binary;
  for (int i = 0; i < 65536; ++i) binary += static_cast<char>((i * 131) & 0xff);
  std::string many_bad_rows = std::string(kCsvHeader);
  for (int i = 0; i < 10000; ++i) many_bad_rows += "1, 2\n";
  for (const std::string& text :
       {std::string(), std::string("\n"), std::string(",,,,"), std::string(",\n,\n,,\n"), binary,
        many_bad_rows, std::string(1 << 16, ','), std::string(kCsvHeader) + "0, a"}) {
    auto query = parse_nvidia_smi_gpu_query(text);
    EXPECT_LE(query.problems.size(), 6u);
  }
  auto query = parse_nvidia_smi_gpu_query(many_bad_rows);
  EXPECT_TRUE(query.gpus.empty());
  EXPECT_EQ(query.problems.back(), "... and 9995 more like these");
}

TEST(NvidiaSmiCsv, ControlBytesInNamesAreMadePrintable) {
  auto query =
      parse_nvidia_smi_gpu_query(std::string(kCsvHeader) +
                                 "0, GPU-a, 0000:01:00.0, \x1b[1mNVIDIA\tH100\x1b[0m \xff, 1 MiB, "
                                 "1 MiB, 1 MiB, 9.0, 1\n");
  ASSERT_EQ(query.gpus.size(), 1u);
  EXPECT_EQ(query.gpus[0].name, "NVIDIA H100 ?");
}

}  // namespace
}  // namespace hwaccel

namespace hwaccel {
namespace {

// Found by the fault matrix: output repeated (two runs' output run together,
// or a flood cut at the host's limit) must not turn its header into a GPU.
TEST(NvidiaSmiCsv, ARepeatedHeaderIsNotAGpu) {
  std::string once =
      std::string(kCsvHeader) +
      "0, GPU-a, 0000:01:00.0, NVIDIA L40S, 46068 MiB, 0 MiB, 45460 MiB, 8.9, 595.80\n";
  auto query = parse_nvidia_smi_gpu_query(once + once);
  ASSERT_EQ(query.gpus.size(), 2u);  // the probe drops the repeated GPU, not the parser
  EXPECT_EQ(query.gpus[1].name, "NVIDIA L40S");
  ASSERT_FALSE(query.problems.empty());
  EXPECT_NE(query.problems[0].find("header"), std::string::npos) << query.problems[0];
}

}  // namespace
}  // namespace hwaccel
