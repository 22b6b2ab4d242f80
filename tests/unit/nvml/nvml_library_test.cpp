// libnvidia-ml.so.1 through its C ABI, as a program loads it: struct layouts,
// return codes, the calling rules (init first, version fields, buffer sizes) and
// stubs that answer NOT_SUPPORTED.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "nvml/nvml_abi.h"
#include "nvml/nvml_abi_v13.h"
#include "tests/support/test_support.h"

namespace {

class NvmlLibrary : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    lib_ = ::dlopen(HWACCEL_BIN_DIR "/libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(lib_, nullptr) << ::dlerror();
  }
  void TearDown() override {
    while (call<nvmlReturn_t (*)()>("nvmlShutdown")() == NVML_SUCCESS) {
    }
  }
  template <typename F>
  static F call(const char* name) {
    void* f = ::dlsym(lib_, name);
    EXPECT_NE(f, nullptr) << name;
    return reinterpret_cast<F>(f);
  }
  static nvmlReturn_t init_on(const std::string& fixture) {
    std::string path = hwaccel::testing::source_path("fixtures/hosts/" + fixture + ".yaml");
    ::setenv("HWSIM_NVML_SNAPSHOT", path.c_str(), 1);
    return call<nvmlReturn_t (*)()>("nvmlInit_v2")();
  }
  static nvmlDevice_t device(unsigned index) {
    nvmlDevice_t d = nullptr;
    EXPECT_EQ(
        call<nvmlReturn_t (*)(unsigned, nvmlDevice_t*)>("nvmlDeviceGetHandleByIndex_v2")(index, &d),
        NVML_SUCCESS);
    return d;
  }
  static void* lib_;
};
void* NvmlLibrary::lib_ = nullptr;

using DeviceUint = nvmlReturn_t (*)(nvmlDevice_t, unsigned*);

TEST_F(NvmlLibrary, CallsBeforeInitAreUninitialized) {
  unsigned count = 0;
  EXPECT_EQ(call<nvmlReturn_t (*)(unsigned*)>("nvmlDeviceGetCount_v2")(&count),
            NVML_ERROR_UNINITIALIZED);
  EXPECT_EQ(call<nvmlReturn_t (*)()>("nvmlShutdown")(), NVML_ERROR_UNINITIALIZED);
}

TEST_F(NvmlLibrary, InitCountsAndShutdownUnwinds) {
  ASSERT_EQ(init_on("dgx-h100"), NVML_SUCCESS);
  ASSERT_EQ(call<nvmlReturn_t (*)(unsigned)>("nvmlInitWithFlags")(0), NVML_SUCCESS);
  unsigned count = 0;
  EXPECT_EQ(call<nvmlReturn_t (*)(unsigned*)>("nvmlDeviceGetCount")(&count), NVML_SUCCESS);
  EXPECT_EQ(count, 8u);
  EXPECT_EQ(call<nvmlReturn_t (*)()>("nvmlShutdown")(), NVML_SUCCESS);
  EXPECT_EQ(call<nvmlReturn_t (*)(unsigned*)>("nvmlDeviceGetCount")(&count), NVML_SUCCESS);
}

TEST_F(NvmlLibrary, PciInfoV3Layout) {
  ASSERT_EQ(init_on("dgx-h100"), NVML_SUCCESS);
  nvmlPciInfo_t pci;
  std::memset(&pci, 0x7f, sizeof pci);
  ASSERT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, nvmlPciInfo_t*)>("nvmlDeviceGetPciInfo_v3")(
                device(0), &pci),
            NVML_SUCCESS);
  EXPECT_STREQ(pci.busId, "00000000:1B:00.0");
  EXPECT_STREQ(pci.busIdLegacy, "0000:1B:00.0");
  EXPECT_EQ(pci.bus, 0x1bu);
  EXPECT_EQ(pci.pciDeviceId, 0x233010deu);
  nvmlDevice_t by_bus = nullptr;
  using ByString = nvmlReturn_t (*)(const char*, nvmlDevice_t*);
  EXPECT_EQ(call<ByString>("nvmlDeviceGetHandleByPciBusId_v2")("0000:1b:00.0", &by_bus),
            NVML_SUCCESS);
  EXPECT_EQ(by_bus, device(0));
  EXPECT_EQ(call<ByString>("nvmlDeviceGetHandleByPciBusId_v2")("0000:ff:00.0", &by_bus),
            NVML_ERROR_NOT_FOUND);
  nvmlPciInfo_v1_t old;
  ASSERT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, nvmlPciInfo_v1_t*)>("nvmlDeviceGetPciInfo")(
                device(0), &old),
            NVML_SUCCESS);
  EXPECT_STREQ(old.busId, "0000:1B:00.0");
}

