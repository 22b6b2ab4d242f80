// NVML's monitoring, process, event and unit declarations that the snapshot-backed
// libnvidia-ml answers (nvml_monitor_api.cpp, nvml_process_api.cpp): enum values
// and struct layouts as nvml.h (NVML API version 12) declares them, sizes asserted.
#pragma once

#include "nvml/nvml_abi.h"

extern "C" {

enum : int {  // nvmlClockType_t (NVML_CLOCK_GRAPHICS ... NVML_CLOCK_VIDEO in nvml_abi.h)
  NVML_CLOCK_COUNT = 4,
};
enum : int {  // nvmlClockId_t
  NVML_CLOCK_ID_CURRENT = 0,
  NVML_CLOCK_ID_APP_CLOCK_TARGET = 1,
  NVML_CLOCK_ID_APP_CLOCK_DEFAULT = 2,
  NVML_CLOCK_ID_CUSTOMER_BOOST_MAX = 3,
};
enum : int {  // nvmlTemperatureThresholds_t
  NVML_TEMPERATURE_THRESHOLD_SHUTDOWN = 0,
  NVML_TEMPERATURE_THRESHOLD_SLOWDOWN = 1,
  NVML_TEMPERATURE_THRESHOLD_MEM_MAX = 2,
  NVML_TEMPERATURE_THRESHOLD_GPU_MAX = 3,
  NVML_TEMPERATURE_THRESHOLD_COUNT = 8,
};
enum : int { NVML_MEMORY_ERROR_TYPE_CORRECTED = 0, NVML_MEMORY_ERROR_TYPE_UNCORRECTED = 1 };
enum : int { NVML_VOLATILE_ECC = 0, NVML_AGGREGATE_ECC = 1 };
enum : int {  // nvmlMemoryLocation_t
  NVML_MEMORY_LOCATION_L1_CACHE = 0,
  NVML_MEMORY_LOCATION_L2_CACHE = 1,
  NVML_MEMORY_LOCATION_DEVICE_MEMORY = 2,  // NVML_MEMORY_LOCATION_DRAM on Turing and up
  NVML_MEMORY_LOCATION_REGISTER_FILE = 3,
  NVML_MEMORY_LOCATION_TEXTURE_MEMORY = 4,
  NVML_MEMORY_LOCATION_TEXTURE_SHM = 5,
  NVML_MEMORY_LOCATION_CBU = 6,
  NVML_MEMORY_LOCATION_SRAM = 7,
};
enum : int {
  NVML_PAGE_RETIREMENT_CAUSE_MULTIPLE_SINGLE_BIT_ECC_ERRORS = 0,
  NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR = 1,
};
enum : int { NVML_PCIE_UTIL_TX_BYTES = 0, NVML_PCIE_UTIL_RX_BYTES = 1 };
enum : int { NVML_INFOROM_OEM = 0, NVML_INFOROM_ECC = 1, NVML_INFOROM_POWER = 2 };
enum : int { NVML_GOM_ALL_ON = 0, NVML_GOM_COMPUTE = 1, NVML_GOM_LOW_DP = 2 };
enum : int {  // nvmlGpuVirtualizationMode_t
  NVML_GPU_VIRTUALIZATION_MODE_NONE = 0,
  NVML_GPU_VIRTUALIZATION_MODE_PASSTHROUGH = 1,
  NVML_GPU_VIRTUALIZATION_MODE_VGPU = 2,
  NVML_GPU_VIRTUALIZATION_MODE_HOST_VGPU = 3,
  NVML_GPU_VIRTUALIZATION_MODE_HOST_VSGA = 4,
};
enum : int { NVML_HOST_VGPU_MODE_NON_SRIOV = 0, NVML_HOST_VGPU_MODE_SRIOV = 1 };
enum : int {  // nvmlSamplingType_t
  NVML_TOTAL_POWER_SAMPLES = 0,
  NVML_GPU_UTILIZATION_SAMPLES = 1,
  NVML_MEMORY_UTILIZATION_SAMPLES = 2,
  NVML_ENC_UTILIZATION_SAMPLES = 3,
  NVML_DEC_UTILIZATION_SAMPLES = 4,
  NVML_PROCESSOR_CLK_SAMPLES = 5,
  NVML_MEMORY_CLK_SAMPLES = 6,
  NVML_MODULE_POWER_SAMPLES = 7,
  NVML_JPG_UTILIZATION_SAMPLES = 8,
  NVML_OFA_UTILIZATION_SAMPLES = 9,
};
enum : int { NVML_VALUE_TYPE_UNSIGNED_INT = 1, NVML_VALUE_TYPE_UNSIGNED_LONG_LONG = 3 };
inline constexpr unsigned NVML_PSTATE_UNKNOWN = 32;
inline constexpr unsigned NVML_GSP_FIRMWARE_VERSION_BUF_SIZE = 0x40;

inline constexpr unsigned long long nvmlEventTypeSingleBitEccError = 0x1;
inline constexpr unsigned long long nvmlEventTypeDoubleBitEccError = 0x2;
inline constexpr unsigned long long nvmlEventTypeXidCriticalError = 0x8;

union nvmlValue_t {
  double dVal;
  int siVal;
  unsigned int uiVal;
  unsigned long ulVal;
  unsigned long long ullVal;
  signed long long sllVal;
  unsigned short usVal;
};
// nvmlDeviceGetFieldValues' element (nvml.h; nvml-wrapper-sys 0.7's bindgen agrees).
struct nvmlFieldValue_t {
  unsigned int fieldId;
  unsigned int scopeId;  // the NVLink link for link fields; ignored otherwise
  long long timestamp;   // CPU time stamp, microseconds
  long long latencyUsec;
  int valueType;  // NVML_VALUE_TYPE_*
  int nvmlReturn;
  nvmlValue_t value;
};
struct nvmlSample_t {
  unsigned long long timeStamp;  // CPU time stamp, microseconds
  nvmlValue_t sampleValue;
};

struct nvmlProcessInfo_v1_t {
  unsigned int pid;
  unsigned long long usedGpuMemory;
};
struct nvmlProcessInfo_t {  // _v2 and _v3
  unsigned int pid;
  unsigned long long usedGpuMemory;
  unsigned int gpuInstanceId;
  unsigned int computeInstanceId;
};
struct nvmlProcessDetail_v1_t {
  unsigned int pid;
  unsigned long long usedGpuMemory;
  unsigned int gpuInstanceId;
  unsigned int computeInstanceId;
  unsigned long long usedGpuCcProtectedMemory;
};
struct nvmlProcessDetailList_t {
  unsigned int version;  // nvmlProcessDetailList_v1
  unsigned int mode;     // compute, graphics, MPS compute
  unsigned int numProcArrayEntries;
  nvmlProcessDetail_v1_t* procArray;
};
struct nvmlProcessUtilizationSample_t {
  unsigned int pid;
  unsigned long long timeStamp;
  unsigned int smUtil, memUtil, encUtil, decUtil;
};
struct nvmlProcessUtilizationInfo_v1_t {
  unsigned long long timeStamp;
  unsigned int pid;
  unsigned int smUtil, memUtil, encUtil, decUtil, jpgUtil, ofaUtil;
};
struct nvmlProcessesUtilizationInfo_t {
  unsigned int version;  // nvmlProcessesUtilizationInfo_v1
  unsigned int processSamplesCount;
  unsigned long long lastSeenTimeStamp;
  nvmlProcessUtilizationInfo_v1_t* procUtilArray;
};

struct nvmlRowRemapperHistogramValues_t {
  unsigned int max, high, partial, low, none;
};
struct nvmlFBCStats_t {
  unsigned int sessionsCount, averageFPS, averageLatency;
};
struct nvmlDeviceAttributes_t {
  unsigned int multiprocessorCount;
  unsigned int sharedCopyEngineCount;
  unsigned int sharedDecoderCount;
  unsigned int sharedEncoderCount;
  unsigned int sharedJpegCount;
  unsigned int sharedOfaCount;
  unsigned int gpuInstanceSliceCount;
  unsigned int computeInstanceSliceCount;
  unsigned long long memorySizeMB;
};
struct nvmlPciInfoExt_t {
  unsigned int version;  // nvmlPciInfoExt_v1
  unsigned int domain, bus, device;
  unsigned int pciDeviceId, pciSubSystemId;
  unsigned int baseClass, subClass;
  char busId[NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE];
};

struct nvmlEventSet_st;
typedef struct nvmlEventSet_st* nvmlEventSet_t;
struct nvmlEventData_t {
  nvmlDevice_t device;
  unsigned long long eventType;
  unsigned long long eventData;
  unsigned int gpuInstanceId;
  unsigned int computeInstanceId;
};

struct nvmlUnit_st;
typedef struct nvmlUnit_st* nvmlUnit_t;

}  // extern "C"

