// The simulated libnvidia-ml's monitoring, process, sample and event calls through
// its C ABI, as gpustat, nvitop, pynvml and the Kubernetes device plugin call them:
// on a host whose snapshot recorded a real H200's -q and --query-gpu figures they
// are those figures; where nothing was recorded they are NOT_SUPPORTED, never a
// made-up number; the process lists of a simulated host are empty.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "nvml/nvml_abi.h"
#include "nvml/nvml_abi_monitor.h"
#include "nvml/nvml_abi_v13.h"
#include "tests/support/test_support.h"
#include "tests/unit/nvml/recorded_h200.h"

namespace {

class NvmlMonitor : public ::testing::Test {
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
  static nvmlReturn_t init_on_file(const std::string& path) {
    ::setenv("HWSIM_NVML_SNAPSHOT", path.c_str(), 1);
    return call<nvmlReturn_t (*)()>("nvmlInit_v2")();
  }
  static nvmlReturn_t init_on(const std::string& fixture) {
    return init_on_file(hwaccel::testing::source_path("fixtures/hosts/" + fixture + ".yaml"));
  }
  static nvmlDevice_t device(unsigned index) {
    nvmlDevice_t d = nullptr;
    EXPECT_EQ(
        call<nvmlReturn_t (*)(unsigned, nvmlDevice_t*)>("nvmlDeviceGetHandleByIndex_v2")(index, &d),
        NVML_SUCCESS);
    return d;
  }
  static nvmlReturn_t uint_of(const char* name, nvmlDevice_t d, unsigned& out) {
    return call<nvmlReturn_t (*)(nvmlDevice_t, unsigned*)>(name)(d, &out);
  }
  static nvmlReturn_t typed_of(const char* name, nvmlDevice_t d, int type, unsigned& out) {
    return call<nvmlReturn_t (*)(nvmlDevice_t, int, unsigned*)>(name)(d, type, &out);
  }
  static std::string text_of(const char* name, nvmlDevice_t d) {
    char buf[96] = {};
    auto r = call<nvmlReturn_t (*)(nvmlDevice_t, char*, unsigned)>(name)(d, buf, sizeof buf);
    return r == NVML_SUCCESS ? buf : "error " + std::to_string(r);
  }
  static void* lib_;
};
void* NvmlMonitor::lib_ = nullptr;

// 2026-11-30T01:48:06Z, the fixture's recorded_at, in microseconds.
constexpr unsigned long long kRecordedUs = 1796003286ull * 1000000;

TEST_F(NvmlMonitor, FiguresAreTheRecordedOnes) {
  const std::string path = hwaccel::testing::recorded_h200_file();
  ASSERT_FALSE(path.empty());
  ASSERT_EQ(init_on_file(path), NVML_SUCCESS);
  nvmlDevice_t d = device(0);
  unsigned v = 0;
  EXPECT_EQ(typed_of("nvmlDeviceGetTemperature", d, NVML_TEMPERATURE_GPU, v), NVML_SUCCESS);
  EXPECT_EQ(v, 28u);
  EXPECT_EQ(typed_of("nvmlDeviceGetTemperature", d, 1, v), NVML_ERROR_INVALID_ARGUMENT);
  // Driver 590 prints T.Limit temperatures, not the shutdown threshold: not recorded.
  EXPECT_EQ(typed_of("nvmlDeviceGetTemperatureThreshold", d, 0, v), NVML_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(uint_of("nvmlDeviceGetPowerUsage", d, v), NVML_SUCCESS);
  EXPECT_EQ(v, 78210u);  // the query's power.draw.instant (78.21 W), not -q's 77.88
  EXPECT_EQ(uint_of("nvmlDeviceGetEnforcedPowerLimit", d, v), NVML_SUCCESS);
  EXPECT_EQ(v, 700000u);
  unsigned lo = 0, hi = 0;
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, unsigned*, unsigned*)>(
                "nvmlDeviceGetPowerManagementLimitConstraints")(d, &lo, &hi),
            NVML_SUCCESS);
  EXPECT_EQ(lo, 200000u);
  EXPECT_EQ(hi, 700000u);
  EXPECT_EQ(typed_of("nvmlDeviceGetClockInfo", d, NVML_CLOCK_SM, v), NVML_SUCCESS);
  EXPECT_EQ(v, 345u);
  EXPECT_EQ(typed_of("nvmlDeviceGetClockInfo", d, NVML_CLOCK_MEM, v), NVML_SUCCESS);
  EXPECT_EQ(v, 3201u);
  EXPECT_EQ(typed_of("nvmlDeviceGetMaxClockInfo", d, NVML_CLOCK_GRAPHICS, v), NVML_SUCCESS);
  EXPECT_EQ(v, 1980u);
  // nvidia-smi printed "Requested functionality has been deprecated": NVML's DEPRECATED.
  EXPECT_EQ(typed_of("nvmlDeviceGetApplicationsClock", d, NVML_CLOCK_GRAPHICS, v),
            NVML_ERROR_DEPRECATED);
  nvmlUtilization_t u{7, 7};
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, nvmlUtilization_t*)>(
                "nvmlDeviceGetUtilizationRates")(d, &u),
            NVML_SUCCESS);
  EXPECT_EQ(u.gpu, 0u);
  EXPECT_EQ(u.memory, 0u);
  unsigned period = 1;
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, unsigned*, unsigned*)>(
                "nvmlDeviceGetEncoderUtilization")(d, &v, &period),
            NVML_SUCCESS);
  EXPECT_EQ(v, 0u);
  int state = -1;
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, int*)>("nvmlDeviceGetPerformanceState")(d, &state),
            NVML_SUCCESS);
  EXPECT_EQ(state, 0);
  EXPECT_EQ(uint_of("nvmlDeviceGetFanSpeed", d, v), NVML_ERROR_NOT_SUPPORTED);  // [N/A]
  int current = -1, pending = -1;
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, int*, int*)>("nvmlDeviceGetEccMode")(d, &current,
                                                                                     &pending),
            NVML_SUCCESS);
  EXPECT_EQ(current, 1);
  unsigned long long errors = 9;
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, int, int, unsigned long long*)>(
                "nvmlDeviceGetTotalEccErrors")(d, NVML_MEMORY_ERROR_TYPE_UNCORRECTED,
                                               NVML_AGGREGATE_ECC, &errors),
            NVML_SUCCESS);
  EXPECT_EQ(errors, 0u);
  nvmlRowRemapperHistogramValues_t h{};
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, nvmlRowRemapperHistogramValues_t*)>(
                "nvmlDeviceGetRowRemapperHistogram")(d, &h),
            NVML_SUCCESS);
  EXPECT_EQ(h.max, 3072u);
  unsigned long long reasons = 0;
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, unsigned long long*)>(
                "nvmlDeviceGetCurrentClocksThrottleReasons")(d, &reasons),
            NVML_SUCCESS);
  EXPECT_EQ(reasons, 1u);  // GPU idle
  EXPECT_EQ(typed_of("nvmlDeviceGetPcieThroughput", d, NVML_PCIE_UTIL_TX_BYTES, v), NVML_SUCCESS);
  EXPECT_EQ(v, 371u);  // -q's Tx Throughput, KB/s
  EXPECT_EQ(uint_of("nvmlDeviceGetMaxPcieLinkGeneration", d, v), NVML_SUCCESS);
  EXPECT_EQ(v, 5u);
  EXPECT_EQ(text_of("nvmlDeviceGetVbiosVersion", d), "96.00.A5.00.03");
  EXPECT_EQ(text_of("nvmlDeviceGetBoardPartNumber", d), "695-2G520-0280-001");
  EXPECT_EQ(text_of("nvmlDeviceGetInforomImageVersion", d), "G520.0280.02.02");
  int mode = -1;
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, int*)>("nvmlDeviceGetVirtualizationMode")(d, &mode),
            NVML_SUCCESS);
  EXPECT_EQ(mode, NVML_GPU_VIRTUALIZATION_MODE_PASSTHROUGH);
  nvmlPciInfoExt_t ext{};
  ext.version = nvmlPciInfoExt_v1;
  EXPECT_EQ(
      call<nvmlReturn_t (*)(nvmlDevice_t, nvmlPciInfoExt_t*)>("nvmlDeviceGetPciInfoExt")(d, &ext),
      NVML_SUCCESS);
  EXPECT_EQ(ext.baseClass, 3u);
  EXPECT_STREQ(ext.busId, "00000000:00:06.0");
}