TEST_F(NvmlLibrary, MemoryV2NeedsItsVersion) {
  ASSERT_EQ(init_on("dgx-h100"), NVML_SUCCESS);
  using Mem2 = nvmlReturn_t (*)(nvmlDevice_t, nvmlMemory_v2_t*);
  nvmlMemory_v2_t m{};
  EXPECT_EQ(call<Mem2>("nvmlDeviceGetMemoryInfo_v2")(device(0), &m),
            NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
  m.version = nvmlMemory_v2;
  ASSERT_EQ(call<Mem2>("nvmlDeviceGetMemoryInfo_v2")(device(0), &m), NVML_SUCCESS);
  EXPECT_EQ(m.total, 85520809984ull);
  EXPECT_EQ(m.total, m.free + m.used + m.reserved);
}

TEST_F(NvmlLibrary, Gb10HasNoFramebufferMemory) {
  ASSERT_EQ(init_on("gx10"), NVML_SUCCESS);
  nvmlMemory_t m{};
  EXPECT_EQ(
      call<nvmlReturn_t (*)(nvmlDevice_t, nvmlMemory_t*)>("nvmlDeviceGetMemoryInfo")(device(0), &m),
      NVML_ERROR_NOT_SUPPORTED);
  int major = 0, minor = 0;
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, int*, int*)>("nvmlDeviceGetCudaComputeCapability")(
                device(0), &major, &minor),
            NVML_SUCCESS);
  EXPECT_EQ(major * 10 + minor, 121);
}

TEST_F(NvmlLibrary, StringsNeedRoomForTheirNul) {
  ASSERT_EQ(init_on("dgx-h100"), NVML_SUCCESS);
  using Str = nvmlReturn_t (*)(nvmlDevice_t, char*, unsigned);
  char name[64];
  EXPECT_EQ(call<Str>("nvmlDeviceGetName")(device(0), name, 5), NVML_ERROR_INSUFFICIENT_SIZE);
  ASSERT_EQ(call<Str>("nvmlDeviceGetName")(device(0), name, sizeof name), NVML_SUCCESS);
  EXPECT_STREQ(name, "NVIDIA H100 80GB HBM3");
  char version[80];
  ASSERT_EQ(call<nvmlReturn_t (*)(char*, unsigned)>("nvmlSystemGetNVMLVersion")(version, 80),
            NVML_SUCCESS);
  EXPECT_STREQ(version, "12.550.54.15");
}

TEST_F(NvmlLibrary, ForeignHandlesAreRefused) {
  ASSERT_EQ(init_on("dgx-h100"), NVML_SUCCESS);
  int not_a_gpu = 0;
  char name[64];
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, char*, unsigned)>("nvmlDeviceGetName")(
                reinterpret_cast<nvmlDevice_t>(&not_a_gpu), name, sizeof name),
            NVML_ERROR_INVALID_ARGUMENT);
  nvmlDevice_t d = nullptr;
  EXPECT_EQ(call<nvmlReturn_t (*)(unsigned, nvmlDevice_t*)>("nvmlDeviceGetHandleByIndex")(8, &d),
            NVML_ERROR_INVALID_ARGUMENT);
}

TEST_F(NvmlLibrary, MigHandles) {
  ASSERT_EQ(init_on("h100-mig"), NVML_SUCCESS);
  unsigned current = 9, pending = 9, max = 0, is_mig = 9, gi = 0;
  ASSERT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, unsigned*, unsigned*)>("nvmlDeviceGetMigMode")(
                device(0), &current, &pending),
            NVML_SUCCESS);
  EXPECT_EQ(current, NVML_DEVICE_MIG_ENABLE);
  EXPECT_EQ(call<DeviceUint>("nvmlDeviceGetMaxMigDeviceCount")(device(0), &max), NVML_SUCCESS);
  EXPECT_EQ(max, 7u);
  nvmlDevice_t mig = nullptr, parent = nullptr;
  using MigByIndex = nvmlReturn_t (*)(nvmlDevice_t, unsigned, nvmlDevice_t*);
  ASSERT_EQ(call<MigByIndex>("nvmlDeviceGetMigDeviceHandleByIndex")(device(0), 1, &mig),
            NVML_SUCCESS);
  EXPECT_EQ(call<MigByIndex>("nvmlDeviceGetMigDeviceHandleByIndex")(device(0), 4, &parent),
            NVML_ERROR_NOT_FOUND);
  EXPECT_EQ(call<DeviceUint>("nvmlDeviceIsMigDeviceHandle")(mig, &is_mig), NVML_SUCCESS);
  EXPECT_EQ(is_mig, 1u);
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, nvmlDevice_t*)>(
                "nvmlDeviceGetDeviceHandleFromMigDeviceHandle")(mig, &parent),
            NVML_SUCCESS);
  EXPECT_EQ(parent, device(0));
  // -q recorded the GPU instance ids; the whole GPU has none.
  EXPECT_EQ(call<DeviceUint>("nvmlDeviceGetGpuInstanceId")(device(0), &gi),
            NVML_ERROR_NOT_SUPPORTED);
  nvmlDevice_t by_uuid = nullptr;
  EXPECT_EQ(call<nvmlReturn_t (*)(const char*, nvmlDevice_t*)>("nvmlDeviceGetHandleByUUID")(
                "MIG-00000001-0000-0000-0000-000000000001", &by_uuid),
            NVML_SUCCESS);
  EXPECT_EQ(by_uuid, mig);
}