inline constexpr unsigned int nvmlProcessDetailList_v1 =
    nvml_struct_version(sizeof(nvmlProcessDetailList_t), 1);
inline constexpr unsigned int nvmlProcessesUtilizationInfo_v1 =
    nvml_struct_version(sizeof(nvmlProcessesUtilizationInfo_t), 1);
inline constexpr unsigned int nvmlPciInfoExt_v1 = nvml_struct_version(sizeof(nvmlPciInfoExt_t), 1);

static_assert(sizeof(nvmlSample_t) == 16);
static_assert(sizeof(nvmlFieldValue_t) == 40);
static_assert(sizeof(nvmlProcessInfo_v1_t) == 16);
static_assert(sizeof(nvmlProcessInfo_t) == 24);
static_assert(sizeof(nvmlProcessDetail_v1_t) == 32);
static_assert(sizeof(nvmlProcessDetailList_t) == 24);
static_assert(sizeof(nvmlProcessUtilizationSample_t) == 32);
static_assert(sizeof(nvmlProcessUtilizationInfo_v1_t) == 40);
static_assert(sizeof(nvmlProcessesUtilizationInfo_t) == 24);
static_assert(sizeof(nvmlRowRemapperHistogramValues_t) == 20);
static_assert(sizeof(nvmlDeviceAttributes_t) == 40);
static_assert(sizeof(nvmlPciInfoExt_t) == 64);
static_assert(sizeof(nvmlEventData_t) == 32);