TEST_F(NvmlMonitor, SamplesCarryTheRecordedTime) {
  ASSERT_EQ(init_on_file(hwaccel::testing::recorded_h200_file()), NVML_SUCCESS);
  auto samples =
      call<nvmlReturn_t (*)(nvmlDevice_t, int, unsigned long long, int*, unsigned*, nvmlSample_t*)>(
          "nvmlDeviceGetSamples");
  int type = -1;
  unsigned count = 0;
  EXPECT_EQ(samples(device(0), NVML_TOTAL_POWER_SAMPLES, 0, &type, &count, nullptr), NVML_SUCCESS);
  EXPECT_EQ(count, 1u);
  nvmlSample_t s[4] = {};
  count = 4;
  ASSERT_EQ(samples(device(0), NVML_TOTAL_POWER_SAMPLES, 0, &type, &count, s), NVML_SUCCESS);
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(type, NVML_VALUE_TYPE_UNSIGNED_INT);
  EXPECT_EQ(s[0].timeStamp, kRecordedUs);
  EXPECT_EQ(s[0].sampleValue.uiVal, 78210u);
  EXPECT_EQ(samples(device(0), NVML_GPU_UTILIZATION_SAMPLES, kRecordedUs, &type, &count, s),
            NVML_ERROR_NOT_FOUND);  // nothing newer than the recording
}