// The recorded H100's four MIG devices as NVML's GPU and compute instances: the
// 3g.40gb at GPU instance 2 (memory slices 4-7), the 2g.20gb at 3 (0-1), the two
// 1g.10gb at 9 and 10 (2 and 3), each with one compute instance 0.
TEST_F(NvmlLibrary, MigProfilesAndInstances) {
  ASSERT_EQ(init_on("h100-mig"), NVML_SUCCESS);
  nvmlGpuInstanceProfileInfo_t v1{};
  using ProfileV1 = nvmlReturn_t (*)(nvmlDevice_t, unsigned, nvmlGpuInstanceProfileInfo_t*);
  ASSERT_EQ(call<ProfileV1>("nvmlDeviceGetGpuInstanceProfileInfo")(device(0), 2, &v1),
            NVML_SUCCESS);  // NVML_GPU_INSTANCE_PROFILE_3_SLICE
  EXPECT_EQ(v1.id, 9u);
  EXPECT_EQ(v1.sliceCount, 3u);
  EXPECT_EQ(v1.instanceCount, 2u);
  EXPECT_EQ(v1.multiprocessorCount, 60u);  // -q's Multiprocessor count of the 3g.40gb
  EXPECT_EQ(v1.memorySizeMB, 40448u);      // -q's Shared FB Memory Total
  using ProfileV = nvmlReturn_t (*)(nvmlDevice_t, unsigned, nvmlGpuInstanceProfileInfo_v2_t*);
  nvmlGpuInstanceProfileInfo_v2_t v2{};
  v2.version = nvmlGpuInstanceProfileInfo_v2;
  ASSERT_EQ(call<ProfileV>("nvmlDeviceGetGpuInstanceProfileInfoV")(device(0), 0, &v2),
            NVML_SUCCESS);
  EXPECT_EQ(v2.id, 19u);
  EXPECT_STREQ(v2.name, "MIG 1g.10gb");
  EXPECT_EQ(v2.memorySizeMB, 9984u);
  nvmlGpuInstanceProfileInfo_v3_t v3{};
  v3.version = nvmlGpuInstanceProfileInfo_v3;
  ASSERT_EQ(call<ProfileV>("nvmlDeviceGetGpuInstanceProfileInfoV")(
                device(0), 4, reinterpret_cast<nvmlGpuInstanceProfileInfo_v2_t*>(&v3)),
            NVML_SUCCESS);
  EXPECT_EQ(v3.id, 0u);
  EXPECT_EQ(v3.sliceCount, 7u);
  EXPECT_EQ(v3.memorySizeMB, 81152u);
  EXPECT_STREQ(v3.name, "MIG 7g.80gb");
  v2.version = 1;
  EXPECT_EQ(call<ProfileV>("nvmlDeviceGetGpuInstanceProfileInfoV")(device(0), 0, &v2),
            NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
  EXPECT_EQ(call<ProfileV1>("nvmlDeviceGetGpuInstanceProfileInfo")(device(0), 6, &v1),
            NVML_ERROR_NOT_SUPPORTED);  // 6_SLICE: not an H100 profile
  EXPECT_EQ(call<ProfileV1>("nvmlDeviceGetGpuInstanceProfileInfo")(device(0), 17, &v1),
            NVML_ERROR_INVALID_ARGUMENT);

  using Placements =
      nvmlReturn_t (*)(nvmlDevice_t, unsigned, nvmlGpuInstancePlacement_t*, unsigned*);
  unsigned count = 0;
  nvmlGpuInstancePlacement_t places[8]{};
  ASSERT_EQ(call<Placements>("nvmlDeviceGetGpuInstancePossiblePlacements_v2")(device(0), 14,
                                                                              nullptr, &count),
            NVML_SUCCESS);
  EXPECT_EQ(count, 3u);
  call<Placements>("nvmlDeviceGetGpuInstancePossiblePlacements_v2")(device(0), 14, places, &count);
  EXPECT_EQ(places[2].start, 4u);
  EXPECT_EQ(places[2].size, 2u);
  // Every memory slice is taken: nothing more fits.
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, unsigned, unsigned*)>(
                "nvmlDeviceGetGpuInstanceRemainingCapacity")(device(0), 19, &count),
            NVML_SUCCESS);
  EXPECT_EQ(count, 0u);

  using Instances = nvmlReturn_t (*)(nvmlDevice_t, unsigned, nvmlGpuInstance_t*, unsigned*);
  nvmlGpuInstance_t gis[7]{};
  ASSERT_EQ(call<Instances>("nvmlDeviceGetGpuInstances")(device(0), 19, gis, &count), NVML_SUCCESS);
  EXPECT_EQ(count, 2u);  // the two 1g.10gb
  nvmlGpuInstanceInfo_t info{};
  using Info = nvmlReturn_t (*)(nvmlGpuInstance_t, nvmlGpuInstanceInfo_t*);
  ASSERT_EQ(call<Info>("nvmlGpuInstanceGetInfo")(gis[1], &info), NVML_SUCCESS);
  EXPECT_EQ(info.device, device(0));
  EXPECT_EQ(info.id, 10u);
  EXPECT_EQ(info.profileId, 19u);
  EXPECT_EQ(info.placement.start, 3u);
  EXPECT_EQ(info.placement.size, 1u);
  nvmlGpuInstance_t gi = nullptr;
  using ById = nvmlReturn_t (*)(nvmlDevice_t, unsigned, nvmlGpuInstance_t*);
  ASSERT_EQ(call<ById>("nvmlDeviceGetGpuInstanceById")(device(0), 2, &gi), NVML_SUCCESS);
  ASSERT_EQ(call<Info>("nvmlGpuInstanceGetInfo")(gi, &info), NVML_SUCCESS);
  EXPECT_EQ(info.profileId, 9u);
  EXPECT_EQ(info.placement.start, 4u);
  EXPECT_EQ(info.placement.size, 4u);
  EXPECT_EQ(call<ById>("nvmlDeviceGetGpuInstanceById")(device(0), 1, &gi), NVML_ERROR_NOT_FOUND);
  call<ById>("nvmlDeviceGetGpuInstanceById")(device(0), 2, &gi);

  nvmlComputeInstanceProfileInfo_v2_t cp{};
  cp.version = nvmlComputeInstanceProfileInfo_v2;
  using CiProfile =
      nvmlReturn_t (*)(nvmlGpuInstance_t, unsigned, unsigned, nvmlComputeInstanceProfileInfo_v2_t*);
  ASSERT_EQ(call<CiProfile>("nvmlGpuInstanceGetComputeInstanceProfileInfoV")(gi, 2, 0, &cp),
            NVML_SUCCESS);  // NVML_COMPUTE_INSTANCE_PROFILE_3_SLICE
  EXPECT_EQ(cp.sliceCount, 3u);
  EXPECT_EQ(cp.multiprocessorCount, 60u);
  EXPECT_EQ(cp.sharedCopyEngineCount, 3u);
  using Cis = nvmlReturn_t (*)(nvmlGpuInstance_t, unsigned, nvmlComputeInstance_t*, unsigned*);
  nvmlComputeInstance_t cis[3]{};
  ASSERT_EQ(call<Cis>("nvmlGpuInstanceGetComputeInstances")(gi, 2, cis, &count), NVML_SUCCESS);
  ASSERT_EQ(count, 1u);
  nvmlComputeInstanceInfo_t ci{};
  ASSERT_EQ(call<nvmlReturn_t (*)(nvmlComputeInstance_t, nvmlComputeInstanceInfo_t*)>(
                "nvmlComputeInstanceGetInfo_v2")(cis[0], &ci),
            NVML_SUCCESS);
  EXPECT_EQ(ci.device, device(0));
  EXPECT_EQ(ci.gpuInstance, gi);
  EXPECT_EQ(ci.id, 0u);
  EXPECT_EQ(ci.profileId, 2u);
  EXPECT_EQ(ci.placement.size, 3u);
  // A handle of another kind is refused, never read.
  EXPECT_EQ(
      call<Info>("nvmlGpuInstanceGetInfo")(reinterpret_cast<nvmlGpuInstance_t>(cis[0]), &info),
      NVML_ERROR_INVALID_ARGUMENT);
}

