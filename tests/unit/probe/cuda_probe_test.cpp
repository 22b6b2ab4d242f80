#include "src/probe/cuda_probe.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <set>

#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

constexpr std::uint64_t kMiB = 1048576;
constexpr std::uint64_t kKiB = 1024;

constexpr std::string_view kHeader =
    "index, uuid, pci.bus_id, name, memory.total [MiB], memory.used [MiB], memory.free [MiB], "
    "compute_cap, driver_version\n";

// A GB10 (DGX Spark) as nvidia-smi 580.95.05 describes it: no memory of its own.
constexpr std::string_view kGb10Row =
    "0, GPU-5ed2c7a1-0000-0000-0000-000000000000, 0000000F:01:00.0, NVIDIA GB10, [N/A], [N/A], "
    "[N/A], 12.1, 580.95.05\n";

const std::vector<std::string> kArgv = cuda_query_argv(cuda_query_fields());

ToolRun exited(int code, std::string out, std::string err = {}) {
  ToolRun run;
  run.outcome = ToolOutcome::exited;
  run.exit_code = code;
  run.out = std::move(out);
  run.err = std::move(err);
  return run;
}

ToolRun ended(ToolOutcome outcome, int signal = 0) {
  ToolRun run;
  run.outcome = outcome;
  run.signal = signal;
  return run;
}

std::vector<std::string> without(std::vector<std::string> fields,
                                 const std::vector<std::string>& dropped) {
  for (const auto& field : dropped) std::erase(fields, field);
  return fields;
}

std::optional<std::string> query_section(const std::string& file) {
  auto text = testing::slurp(testing::real_capture_path(file));
  if (!text) return std::nullopt;
  return testing::capture_section(*text, "nvidia-smi --query-gpu=");
}

// nvidia-smi -L, run after every successful query: here with no MIG device
// (the MIG capture's -L is tested in cuda_capture_test.cpp).
void answer_list(testing::FakeHost& host, std::string out = "") {
  host.tools[cuda_list_argv()] = exited(0, std::move(out));
}

TEST(CudaProbe, AsksExactlyTheDocumentedQuery) {
  EXPECT_EQ(kArgv, (std::vector<std::string>{
                       "nvidia-smi",
                       "--query-gpu=index,uuid,pci.bus_id,name,memory.total,memory.used,"
                       "memory.free,compute_cap,driver_version",
                       "--format=csv"}));
}