TEST_F(NvmlMonitor, NoProcessWhereNoneWasRecorded) {
  ASSERT_EQ(init_on_file(hwaccel::testing::recorded_h200_file()), NVML_SUCCESS);
  nvmlDevice_t d = device(0);
  for (const char* name :
       {"nvmlDeviceGetComputeRunningProcesses", "nvmlDeviceGetComputeRunningProcesses_v2",
        "nvmlDeviceGetComputeRunningProcesses_v3", "nvmlDeviceGetGraphicsRunningProcesses_v3",
        "nvmlDeviceGetMPSComputeRunningProcesses_v3"}) {
    auto f = call<nvmlReturn_t (*)(nvmlDevice_t, unsigned*, void*)>(name);
    unsigned count = 5;
    nvmlProcessInfo_t infos[5];
    EXPECT_EQ(f(d, &count, infos), NVML_SUCCESS) << name;
    EXPECT_EQ(count, 0u) << name;
    count = 0;
    EXPECT_EQ(f(d, &count, nullptr), NVML_SUCCESS) << name;  // pynvml's size query
    EXPECT_EQ(f(d, nullptr, nullptr), NVML_ERROR_INVALID_ARGUMENT) << name;
  }
  unsigned count = 3;
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, void*, unsigned*, unsigned long long)>(
                "nvmlDeviceGetProcessUtilization")(d, nullptr, &count, 0),
            NVML_ERROR_NOT_FOUND);
  EXPECT_EQ(count, 0u);
  nvmlProcessDetailList_t list{};
  list.version = 1;
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, nvmlProcessDetailList_t*)>(
                "nvmlDeviceGetRunningProcessDetailList")(d, &list),
            NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
  list.version = nvmlProcessDetailList_v1;
  list.numProcArrayEntries = 9;
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, nvmlProcessDetailList_t*)>(
                "nvmlDeviceGetRunningProcessDetailList")(d, &list),
            NVML_SUCCESS);
  EXPECT_EQ(list.numProcArrayEntries, 0u);
}

// fixtures/hosts/h200-load.yaml recorded --query-compute-apps under load: three
// compute processes, listed as the real library lists them (pynvml's size query
// first), not in MIG mode (no instance ids), with their recorded names.
TEST_F(NvmlMonitor, ProcessesAreTheRecordedOnes) {
  ASSERT_EQ(init_on("h200-load"), NVML_SUCCESS);
  nvmlDevice_t d = device(0);
  auto v3 = call<nvmlReturn_t (*)(nvmlDevice_t, unsigned*, nvmlProcessInfo_t*)>(
      "nvmlDeviceGetComputeRunningProcesses_v3");
  unsigned count = 0;
  EXPECT_EQ(v3(d, &count, nullptr), NVML_ERROR_INSUFFICIENT_SIZE);
  EXPECT_EQ(count, 3u);
  nvmlProcessInfo_t infos[8] = {};
  count = 2;
  EXPECT_EQ(v3(d, &count, infos), NVML_ERROR_INSUFFICIENT_SIZE);
  EXPECT_EQ(count, 3u);
  count = 8;
  ASSERT_EQ(v3(d, &count, infos), NVML_SUCCESS);
  ASSERT_EQ(count, 3u);
  const unsigned pids[] = {10291, 10293, 10309};
  const unsigned long long mib[] = {2566, 1542, 28234};
  for (unsigned i = 0; i < 3; ++i) {
    EXPECT_EQ(infos[i].pid, pids[i]);
    EXPECT_EQ(infos[i].usedGpuMemory, mib[i] << 20);
    EXPECT_EQ(infos[i].gpuInstanceId, 0xffffffffu);
    EXPECT_EQ(infos[i].computeInstanceId, 0xffffffffu);
  }
  nvmlProcessInfo_v1_t old[8] = {};
  count = 8;
  ASSERT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, unsigned*, nvmlProcessInfo_v1_t*)>(
                "nvmlDeviceGetComputeRunningProcesses")(d, &count, old),
            NVML_SUCCESS);
  EXPECT_EQ(old[2].pid, 10309u);
  EXPECT_EQ(old[2].usedGpuMemory, 28234ull << 20);
  count = 8;  // no graphics process was recorded
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, unsigned*, nvmlProcessInfo_t*)>(
                "nvmlDeviceGetGraphicsRunningProcesses_v3")(d, &count, infos),
            NVML_SUCCESS);
  EXPECT_EQ(count, 0u);

  nvmlProcessDetail_v1_t details[4] = {};
  nvmlProcessDetailList_t list{};
  list.version = nvmlProcessDetailList_v1;
  list.numProcArrayEntries = 4;
  list.procArray = details;
  ASSERT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, nvmlProcessDetailList_t*)>(
                "nvmlDeviceGetRunningProcessDetailList")(d, &list),
            NVML_SUCCESS);
  EXPECT_EQ(list.numProcArrayEntries, 3u);
  EXPECT_EQ(details[1].pid, 10293u);

  auto name_of = call<nvmlReturn_t (*)(unsigned, char*, unsigned)>("nvmlSystemGetProcessName");
  char name[64] = {};
  ASSERT_EQ(name_of(10309, name, sizeof name), NVML_SUCCESS);
  EXPECT_STREQ(name, "./gpu_burn");
  ASSERT_EQ(name_of(10291, name, 5), NVML_SUCCESS);  // cut to the buffer
  EXPECT_STREQ(name, "/roo");
  EXPECT_EQ(name_of(4242, name, sizeof name), NVML_ERROR_NOT_FOUND);
}