// The recorded H100 MIG host with its GPU renamed and resized (an A100-SXM4-80GB,
// an H100 NVL): NVML's profile answers are those SKUs' tables' (src/catalog/mig_profiles.cpp).
std::string mig_host_as(const std::string& name, const std::string& total, const std::string& tag) {
  auto fixture =
      hwaccel::testing::slurp(hwaccel::testing::source_path("fixtures/hosts/h100-mig.yaml"));
  if (!fixture) return "";
  std::string text = *fixture;
  auto replace_all = [&text](const std::string& from, const std::string& to) {
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  };
  replace_all("NVIDIA H100 80GB HBM3", name);
  replace_all("81559 MiB", total);
  const std::string path = ::testing::TempDir() + "nvml-mig-" + tag + ".yaml";
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return "";
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  return path;
}

TEST_F(NvmlLibrary, MigProfilesOfAnA100Sxm80GBAndAnH100Nvl) {
  using ProfileV1 = nvmlReturn_t (*)(nvmlDevice_t, unsigned, nvmlGpuInstanceProfileInfo_t*);
  using ProfileV = nvmlReturn_t (*)(nvmlDevice_t, unsigned, nvmlGpuInstanceProfileInfo_v2_t*);
  const std::string a100 = mig_host_as("NVIDIA A100-SXM4-80GB", "81920 MiB", "a100");
  ASSERT_FALSE(a100.empty());
  ::setenv("HWSIM_NVML_SNAPSHOT", a100.c_str(), 1);
  ASSERT_EQ(call<nvmlReturn_t (*)()>("nvmlInit_v2")(), NVML_SUCCESS);
  nvmlGpuInstanceProfileInfo_t v1{};
  ASSERT_EQ(call<ProfileV1>("nvmlDeviceGetGpuInstanceProfileInfo")(device(0), 2, &v1),
            NVML_SUCCESS);  // NVML_GPU_INSTANCE_PROFILE_3_SLICE
  EXPECT_EQ(v1.id, 9u);
  EXPECT_EQ(v1.memorySizeMB, 40192u);  // -lgip's 39.25 GiB
  EXPECT_EQ(v1.multiprocessorCount, 42u);
  EXPECT_EQ(v1.decoderCount, 2u);
  nvmlGpuInstanceProfileInfo_v2_t v2{};
  v2.version = nvmlGpuInstanceProfileInfo_v2;
  ASSERT_EQ(call<ProfileV>("nvmlDeviceGetGpuInstanceProfileInfoV")(device(0), 4, &v2),
            NVML_SUCCESS);
  EXPECT_STREQ(v2.name, "MIG 7g.80gb");
  EXPECT_EQ(v2.memorySizeMB, 80896u);  // 79.00 GiB
  // The recorded 3g.40gb (GPU instance 2) is one of this table's profiles too.
  nvmlGpuInstance_t gi = nullptr;
  ASSERT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, unsigned, nvmlGpuInstance_t*)>(
                "nvmlDeviceGetGpuInstanceById")(device(0), 2, &gi),
            NVML_SUCCESS);
  nvmlGpuInstanceInfo_t info{};
  ASSERT_EQ(call<nvmlReturn_t (*)(nvmlGpuInstance_t, nvmlGpuInstanceInfo_t*)>(
                "nvmlGpuInstanceGetInfo")(gi, &info),
            NVML_SUCCESS);
  EXPECT_EQ(info.profileId, 9u);
  EXPECT_EQ(info.placement.start, 4u);
  EXPECT_EQ(call<nvmlReturn_t (*)()>("nvmlShutdown")(), NVML_SUCCESS);
  std::remove(a100.c_str());

  const std::string nvl = mig_host_as("NVIDIA H100 NVL", "95830 MiB", "nvl");
  ASSERT_FALSE(nvl.empty());
  ::setenv("HWSIM_NVML_SNAPSHOT", nvl.c_str(), 1);
  ASSERT_EQ(call<nvmlReturn_t (*)()>("nvmlInit_v2")(), NVML_SUCCESS);
  ASSERT_EQ(call<ProfileV1>("nvmlDeviceGetGpuInstanceProfileInfo")(device(0), 0, &v1),
            NVML_SUCCESS);
  EXPECT_EQ(v1.id, 19u);
  EXPECT_EQ(v1.memorySizeMB, 10880u);  // -lgip's 10.62 GiB
  ASSERT_EQ(call<ProfileV>("nvmlDeviceGetGpuInstanceProfileInfoV")(device(0), 4, &v2),
            NVML_SUCCESS);
  EXPECT_STREQ(v2.name, "MIG 7g.94gb");
  EXPECT_EQ(v2.memorySizeMB, 94848u);  // 92.62 GiB
  EXPECT_EQ(v2.multiprocessorCount, 132u);
  std::remove(nvl.c_str());
}