TEST(CudaProbe, RealH100Capture) {
  auto section = query_section("nvidia-smi__linux-x86_64__nvidia-h100-mig__590.48.01.txt");
  if (!section) GTEST_FAIL() << "real capture not found under " << testing::real_capture_path("");
  testing::FakeHost host;
  // The capture asked for every field; columns are found by name, so it answers our query too.
  host.tools[kArgv] = exited(0, *section);
  answer_list(host);
  // The capture's query also has pci.bus_id and addressing_mode ("None").
  host.tools[cuda_addressing_mode_argv()] = exited(0, *section);
  auto result = CudaProbe().run(host);

  // The query first; then -L and the addressing mode, started together.
  ASSERT_EQ(host.runs.size(), 3u);
  EXPECT_EQ(host.runs.front(), kArgv);
  EXPECT_EQ((std::set<std::vector<std::string>>(host.runs.begin() + 1, host.runs.end())),
            (std::set<std::vector<std::string>>{cuda_list_argv(), cuda_addressing_mode_argv()}));
  EXPECT_EQ(result.backend.name, "cuda");
  EXPECT_TRUE(result.backend.ready);
  EXPECT_FALSE(result.backend.reason);
  EXPECT_TRUE(result.warnings.empty()) << result.warnings.front().message;
  ASSERT_EQ(result.entries.size(), 1u);
  const auto& gpu = result.entries[0];
  EXPECT_EQ(gpu.backend, "cuda");
  EXPECT_EQ(gpu.api, "nvidia-smi");
  EXPECT_EQ(gpu.index, 0);
  EXPECT_EQ(gpu.name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(gpu.vendor, "NVIDIA");
  EXPECT_EQ(gpu.pci_vendor_id, 0x10de);
  EXPECT_EQ(gpu.uuid, "GPU-00000000-0000-0000-0000-000000000000");
  EXPECT_EQ(gpu.pci_bus_id, "0000:00:09.0");
  EXPECT_EQ(gpu.physical_id, "pci:0000:00:09.0");
  EXPECT_EQ(gpu.type, DeviceType::gpu);
  EXPECT_EQ(gpu.memory.kind, MemoryKind::discrete);
  EXPECT_EQ(gpu.memory.total_bytes, 81559 * kMiB);
  EXPECT_EQ(gpu.memory.free_bytes, 81022 * kMiB);
  EXPECT_EQ(gpu.memory.source, "nvidia-smi");
  EXPECT_EQ(gpu.compute_class, "sm_90");
  EXPECT_EQ(gpu.driver_version, "590.48.01");
  EXPECT_EQ(gpu.status, EntryStatus::ready);
  EXPECT_EQ(gpu.provenance,
            std::vector<std::string>{
                "tool:nvidia-smi --query-gpu=index,uuid,pci.bus_id,name,memory.total,memory.used,"
                "memory.free,compute_cap,driver_version --format=csv"});
}

TEST(CudaProbe, EveryRealCapture) {
  struct Expected {
    std::string file, name, physical_id, compute_class, driver;
    std::uint64_t total_mib, free_mib;
  };
  const Expected captures[] = {
      {"nvidia-smi__linux-x86_64__nvidia-h200__590.48.01.txt", "NVIDIA H200", "pci:0000:83:00.0",
       "sm_90", "590.48.01", 143771, 143158},
      {"nvidia-smi__linux-x86_64__nvidia-l40s__595.80.txt", "NVIDIA L40S", "pci:0000:01:00.0",
       "sm_89", "595.80", 46068, 45460},
      {"nvidia-smi__linux-x86_64__nvidia-geforce-rtx-4080-super__595.71.05.txt",
       "NVIDIA GeForce RTX 4080 SUPER", "pci:0000:01:00.0", "sm_89", "595.71.05", 16376, 15348},
  };
  for (const auto& expected : captures) {
    auto section = query_section(expected.file);
    if (!section) GTEST_FAIL() << "real capture not found: " << expected.file;
    testing::FakeHost host;
    host.tools[kArgv] = exited(0, *section);
    answer_list(host);
    host.tools[cuda_addressing_mode_argv()] = exited(0, *section);
    auto result = CudaProbe().run(host);
    ASSERT_EQ(result.entries.size(), 1u) << expected.file;
    const auto& gpu = result.entries[0];
    EXPECT_EQ(gpu.name, expected.name);
    EXPECT_EQ(gpu.physical_id, expected.physical_id);
    EXPECT_EQ(gpu.compute_class, expected.compute_class);
    EXPECT_EQ(gpu.driver_version, expected.driver);
    EXPECT_EQ(gpu.memory.total_bytes, expected.total_mib * kMiB);
    EXPECT_EQ(gpu.memory.free_bytes, expected.free_mib * kMiB);
    EXPECT_TRUE(result.warnings.empty()) << expected.file;
  }
}

TEST(CudaProbe, Gb10UsesHostMemory) {
  testing::FakeHost host;
  host.tools[kArgv] = exited(0, std::string(kHeader) + std::string(kGb10Row));
  answer_list(host);
  host.files["/proc/meminfo"] =
      "MemTotal:       125508468 kB\nMemFree:        100000000 kB\n"
      "MemAvailable:   118000000 kB\n";
  auto result = CudaProbe().run(host);
  EXPECT_TRUE(result.backend.ready);
  EXPECT_TRUE(result.warnings.empty());
  ASSERT_EQ(result.entries.size(), 1u);
  const auto& gpu = result.entries[0];
  EXPECT_EQ(gpu.name, "NVIDIA GB10");
  EXPECT_EQ(gpu.pci_bus_id, "000f:01:00.0");
  EXPECT_EQ(gpu.physical_id, "pci:000f:01:00.0");
  EXPECT_EQ(gpu.compute_class, "sm_121");
  EXPECT_EQ(gpu.driver_version, "580.95.05");
  EXPECT_EQ(gpu.memory.kind, MemoryKind::unified);
  EXPECT_EQ(gpu.memory.total_bytes, 125508468 * kKiB);
  EXPECT_EQ(gpu.memory.free_bytes, 118000000 * kKiB);
  EXPECT_EQ(gpu.memory.source, "/proc/meminfo (MemTotal, MemAvailable)");
  ASSERT_EQ(gpu.provenance.size(), 2u);
  EXPECT_EQ(gpu.provenance[1], "file:/proc/meminfo");
}

TEST(CudaProbe, Gb10WithoutMeminfoKeepsMemoryUnknown) {
  testing::FakeHost host;
  host.tools[kArgv] = exited(0, std::string(kHeader) + std::string(kGb10Row));
  answer_list(host);
  host.errors["/proc/meminfo"] = EACCES;
  auto result = CudaProbe().run(host);
  EXPECT_TRUE(result.backend.ready);
  ASSERT_EQ(result.entries.size(), 1u);
  const auto& gpu = result.entries[0];
  EXPECT_EQ(gpu.memory.kind, MemoryKind::unified);
  EXPECT_FALSE(gpu.memory.total_bytes);
  EXPECT_FALSE(gpu.memory.free_bytes);
  EXPECT_EQ(result.warnings, (std::vector<Warning>{{"cuda",
                                                    "GPU 0 shares host memory but /proc/meminfo "
                                                    "cannot be read (EACCES); memory unknown"}}));
}

TEST(CudaProbe, EightGpusInOrder) {
  std::string out(kHeader);
  for (int i = 0; i < 8; ++i) {
    char bus[32];
    std::snprintf(bus, sizeof bus, "00000000:%02X:00.0", 0x18 + i * 0x10);
    out += std::to_string(i) + ", GPU-" + std::to_string(i) + ", " + bus +
           ", NVIDIA H100 80GB HBM3, 81559 MiB, 0 MiB, 81004 MiB, 9.0, 550.54.15\n";
  }
  testing::FakeHost host;
  host.tools[kArgv] = exited(0, out);
  auto result = CudaProbe().run(host);
  ASSERT_EQ(result.entries.size(), 8u);
  EXPECT_EQ(result.entries[7].index, 7);
  EXPECT_EQ(result.entries[7].pci_bus_id, "0000:88:00.0");
  EXPECT_EQ(result.entries[0].pci_bus_id, "0000:18:00.0");
}

TEST(CudaProbe, ToolOutcomes) {
  struct Case {
    ToolRun run;
    ReasonCode code;
    std::string detail;
  };
  const Case cases[] = {
      {ended(ToolOutcome::not_found), ReasonCode::tool_not_found, "nvidia-smi not found on PATH"},
      {ended(ToolOutcome::timeout), ReasonCode::timeout,
       "nvidia-smi did not answer within the timeout"},
      {ended(ToolOutcome::signal, 9), ReasonCode::probe_failed, "nvidia-smi killed by signal 9"},
      {ended(ToolOutcome::permission_denied), ReasonCode::permission_denied,
       "nvidia-smi may not be run by this user"},
  };
  for (const auto& c : cases) {
    testing::FakeHost host;
    host.tools[kArgv] = c.run;
    auto result = CudaProbe().run(host);
    EXPECT_FALSE(result.backend.ready);
    ASSERT_TRUE(result.backend.reason);
    EXPECT_EQ(result.backend.reason->code, c.code) << c.detail;
    EXPECT_EQ(result.backend.reason->detail, c.detail);
    EXPECT_TRUE(result.entries.empty());
    EXPECT_EQ(host.runs.size(), 1u);
  }
}

TEST(CudaProbe, DriverErrorsFromTheReadme) {
  struct Case {
    std::string out;
    ReasonCode code;
  };
  const Case cases[] = {
      {"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure "
       "that the latest NVIDIA driver is installed and running.\n",
       ReasonCode::driver_not_found},
      {"Failed to initialize NVML: Driver/library version mismatch\n", ReasonCode::probe_failed},
      {"NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that "
       "the NVIDIA Display Driver is properly installed and present in your system.\n",
       ReasonCode::driver_not_found},
      {"Failed to initialize NVML: Insufficient Permissions\n", ReasonCode::permission_denied},
      {"Unable to determine the device handle for GPU 0000:02:00.0: GPU is lost. Reboot the "
       "system to recover this GPU\n",
       ReasonCode::probe_failed},
      {"No devices were found\n", ReasonCode::no_device},
      {"Segmentation fault in libsomething\n", ReasonCode::probe_failed},
  };
  for (const auto& c : cases) {
    testing::FakeHost host;
    host.tools[kArgv] = exited(9, c.out);
    auto result = CudaProbe().run(host);
    EXPECT_FALSE(result.backend.ready);
    ASSERT_TRUE(result.backend.reason);
    EXPECT_EQ(result.backend.reason->code, c.code) << c.out;
    EXPECT_EQ(result.backend.reason->detail, c.out.substr(0, c.out.size() - 1));
    EXPECT_EQ(host.runs.size(), 1u);
  }
}

TEST(CudaProbe, ErrorOnStderrCountsToo) {
  testing::FakeHost host;
  host.tools[kArgv] =
      exited(18, "", "Failed to initialize NVML: Driver/library version mismatch\n");
  auto result = CudaProbe().run(host);
  ASSERT_TRUE(result.backend.reason);
  EXPECT_EQ(result.backend.reason->code, ReasonCode::probe_failed);
  EXPECT_EQ(result.backend.reason->detail,
            "Failed to initialize NVML: Driver/library version mismatch");
}

TEST(CudaProbe, OldDriverRejectsAFieldAndIsAskedAgain) {
  auto fields = without(cuda_query_fields(), {"compute_cap"});
  testing::FakeHost host;
  host.tools[kArgv] = exited(2,
                             "Field \"compute_cap\" is not a valid field to query.\n\n"
                             "See 'nvidia-smi --help-query-gpu' for more information.\n");
  host.tools[cuda_query_argv(fields)] = exited(
      0,
      "index, uuid, pci.bus_id, name, memory.total [MiB], memory.used [MiB], memory.free [MiB], "
      "driver_version\n"
      "0, GPU-a, 00000000:3B:00.0, Tesla V100-PCIE-16GB, 16160 MiB, 0 MiB, 16157 MiB, 450.51.06\n");
  answer_list(host);
  auto result = CudaProbe().run(host);

  EXPECT_EQ(host.runs, (std::vector<std::vector<std::string>>{kArgv, cuda_query_argv(fields),
                                                              cuda_list_argv()}));
  EXPECT_TRUE(result.backend.ready);
  EXPECT_EQ(result.warnings, (std::vector<Warning>{{"cuda",
                                                    "nvidia-smi rejected field \"compute_cap\" "
                                                    "(old driver?); retried without it"}}));
  ASSERT_EQ(result.entries.size(), 1u);
  EXPECT_EQ(result.entries[0].name, "Tesla V100-PCIE-16GB");
  EXPECT_EQ(result.entries[0].compute_class, "");
  EXPECT_EQ(result.entries[0].memory.total_bytes, 16160 * kMiB);
  EXPECT_EQ(result.entries[0].provenance,
            std::vector<std::string>{"tool:nvidia-smi --query-gpu=index,uuid,pci.bus_id,name,"
                                     "memory.total,memory.used,memory.free,driver_version "
                                     "--format=csv"});
}

TEST(CudaProbe, FieldsRejectedOneAfterAnother) {
  auto first = without(cuda_query_fields(), {"compute_cap"});
  auto second = without(first, {"driver_version"});
  testing::FakeHost host;
  host.tools[kArgv] = exited(2, "Field \"compute_cap\" is not a valid field to query.\n");
  host.tools[cuda_query_argv(first)] =
      exited(2, "Field \"driver_version\" is not a valid field to query.\n");
  host.tools[cuda_query_argv(second)] =
      exited(0, "index, name, memory.total [MiB]\n0, Tesla K80, 11441 MiB\n");
  answer_list(host);
  auto result = CudaProbe().run(host);
  EXPECT_EQ(host.runs.size(), 4u);  // three queries, then -L
  ASSERT_EQ(result.entries.size(), 1u);
  EXPECT_EQ(result.entries[0].name, "Tesla K80");
  // Two rejections, then the columns this old driver silently left out.
  ASSERT_EQ(result.warnings.size(), 2u + 4u);
  EXPECT_EQ(result.warnings[1].message,
            "nvidia-smi rejected field \"driver_version\" (old driver?); retried without it");
  EXPECT_EQ(result.warnings[2].message, "nvidia-smi output has no \"uuid\" column");
}

TEST(CudaProbe, RetriesAreBoundedByTheNumberOfFields) {
  // A tool that rejects whatever it is asked first, forever.
  testing::FakeHost host;
  auto fields = cuda_query_fields();
  while (!fields.empty()) {
    host.tools[cuda_query_argv(fields)] =
        exited(2, "Field \"" + fields.front() + "\" is not a valid field to query.\n");
    fields.erase(fields.begin());
  }
  auto result = CudaProbe().run(host);
  EXPECT_LE(host.runs.size(), cuda_query_fields().size() + 1);
  EXPECT_FALSE(result.backend.ready);
  ASSERT_TRUE(result.backend.reason);
  EXPECT_EQ(result.backend.reason->code, ReasonCode::probe_failed);
}

TEST(CudaProbe, RejectionOfAFieldNotAskedForIsAFailure) {
  testing::FakeHost host;
  host.tools[kArgv] = exited(2, "Field \"fan.speed\" is not a valid field to query.\n");
  auto result = CudaProbe().run(host);
  EXPECT_EQ(host.runs.size(), 1u);
  ASSERT_TRUE(result.backend.reason);
  EXPECT_EQ(result.backend.reason->code, ReasonCode::probe_failed);
  EXPECT_EQ(result.backend.reason->detail, "Field \"fan.speed\" is not a valid field to query.");
}

TEST(CudaProbe, HeaderWithoutRowsIsNoDevice) {
  testing::FakeHost host;
  host.tools[kArgv] = exited(0, std::string(kHeader));
  auto result = CudaProbe().run(host);
  EXPECT_FALSE(result.backend.ready);
  ASSERT_TRUE(result.backend.reason);
  EXPECT_EQ(result.backend.reason->code, ReasonCode::no_device);
  EXPECT_EQ(result.backend.reason->detail, "nvidia-smi listed no GPU");
}

TEST(CudaProbe, HeaderWithoutNameIsProbeFailed) {
  testing::FakeHost host;
  host.tools[kArgv] = exited(0, "index, uuid\n0, GPU-a\n");
  auto result = CudaProbe().run(host);
  EXPECT_FALSE(result.backend.ready);
  ASSERT_TRUE(result.backend.reason);
  EXPECT_EQ(result.backend.reason->code, ReasonCode::probe_failed);
  EXPECT_EQ(result.backend.reason->detail,
            "nvidia-smi output has no \"name\" column (first line: \"index, uuid\")");
}

TEST(CudaProbe, SuccessWithoutOutputIsProbeFailed) {
  testing::FakeHost host;
  host.tools[kArgv] = exited(0, "");
  auto result = CudaProbe().run(host);
  ASSERT_TRUE(result.backend.reason);
  EXPECT_EQ(result.backend.reason->code, ReasonCode::probe_failed);
  EXPECT_EQ(result.backend.reason->detail, "nvidia-smi printed nothing");
}

TEST(CudaProbe, SuccessWithAKnownErrorTextUsesIt) {
  testing::FakeHost host;
  host.tools[kArgv] = exited(0, "No devices were found\n");
  auto result = CudaProbe().run(host);
  ASSERT_TRUE(result.backend.reason);
  EXPECT_EQ(result.backend.reason->code, ReasonCode::no_device);
}

TEST(CudaProbe, TruncatedOutputWarnsAndShortRowsAreSkipped) {
  testing::FakeHost host;
  auto run = exited(0, std::string(kHeader) +
                           "0, GPU-a, 00000000:01:00.0, NVIDIA L40S, 46068 MiB, 0 MiB, 45460 MiB, "
                           "8.9, 595.80\n1, GPU-b, 00000000:02:00.0, NVIDIA L4");
  run.truncated = true;
  host.tools[kArgv] = run;
  answer_list(host);
  host.tools[cuda_addressing_mode_argv()] = exited(0, "pci.bus_id, addressing_mode\n");
  auto result = CudaProbe().run(host);
  EXPECT_TRUE(result.backend.ready);
  ASSERT_EQ(result.entries.size(), 1u);
  EXPECT_EQ(result.warnings,
            (std::vector<Warning>{
                {"cuda", "nvidia-smi output was cut at the host's limit; GPUs may be missing"},
                {"cuda", "nvidia-smi: row 2 has 4 cells for 9 columns; skipped"}}));
}

TEST(CudaProbe, GpuWithoutBusIdFallsBackToUuidForItsPhysicalId) {
  testing::FakeHost host;
  host.tools[kArgv] = exited(0, std::string(kHeader) +
                                    "0, GPU-abc, [N/A], NVIDIA X, 1 MiB, 0 MiB, 1 MiB, 9.0, 1\n"
                                    "[N/A], [N/A], [N/A], NVIDIA Y, 1 MiB, 0 MiB, 1 MiB, 9.0, 1\n");
  auto result = CudaProbe().run(host);
  ASSERT_EQ(result.entries.size(), 2u);
  EXPECT_EQ(result.entries[0].physical_id, "nvidia:GPU-abc");
  EXPECT_EQ(result.entries[1].index, 1);  // no index column value: the row's position
  EXPECT_EQ(result.entries[1].physical_id, "cuda:1");
}

TEST(CudaProbe, GarbageOutputNeverThrows) {
  std::string binary;
  for (int i = 0; i < 100000; ++i) binary += static_cast<char>((i * 7919) & 0xff);
  for (int code : {0, 1}) {
    for (const std::string& out : {binary, std::string(1 << 16, ','), std::string(1 << 20, '\n'),
                                   std::string("name\n") + binary}) {
      testing::FakeHost host;
      host.tools[kArgv] = exited(code, out, binary);
      auto result = CudaProbe().run(host);
      if (!result.backend.ready) {
        ASSERT_TRUE(result.backend.reason);
        EXPECT_LE(result.backend.reason->detail.size(), 200u);
      }
      EXPECT_LE(result.warnings.size(), 20u);
    }
  }
}

}  // namespace
}  // namespace hwaccel