// The same host's figures are the recorded load row's: 52 C, 626.26 W instant,
// 1980 MHz, 100 % busy.
TEST_F(NvmlMonitor, AHostRecordedUnderLoadGivesItsFigures) {
  ASSERT_EQ(init_on("h200-load"), NVML_SUCCESS);
  nvmlDevice_t d = device(0);
  unsigned v = 0;
  ASSERT_EQ(typed_of("nvmlDeviceGetTemperature", d, 0, v), NVML_SUCCESS);
  EXPECT_EQ(v, 52u);
  ASSERT_EQ(uint_of("nvmlDeviceGetPowerUsage", d, v), NVML_SUCCESS);
  EXPECT_EQ(v, 626260u);
  ASSERT_EQ(typed_of("nvmlDeviceGetClockInfo", d, 1, v), NVML_SUCCESS);
  EXPECT_EQ(v, 1980u);
  unsigned rates[2] = {};
  ASSERT_EQ(
      call<nvmlReturn_t (*)(nvmlDevice_t, unsigned*)>("nvmlDeviceGetUtilizationRates")(d, rates),
      NVML_SUCCESS);
  EXPECT_EQ(rates[0], 100u);
  EXPECT_EQ(rates[1], 7u);
}

// nvmlDeviceGetFieldValues answers each field in its own slot from the recorded
// load row and -q of h200-load (ECC on, no errors, memory at 40 C, no remapped
// rows, no PCIe replays); a field not recorded ([N/A] retired pages, energy) is
// NOT_SUPPORTED in its slot while the call succeeds. PCIe 5.0: 32000 MB/s per lane.
TEST_F(NvmlMonitor, FieldValuesAndPcieSpeedsAreTheRecordedOnes) {
  ASSERT_EQ(init_on("h200-load"), NVML_SUCCESS);
  nvmlDevice_t d = device(0);
  const unsigned ids[] = {1, 3, 6, 82, 94, 142, 144, 29, 83, 0};
  nvmlFieldValue_t values[10] = {};
  for (unsigned i = 0; i < 10; ++i) values[i].fieldId = ids[i];
  auto get =
      call<nvmlReturn_t (*)(nvmlDevice_t, int, nvmlFieldValue_t*)>("nvmlDeviceGetFieldValues");
  ASSERT_EQ(get(d, 10, values), NVML_SUCCESS);
  EXPECT_EQ(values[0].nvmlReturn, NVML_SUCCESS);
  EXPECT_EQ(values[0].value.uiVal, 1u);  // ECC enabled
  EXPECT_EQ(values[1].nvmlReturn, NVML_SUCCESS);
  EXPECT_EQ(values[1].valueType, NVML_VALUE_TYPE_UNSIGNED_LONG_LONG);
  EXPECT_EQ(values[1].value.ullVal, 0u);
  EXPECT_EQ(values[2].nvmlReturn, NVML_SUCCESS);
  EXPECT_EQ(values[3].nvmlReturn, NVML_SUCCESS);
  EXPECT_EQ(values[3].value.uiVal, 40u);          // temperature.memory of the load row
  EXPECT_EQ(values[4].nvmlReturn, NVML_SUCCESS);  // -q's "Replays Since Reset : 0"
  EXPECT_EQ(values[5].nvmlReturn, NVML_SUCCESS);
  EXPECT_EQ(values[6].nvmlReturn, NVML_SUCCESS);
  EXPECT_EQ(values[6].value.uiVal, 0u);                       // remapped_rows.pending: No
  EXPECT_EQ(values[7].nvmlReturn, NVML_ERROR_NOT_SUPPORTED);  // retired pages: [N/A]
  EXPECT_EQ(values[8].nvmlReturn, NVML_ERROR_NOT_SUPPORTED);  // energy: never recorded
  EXPECT_EQ(values[9].nvmlReturn, NVML_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(values[0].timestamp, 1783116669ll * 1000000);  // recorded_at 2026-07-03T22:11:09Z
  EXPECT_EQ(get(d, 0, values), NVML_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(get(d, 1, nullptr), NVML_ERROR_INVALID_ARGUMENT);
  unsigned speed = 0;
  ASSERT_EQ(uint_of("nvmlDeviceGetPcieSpeed", d, speed), NVML_SUCCESS);
  EXPECT_EQ(speed, 32000u);
  ASSERT_EQ(uint_of("nvmlDeviceGetPcieLinkMaxSpeed", d, speed), NVML_SUCCESS);
  EXPECT_EQ(speed, 5u);  // NVML_PCIE_LINK_MAX_SPEED_32000MBPS
}

TEST_F(NvmlMonitor, WhatTheSnapshotDidNotRecordIsNotSupported) {
  ASSERT_EQ(init_on("dgx-h100"), NVML_SUCCESS);
  nvmlDevice_t d = device(0);
  unsigned v = 0;
  EXPECT_EQ(typed_of("nvmlDeviceGetTemperature", d, NVML_TEMPERATURE_GPU, v),
            NVML_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(uint_of("nvmlDeviceGetPowerUsage", d, v), NVML_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(typed_of("nvmlDeviceGetClockInfo", d, NVML_CLOCK_SM, v), NVML_ERROR_NOT_SUPPORTED);
  nvmlUtilization_t u{};
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, nvmlUtilization_t*)>(
                "nvmlDeviceGetUtilizationRates")(d, &u),
            NVML_ERROR_NOT_SUPPORTED);
  int type = 0;
  unsigned count = 0;
  EXPECT_EQ(
      call<nvmlReturn_t (*)(nvmlDevice_t, int, unsigned long long, int*, unsigned*, nvmlSample_t*)>(
          "nvmlDeviceGetSamples")(d, NVML_GPU_UTILIZATION_SAMPLES, 0, &type, &count, nullptr),
      NVML_ERROR_NOT_SUPPORTED);
  // The PCIe link the detection read from sysfs still answers.
  EXPECT_EQ(uint_of("nvmlDeviceGetCurrPcieLinkWidth", d, v), NVML_SUCCESS);
  EXPECT_EQ(v, 16u);
  count = 3;
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, unsigned*, void*)>(
                "nvmlDeviceGetComputeRunningProcesses_v3")(d, &count, nullptr),
            NVML_SUCCESS);
  EXPECT_EQ(count, 0u);
}