// Memory v2 splits what the driver reserves from what is used (-q's Reserved).
TEST_F(NvmlLibrary, MemoryV2Reserved) {
  ASSERT_EQ(init_on("h100-mig"), NVML_SUCCESS);
  nvmlMemory_v2_t m{};
  m.version = nvmlMemory_v2;
  ASSERT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, nvmlMemory_v2_t*)>("nvmlDeviceGetMemoryInfo_v2")(
                device(0), &m),
            NVML_SUCCESS);
  constexpr unsigned long long MiB = 1ull << 20;
  EXPECT_EQ(m.total, 81559 * MiB);
  EXPECT_EQ(m.free, 81022 * MiB);
  EXPECT_EQ(m.reserved, 479 * MiB);
  EXPECT_EQ(m.used, 58 * MiB);  // -q says 59: its figures are each rounded to MiB
}

// No MIG mode, no profiles: as `nvidia-smi mig -lgip` finds no MIG-enabled device.
TEST_F(NvmlLibrary, NoMigProfilesWithoutMigMode) {
  ASSERT_EQ(init_on("dgx-h100"), NVML_SUCCESS);
  nvmlGpuInstanceProfileInfo_t v1{};
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, unsigned, nvmlGpuInstanceProfileInfo_t*)>(
                "nvmlDeviceGetGpuInstanceProfileInfo")(device(0), 0, &v1),
            NVML_ERROR_NOT_SUPPORTED);
}

// hwsim run --latency sets HWSIM_LATENCY=1: by the time init returns, the process
// has taken the recorded host's start-up (here a recorded hwaccel-nvml run of 100
// ms), counted from the process's start (its CPU time so far stands in) but from
// no earlier than 5 ms before the call: a program that calls init late (this one
// has worked 50 ms first) still waits the rest of the start-up.
TEST_F(NvmlLibrary, InitTakesTheRecordedStartUpUnderLatency) {
  auto fixture = hwaccel::testing::slurp(
      hwaccel::testing::source_path("fixtures/hosts/h200-firecracker.yaml"));
  ASSERT_TRUE(fixture);
  std::string text = *fixture;
  text +=
      "  - argv: [hwaccel-nvml]\n    exit: 0\n    stdout: \"\"\n    stderr: \"\"\n    ms: 100\n";
  const std::string path = ::testing::TempDir() + "nvml-latency-host.yaml";
  {
    std::FILE* f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  }
  auto process_cpu = [] {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec);
  };
  ::setenv("HWSIM_NVML_SNAPSHOT", path.c_str(), 1);
  ::setenv("HWSIM_LATENCY", "1", 1);
  // The process has worked 50 ms of CPU before it calls init (a program that
  // loads NVML late).
  const auto cpu_start = process_cpu();
  volatile unsigned spin = 0;
  while (process_cpu() - cpu_start < std::chrono::milliseconds(50)) spin = spin + 1;
  const auto start = std::chrono::steady_clock::now();
  const nvmlReturn_t r = call<nvmlReturn_t (*)()>("nvmlInit_v2")();
  const auto took = std::chrono::steady_clock::now() - start;
  ::unsetenv("HWSIM_LATENCY");
  ASSERT_EQ(r, NVML_SUCCESS);
  // The recorded 100 ms, less at most the 5 ms credited for the process's start
  // (counting from the process's start uncapped would wait under 50 ms here).
  EXPECT_GE(took, std::chrono::milliseconds(95));
  std::remove(path.c_str());
}

TEST_F(NvmlLibrary, BrokenDriversFailInit) {
  EXPECT_EQ(init_on("nvidia-no-driver"), NVML_ERROR_DRIVER_NOT_LOADED);
  EXPECT_EQ(init_on("nvidia-mismatch"), NVML_ERROR_LIB_RM_VERSION_MISMATCH);
  EXPECT_STREQ(
      call<const char* (*)(nvmlReturn_t)>("nvmlErrorString")(NVML_ERROR_LIB_RM_VERSION_MISMATCH),
      "Driver/library version mismatch");
  ::setenv("HWSIM_NVML_SNAPSHOT", "/nonexistent/snapshot.yaml", 1);
  EXPECT_EQ(call<nvmlReturn_t (*)()>("nvmlInit")(), NVML_ERROR_DRIVER_NOT_LOADED);
}

// Stubs, and figures the fixture did not record (NvmlMonitor has the recorded ones).
TEST_F(NvmlLibrary, EveryOtherFunctionIsNotSupported) {
  ASSERT_EQ(init_on("dgx-h100"), NVML_SUCCESS);
  unsigned value = 0;
  for (const char* name :
       {"nvmlDeviceGetPowerUsage", "nvmlDeviceGetFanSpeed", "nvmlDeviceGetPowerManagementLimit",
        "nvmlDeviceGetMemoryBusWidth", "nvmlDeviceGetNumGpuCores"})
    EXPECT_EQ(call<DeviceUint>(name)(device(0), &value), NVML_ERROR_NOT_SUPPORTED) << name;
  EXPECT_EQ(call<nvmlReturn_t (*)(unsigned*)>("nvmlSystemGetNvlinkBwMode")(&value),
            NVML_ERROR_NOT_SUPPORTED);
}

// The IRQ is the driver's information file's (dgx-h100: "IRQ: 10" on every GPU); a
// host whose snapshot has no such file answers NOT_SUPPORTED.
TEST_F(NvmlLibrary, TheIrqIsTheDriversInformationFiles) {
  ASSERT_EQ(init_on("dgx-h100"), NVML_SUCCESS);
  unsigned irq = 0;
  ASSERT_EQ(call<DeviceUint>("nvmlDeviceGetIrqNum")(device(5), &irq), NVML_SUCCESS);
  EXPECT_EQ(irq, 10u);
  EXPECT_EQ(call<DeviceUint>("nvmlDeviceGetIrqNum")(device(5), nullptr),
            NVML_ERROR_INVALID_ARGUMENT);
  while (call<nvmlReturn_t (*)()>("nvmlShutdown")() == NVML_SUCCESS) {
  }
  ASSERT_EQ(init_on("h100-mig"), NVML_SUCCESS);
  EXPECT_EQ(call<DeviceUint>("nvmlDeviceGetIrqNum")(device(0), &irq), NVML_ERROR_NOT_SUPPORTED);
}