TEST_F(NvmlMonitor, BusAndPeerToPeerFromTheRecordedTopology) {
  ASSERT_EQ(init_on("dgx-h100"), NVML_SUCCESS);
  int type = -1;
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, int*)>("nvmlDeviceGetBusType")(device(0), &type),
            NVML_SUCCESS);
  EXPECT_EQ(type, 2);  // NVML_BUS_TYPE_PCIE
  auto p2p =
      call<nvmlReturn_t (*)(nvmlDevice_t, nvmlDevice_t, int, int*)>("nvmlDeviceGetP2PStatus");
  int status = -1;
  EXPECT_EQ(p2p(device(0), device(5), 2 /* NVLINK */, &status), NVML_SUCCESS);
  EXPECT_EQ(status, 0);  // OK: both on the NVSwitch fabric
  EXPECT_EQ(p2p(device(0), device(5), 0 /* READ: ACS and IOMMU not recorded */, &status),
            NVML_ERROR_NOT_SUPPORTED);
  unsigned result = 9;
  auto cap = call<nvmlReturn_t (*)(nvmlDevice_t, unsigned, int, unsigned*)>(
      "nvmlDeviceGetNvLinkCapability");
  EXPECT_EQ(cap(device(0), 17, 5 /* VALID */, &result), NVML_SUCCESS);
  EXPECT_EQ(result, 1u);
  EXPECT_EQ(cap(device(0), 0, 1 /* SYSMEM_ACCESS */, &result), NVML_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t)>("nvmlDeviceValidateInforom")(device(0)),
            NVML_ERROR_NOT_SUPPORTED);  // not recorded here
  call<nvmlReturn_t (*)()>("nvmlShutdown")();
  ASSERT_EQ(init_on_file(hwaccel::testing::recorded_h200_file()), NVML_SUCCESS);
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t)>("nvmlDeviceValidateInforom")(device(0)),
            NVML_SUCCESS);  // inforom.checksum_validation: valid
  EXPECT_EQ(p2p(device(0), device(0), 2, &status), NVML_SUCCESS);
  EXPECT_EQ(status, 5);  // NOT_SUPPORTED: no NVLink on this H200
}