TEST_F(NvmlLibrary, NvLinkOnASwitchFabric) {
  ASSERT_EQ(init_on("dgx-h100"), NVML_SUCCESS);
  using Link = nvmlReturn_t (*)(nvmlDevice_t, unsigned, int*);
  int active = 0, type = -1;
  ASSERT_EQ(call<Link>("nvmlDeviceGetNvLinkState")(device(3), 17, &active), NVML_SUCCESS);
  EXPECT_EQ(active, NVML_FEATURE_ENABLED);
  EXPECT_EQ(call<Link>("nvmlDeviceGetNvLinkState")(device(3), 18, &active),
            NVML_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(call<Link>("nvmlDeviceGetNvLinkRemoteDeviceType")(device(3), 0, &type), NVML_SUCCESS);
  EXPECT_EQ(type, NVML_NVLINK_DEVICE_TYPE_SWITCH);
  unsigned version = 0;
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, unsigned, unsigned*)>("nvmlDeviceGetNvLinkVersion")(
                device(3), 0, &version),
            NVML_SUCCESS);
  EXPECT_EQ(version, 4u);  // Hopper
  int level = -1;
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, nvmlDevice_t, int*)>(
                "nvmlDeviceGetTopologyCommonAncestor")(device(0), device(4), &level),
            NVML_SUCCESS);
  EXPECT_EQ(level, NVML_TOPOLOGY_SYSTEM);  // NUMA node 0 and node 1
}

TEST_F(NvmlLibrary, AddressingAndC2cOnGraceHopper) {
  ASSERT_EQ(init_on("gh200"), NVML_SUCCESS);
  using Mode = nvmlReturn_t (*)(nvmlDevice_t, nvmlDeviceAddressingMode_t*);
  nvmlDeviceAddressingMode_t mode{};
  EXPECT_EQ(call<Mode>("nvmlDeviceGetAddressingMode")(device(0), &mode),
            NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
  mode.version = nvmlDeviceAddressingMode_v1;
  ASSERT_EQ(call<Mode>("nvmlDeviceGetAddressingMode")(device(0), &mode), NVML_SUCCESS);
  EXPECT_EQ(mode.value, NVML_DEVICE_ADDRESSING_MODE_ATS);
  nvmlC2cModeInfo_v1_t c2c{};
  ASSERT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, nvmlC2cModeInfo_v1_t*)>(
                "nvmlDeviceGetC2cModeInfoV")(device(0), &c2c),
            NVML_SUCCESS);
  EXPECT_EQ(c2c.isC2cEnabled, 1u);
  // No -q recorded: what only -q says is not supported, never made up.
  int persistence = -1;
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, int*)>("nvmlDeviceGetPersistenceMode")(
                device(0), &persistence),
            NVML_ERROR_NOT_SUPPORTED);
}

TEST_F(NvmlLibrary, NoAddressingModeBeforeDriver580) {
  ASSERT_EQ(init_on("dgx-h100"), NVML_SUCCESS);
  nvmlDeviceAddressingMode_t mode{nvmlDeviceAddressingMode_v1, 0};
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, nvmlDeviceAddressingMode_t*)>(
                "nvmlDeviceGetAddressingMode")(device(0), &mode),
            NVML_ERROR_NOT_SUPPORTED);
}

// System events (driver bind/unbind): none happens on a simulated host, so a wait
// sleeps its timeout and times out, as a quiet real host's does.
TEST_F(NvmlLibrary, SystemEventsNeverArriveAndWaitsEndInTheirTimeout) {
  ASSERT_EQ(init_on("dgx-h100"), NVML_SUCCESS);
  nvmlSystemEventSetCreateRequest_t create{nvmlSystemEventSetCreateRequest_v1, {nullptr}};
  auto make =
      call<nvmlReturn_t (*)(nvmlSystemEventSetCreateRequest_t*)>("nvmlSystemEventSetCreate");
  ASSERT_EQ(make(&create), NVML_SUCCESS);
  ASSERT_NE(create.set.handle, nullptr);
  auto reg = call<nvmlReturn_t (*)(nvmlSystemRegisterEventRequest_t*)>("nvmlSystemRegisterEvents");
  nvmlSystemRegisterEventRequest_t request{
      nvmlSystemRegisterEventRequest_v1,
      nvmlSystemEventTypeGpuDriverBind | nvmlSystemEventTypeGpuDriverUnbind, create.set};
  EXPECT_EQ(reg(&request), NVML_SUCCESS);
  request.eventTypes = 0x4;  // no such system event
  EXPECT_EQ(reg(&request), NVML_ERROR_NOT_SUPPORTED);
  nvmlSystemEventData_t data[2] = {};
  nvmlSystemEventSetWaitRequest_t wait{nvmlSystemEventSetWaitRequest_v1, 5, create.set, data, 2, 7};
  auto wait_for =
      call<nvmlReturn_t (*)(nvmlSystemEventSetWaitRequest_t*)>("nvmlSystemEventSetWait");
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(wait_for(&wait), NVML_ERROR_TIMEOUT);
  const auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_GE(waited, std::chrono::milliseconds(5));
  EXPECT_LT(waited, std::chrono::seconds(2));
  EXPECT_EQ(wait.numEvent, 0u);
  wait.version = 1;
  EXPECT_EQ(wait_for(&wait), NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
  auto free_set =
      call<nvmlReturn_t (*)(nvmlSystemEventSetFreeRequest_t*)>("nvmlSystemEventSetFree");
  nvmlSystemEventSetFreeRequest_t release{nvmlSystemEventSetFreeRequest_v1, create.set};
  EXPECT_EQ(free_set(&release), NVML_SUCCESS);
  EXPECT_EQ(free_set(&release), NVML_ERROR_INVALID_ARGUMENT);
  wait.version = nvmlSystemEventSetWaitRequest_v1;
  EXPECT_EQ(wait_for(&wait), NVML_ERROR_INVALID_ARGUMENT);  // a freed set
}

// The versioned UUID lookup takes the UUID as text or as its 16 bytes; no HIC on a
// host without S-class units; GPM: an Ampere GPU answers "not supported".
TEST_F(NvmlLibrary, UuidLookupHicAndGpmSupport) {
  ASSERT_EQ(init_on("dgx-h100"), NVML_SUCCESS);
  char text[96] = {};
  ASSERT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, char*, unsigned)>("nvmlDeviceGetUUID")(
                device(3), text, sizeof text),
            NVML_SUCCESS);
  auto by_uuid =
      call<nvmlReturn_t (*)(const nvmlUUID_t*, nvmlDevice_t*)>("nvmlDeviceGetHandleByUUIDV");
  nvmlUUID_t uuid{};
  uuid.version = nvmlUUID_v1;
  uuid.type = NVML_UUID_TYPE_ASCII;
  std::strncpy(uuid.value.str, text, sizeof uuid.value.str - 1);
  nvmlDevice_t found = nullptr;
  ASSERT_EQ(by_uuid(&uuid, &found), NVML_SUCCESS);
  EXPECT_EQ(found, device(3));
  // "GPU-" and 32 hex digits: the bytes in order.
  std::string hex;
  for (const char* c = text + 4; *c; ++c)
    if (*c != '-') hex += *c;
  ASSERT_EQ(hex.size(), 32u);
  nvmlUUID_t binary{};
  binary.version = nvmlUUID_v1;
  binary.type = NVML_UUID_TYPE_BINARY;
  for (unsigned i = 0; i < 16; ++i)
    binary.value.bytes[i] =
        static_cast<unsigned char>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
  found = nullptr;
  ASSERT_EQ(by_uuid(&binary, &found), NVML_SUCCESS);
  EXPECT_EQ(found, device(3));
  binary.value.bytes[15] ^= 1;
  EXPECT_EQ(by_uuid(&binary, &found), NVML_ERROR_NOT_FOUND);
  binary.type = NVML_UUID_TYPE_NONE;
  EXPECT_EQ(by_uuid(&binary, &found), NVML_ERROR_INVALID_ARGUMENT);
  uuid.version = 1;
  EXPECT_EQ(by_uuid(&uuid, &found), NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
  unsigned hics = 4;
  EXPECT_EQ(call<nvmlReturn_t (*)(unsigned*, nvmlHwbcEntry_t*)>("nvmlSystemGetHicVersion")(&hics,
                                                                                           nullptr),
            NVML_SUCCESS);
  EXPECT_EQ(hics, 0u);
  auto gpm = call<nvmlReturn_t (*)(nvmlDevice_t, nvmlGpmSupport_t*)>("nvmlGpmQueryDeviceSupport");
  nvmlGpmSupport_t support{NVML_GPM_SUPPORT_VERSION, 7};
  // Hopper supports GPM, but its samples are not in a snapshot: no promise of them.
  EXPECT_EQ(gpm(device(0), &support), NVML_ERROR_NOT_SUPPORTED);
  call<nvmlReturn_t (*)()>("nvmlShutdown")();
  ASSERT_EQ(init_on("dgx-a100"), NVML_SUCCESS);
  ASSERT_EQ(gpm(device(0), &support), NVML_SUCCESS);
  EXPECT_EQ(support.isSupportedDevice, 0u);
  support.version = 2;
  EXPECT_EQ(gpm(device(0), &support), NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
}

}  // namespace