TEST_F(NvmlMonitor, EventsNeverArriveAndWaitsEndInTheirTimeout) {
  ASSERT_EQ(init_on_file(hwaccel::testing::recorded_h200_file()), NVML_SUCCESS);
  nvmlEventSet_t set = nullptr;
  ASSERT_EQ(call<nvmlReturn_t (*)(nvmlEventSet_t*)>("nvmlEventSetCreate")(&set), NVML_SUCCESS);
  unsigned long long types = 0;
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, unsigned long long*)>(
                "nvmlDeviceGetSupportedEventTypes")(device(0), &types),
            NVML_SUCCESS);
  // Xid errors always; ECC events because the recording says ECC is on.
  EXPECT_EQ(types, nvmlEventTypeXidCriticalError | nvmlEventTypeSingleBitEccError |
                       nvmlEventTypeDoubleBitEccError);
  auto reg = call<nvmlReturn_t (*)(nvmlDevice_t, unsigned long long, nvmlEventSet_t)>(
      "nvmlDeviceRegisterEvents");
  EXPECT_EQ(reg(device(0), nvmlEventTypeXidCriticalError, set), NVML_SUCCESS);
  EXPECT_EQ(reg(device(0), 0x4 /* PState */, set), NVML_ERROR_NOT_SUPPORTED);
  nvmlEventData_t data{};
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlEventSet_t, nvmlEventData_t*, unsigned)>(
                "nvmlEventSetWait_v2")(set, &data, 5),
            NVML_ERROR_TIMEOUT);
  auto free_set = call<nvmlReturn_t (*)(nvmlEventSet_t)>("nvmlEventSetFree");
  EXPECT_EQ(free_set(set), NVML_SUCCESS);
  EXPECT_EQ(free_set(set), NVML_ERROR_INVALID_ARGUMENT);
}

TEST_F(NvmlMonitor, NoUnitsNoExcludedGpusAndMigDevicesHaveNoSensors) {
  ASSERT_EQ(init_on("h100-mig"), NVML_SUCCESS);
  unsigned count = 9;
  EXPECT_EQ(call<nvmlReturn_t (*)(unsigned*)>("nvmlUnitGetCount")(&count), NVML_SUCCESS);
  EXPECT_EQ(count, 0u);
  count = 9;
  EXPECT_EQ(call<nvmlReturn_t (*)(unsigned*)>("nvmlGetExcludedDeviceCount")(&count), NVML_SUCCESS);
  EXPECT_EQ(count, 0u);
  nvmlDevice_t mig = nullptr;
  ASSERT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, unsigned, nvmlDevice_t*)>(
                "nvmlDeviceGetMigDeviceHandleByIndex")(device(0), 0, &mig),
            NVML_SUCCESS);
  unsigned v = 0;
  EXPECT_EQ(typed_of("nvmlDeviceGetTemperature", mig, NVML_TEMPERATURE_GPU, v),
            NVML_ERROR_NOT_SUPPORTED);
  // The MIG device's share of its profile: 3g.40gb, 60 SMs, 40448 MiB.
  nvmlDeviceAttributes_t a{};
  ASSERT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, nvmlDeviceAttributes_t*)>(
                "nvmlDeviceGetAttributes_v2")(mig, &a),
            NVML_SUCCESS);
  EXPECT_EQ(a.multiprocessorCount, 60u);
  EXPECT_EQ(a.gpuInstanceSliceCount, 3u);
  EXPECT_EQ(a.memorySizeMB, 40448u);
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, nvmlDeviceAttributes_t*)>(
                "nvmlDeviceGetAttributes_v2")(device(0), &a),
            NVML_ERROR_NOT_SUPPORTED);
}

// The versioned health getters on h200-load (a real H200 under load, driver 590):
// T.Limit 35 C, 52 C, its PDI, no repair pending, no SRAM error, EGM disabled;
// what Hopper prints as N/A (L1/L2 ECC, DRAM encryption) is NOT_SUPPORTED.
TEST_F(NvmlMonitor, HealthStructsAreTheRecordedOnes) {
  ASSERT_EQ(init_on("h200-load"), NVML_SUCCESS);
  nvmlDevice_t d = device(0);
  nvmlMarginTemperature_t margin{nvmlMarginTemperature_v1, -99};
  auto get_margin = call<nvmlReturn_t (*)(nvmlDevice_t, nvmlMarginTemperature_t*)>(
      "nvmlDeviceGetMarginTemperature");
  ASSERT_EQ(get_margin(d, &margin), NVML_SUCCESS);
  EXPECT_EQ(margin.marginTemperature, 35);
  margin.version = 1;
  EXPECT_EQ(get_margin(d, &margin), NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
  auto get_temp =
      call<nvmlReturn_t (*)(nvmlDevice_t, nvmlTemperature_t*)>("nvmlDeviceGetTemperatureV");
  nvmlTemperature_t temp{nvmlTemperature_v1, NVML_TEMPERATURE_GPU, 0};
  ASSERT_EQ(get_temp(d, &temp), NVML_SUCCESS);
  EXPECT_EQ(temp.temperature, 52);
  temp.sensorType = 1;
  EXPECT_EQ(get_temp(d, &temp), NVML_ERROR_INVALID_ARGUMENT);
  nvmlPdi_t pdi{nvmlPdi_v1, 0};
  ASSERT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, nvmlPdi_t*)>("nvmlDeviceGetPdi")(d, &pdi),
            NVML_SUCCESS);
  EXPECT_EQ(pdi.value, 0x737bb8d09327f7d9ull);
  nvmlRepairStatus_t repair{nvmlRepairStatus_v1, 7, 7};
  ASSERT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, nvmlRepairStatus_t*)>("nvmlDeviceGetRepairStatus")(
                d, &repair),
            NVML_SUCCESS);
  EXPECT_EQ(repair.bChannelRepairPending, 0u);
  EXPECT_EQ(repair.bTpcRepairPending, 0u);
  nvmlUnrepairableMemoryStatus_v1_t unrepairable{7};
  ASSERT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, nvmlUnrepairableMemoryStatus_v1_t*)>(
                "nvmlDeviceGetUnrepairableMemoryFlag_v1")(d, &unrepairable),
            NVML_SUCCESS);
  EXPECT_EQ(unrepairable.bUnrepairableMemory, 0u);
  nvmlEccSramErrorStatus_t sram;
  std::memset(&sram, 0x7f, sizeof sram);
  sram.version = nvmlEccSramErrorStatus_v1;
  ASSERT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, nvmlEccSramErrorStatus_t*)>(
                "nvmlDeviceGetSramEccErrorStatus")(d, &sram),
            NVML_SUCCESS);
  EXPECT_EQ(sram.aggregateUncParity + sram.aggregateUncSecDed + sram.aggregateCor +
                sram.volatileUncParity + sram.volatileUncSecDed + sram.volatileCor +
                sram.aggregateUncBucketL2 + sram.aggregateUncBucketSm +
                sram.aggregateUncBucketPcie + sram.aggregateUncBucketMcu +
                sram.aggregateUncBucketOther,
            0u);
  EXPECT_EQ(sram.bThresholdExceeded, 0u);
  // No unique SRAM error recorded: the size query answers an empty list.
  nvmlEccSramUniqueUncorrectedErrorCounts_t unique{nvmlEccSramUniqueUncorrectedErrorCounts_v1, 5,
                                                   nullptr};
  ASSERT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, nvmlEccSramUniqueUncorrectedErrorCounts_t*)>(
                "nvmlDeviceGetSramUniqueUncorrectedEccErrorCounts")(d, &unique),
            NVML_SUCCESS);
  EXPECT_EQ(unique.entryCount, 0u);
  nvmlEccErrorCounts_t detailed{};
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, int, int, nvmlEccErrorCounts_t*)>(
                "nvmlDeviceGetDetailedEccErrors")(d, 1, 1, &detailed),
            NVML_ERROR_NOT_SUPPORTED);  // l1_cache: [N/A]
  nvmlDramEncryptionInfo_t current{nvmlDramEncryptionInfo_v1, 0}, pending = current;
  EXPECT_EQ(
      call<nvmlReturn_t (*)(nvmlDevice_t, nvmlDramEncryptionInfo_t*, nvmlDramEncryptionInfo_t*)>(
          "nvmlDeviceGetDramEncryptionMode")(d, &current, &pending),
      NVML_ERROR_NOT_SUPPORTED);
  nvmlDeviceCapabilities_t caps{nvmlDeviceCapabilities_v1, 0xff};
  ASSERT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, nvmlDeviceCapabilities_t*)>(
                "nvmlDeviceGetCapabilities")(d, &caps),
            NVML_SUCCESS);
  EXPECT_EQ(caps.capMask, 0u);  // EGM: disabled
  // Nothing recorded on dgx-h100: no made-up figure.
  call<nvmlReturn_t (*)()>("nvmlShutdown")();
  ASSERT_EQ(init_on("dgx-h100"), NVML_SUCCESS);
  margin.version = nvmlMarginTemperature_v1;
  EXPECT_EQ(get_margin(device(0), &margin), NVML_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, nvmlDeviceCapabilities_t*)>(
                "nvmlDeviceGetCapabilities")(device(0), &caps),
            NVML_ERROR_NOT_SUPPORTED);
}

// The fabric probe as the recording printed it (Completed, Success, clique 0, a
// zero cluster UUID, health N/A), in v3's and v2's layouts; the GPU's hostname and
// vGPU capabilities where recorded ([N/A] on this H200: NOT_SUPPORTED).
TEST_F(NvmlMonitor, FabricInfoAndHostnameAreTheRecordedOnes) {
  ASSERT_EQ(init_on("h200-load"), NVML_SUCCESS);
  auto get =
      call<nvmlReturn_t (*)(nvmlDevice_t, nvmlGpuFabricInfo_v3_t*)>("nvmlDeviceGetGpuFabricInfoV");
  nvmlGpuFabricInfo_v3_t v3;
  std::memset(&v3, 0x7f, sizeof v3);
  v3.version = nvmlGpuFabricInfo_v3;
  ASSERT_EQ(get(device(0), &v3), NVML_SUCCESS);
  EXPECT_EQ(v3.state, NVML_GPU_FABRIC_STATE_COMPLETED);
  EXPECT_EQ(v3.status, NVML_SUCCESS);
  EXPECT_EQ(v3.cliqueId, 0u);
  EXPECT_EQ(v3.clusterUuid[0] | v3.clusterUuid[15], 0);
  EXPECT_EQ(v3.healthMask, 0u);     // every health field NOT_SUPPORTED
  EXPECT_EQ(v3.healthSummary, 0u);  // NVML_GPU_FABRIC_HEALTH_SUMMARY_NOT_SUPPORTED
  nvmlGpuFabricInfo_v3_t v2;        // a v2 caller's struct, in a buffer one field longer
  std::memset(&v2, 0x7f, sizeof v2);
  v2.version = nvmlGpuFabricInfo_v2;
  ASSERT_EQ(get(device(0), &v2), NVML_SUCCESS);
  EXPECT_EQ(v2.state, NVML_GPU_FABRIC_STATE_COMPLETED);
  EXPECT_EQ(v2.healthSummary, 0x7f);  // past v2's end: untouched
  v2.version = 2;
  EXPECT_EQ(get(device(0), &v2), NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
  nvmlHostname_v1_t host{};
  auto hostname =
      call<nvmlReturn_t (*)(nvmlDevice_t, nvmlHostname_v1_t*)>("nvmlDeviceGetHostname_v1");
  EXPECT_EQ(hostname(device(0), &host), NVML_ERROR_NOT_SUPPORTED);
  nvmlVgpuHeterogeneousMode_t mode{nvmlVgpuHeterogeneousMode_v1, 9};
  EXPECT_EQ(call<nvmlReturn_t (*)(nvmlDevice_t, nvmlVgpuHeterogeneousMode_t*)>(
                "nvmlDeviceGetVgpuHeterogeneousMode")(device(0), &mode),
            NVML_ERROR_NOT_SUPPORTED);  // -q: N/A
  unsigned result = 9;
  auto vgpu_cap =
      call<nvmlReturn_t (*)(nvmlDevice_t, int, unsigned*)>("nvmlDeviceGetVgpuCapabilities");
  EXPECT_EQ(vgpu_cap(device(0), 0, &result), NVML_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(vgpu_cap(device(0), 12, &result), NVML_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(call<nvmlReturn_t (*)(int, unsigned*)>("nvmlGetVgpuDriverCapabilities")(0, &result),
            NVML_ERROR_NOT_SUPPORTED);
  call<nvmlReturn_t (*)()>("nvmlShutdown")();
  // A fabric never recorded (dgx-h100's snapshot has no -q fabric lines).
  ASSERT_EQ(init_on("dgx-h100"), NVML_SUCCESS);
  EXPECT_EQ(get(device(0), &v3), NVML_ERROR_NOT_SUPPORTED);
  call<nvmlReturn_t (*)()>("nvmlShutdown")();
  // The same H200 with a hostname in its query row (the row's last cell).
  auto s = hwaccel::testing::recorded_h200();
  ASSERT_TRUE(s);
  for (auto& [argv, tool] : s->tools)
    if (argv.size() > 1 && argv[1].rfind("--query-gpu=timestamp", 0) == 0) {
      auto& out = tool.run.out;
      const auto at = out.rfind(", [N/A]\n");
      ASSERT_NE(at, std::string::npos);
      out.replace(at, 8, ", gpu-node-7\n");
    }
  const std::string path = HWACCEL_BIN_DIR "/recorded-h200-hostname.yaml";
  std::ofstream(path) << hwaccel::write_snapshot(*s);
  ASSERT_EQ(init_on_file(path), NVML_SUCCESS);
  ASSERT_EQ(hostname(device(0), &host), NVML_SUCCESS);
  EXPECT_STREQ(host.value, "gpu-node-7");
}

}  // namespace
