// NVML's versioned structs of driver 550-590 (NVML API 12.x-13) that the
// snapshot-backed libnvidia-ml answers (nvml_health_api.cpp, nvml_fabric_api.cpp,
// nvml_system_api.cpp): layouts, version words and enum values as nvml.h (API
// version 13) declares them, declared here from those facts, sizes asserted.
#pragma once

#include <cstddef>

#include "nvml/nvml_abi.h"

extern "C" {

struct nvmlMarginTemperature_t {  // nvmlMarginTemperature_v1_t
  unsigned int version;
  int marginTemperature;  // degrees C to the nearest slowdown threshold
};
struct nvmlTemperature_t {  // nvmlTemperature_v1_t
  unsigned int version;
  int sensorType;  // nvmlTemperatureSensors_t
  int temperature;
};
struct nvmlPdi_t {  // nvmlPdi_v1_t
  unsigned int version;
  unsigned long long value;
};
struct nvmlRepairStatus_t {  // nvmlRepairStatus_v1_t
  unsigned int version;
  unsigned int bChannelRepairPending;
  unsigned int bTpcRepairPending;
};
struct nvmlUnrepairableMemoryStatus_v1_t {  // no version field
  unsigned int bUnrepairableMemory;
};
struct nvmlEccSramErrorStatus_t {  // nvmlEccSramErrorStatus_v1_t
  unsigned int version;
  unsigned long long aggregateUncParity, aggregateUncSecDed, aggregateCor;
  unsigned long long volatileUncParity, volatileUncSecDed, volatileCor;
  unsigned long long aggregateUncBucketL2, aggregateUncBucketSm, aggregateUncBucketPcie,
      aggregateUncBucketMcu, aggregateUncBucketOther;
  unsigned int bThresholdExceeded;
};
struct nvmlEccSramUniqueUncorrectedErrorEntry_t {
  unsigned int unit, location, sublocation, extlocation, address, isParity, count;
};
struct nvmlEccSramUniqueUncorrectedErrorCounts_t {  // ..._v1_t
  unsigned int version;
  unsigned int entryCount;
  nvmlEccSramUniqueUncorrectedErrorEntry_t* entries;
};
struct nvmlEccErrorCounts_t {
  unsigned long long l1Cache, l2Cache, deviceMemory, registerFile;
};
struct nvmlDramEncryptionInfo_t {  // nvmlDramEncryptionInfo_v1_t
  unsigned int version;
  int encryptionState;  // nvmlEnableState_t
};
struct nvmlDeviceCapabilities_t {  // nvmlDeviceCapabilities_v1_t
  unsigned int version;
  unsigned int capMask;  // NVML_DEV_CAP_*
};
inline constexpr unsigned NVML_DEV_CAP_EGM = 1u << 0;

// Fabric: v2 adds version and healthMask to the first struct, v3 healthSummary.
inline constexpr unsigned NVML_GPU_FABRIC_UUID_LEN = 16;
enum : unsigned char {
  NVML_GPU_FABRIC_STATE_NOT_SUPPORTED = 0,
  NVML_GPU_FABRIC_STATE_NOT_STARTED = 1,
  NVML_GPU_FABRIC_STATE_IN_PROGRESS = 2,
  NVML_GPU_FABRIC_STATE_COMPLETED = 3,
};
struct nvmlGpuFabricInfo_v2_t {
  unsigned int version;
  unsigned char clusterUuid[NVML_GPU_FABRIC_UUID_LEN];
  nvmlReturn_t status;
  unsigned int cliqueId;
  unsigned char state;  // nvmlGpuFabricState_t
  unsigned int healthMask;
};
struct nvmlGpuFabricInfo_v3_t {
  unsigned int version;
  unsigned char clusterUuid[NVML_GPU_FABRIC_UUID_LEN];
  nvmlReturn_t status;
  unsigned int cliqueId;
  unsigned char state;
  unsigned int healthMask;
  unsigned char healthSummary;  // NVML_GPU_FABRIC_HEALTH_SUMMARY_*
};

inline constexpr unsigned NVML_DEVICE_HOSTNAME_BUFFER_SIZE = 64;
struct nvmlHostname_v1_t {
  char value[NVML_DEVICE_HOSTNAME_BUFFER_SIZE];
};
struct nvmlVgpuHeterogeneousMode_t {  // nvmlVgpuHeterogeneousMode_v1_t
  unsigned int version;
  unsigned int mode;
};

enum : unsigned { NVML_UUID_TYPE_NONE = 0, NVML_UUID_TYPE_ASCII = 1, NVML_UUID_TYPE_BINARY = 2 };
struct nvmlUUID_t {  // nvmlUUID_v1_t
  unsigned int version;
  unsigned int type;
  union {
    char str[41];  // NVML_DEVICE_UUID_ASCII_LEN
    unsigned char bytes[16];
  } value;
};

// System events (driver 575 on): a GPU's driver bound or unbound.
inline constexpr unsigned long long nvmlSystemEventTypeGpuDriverUnbind = 0x1;
inline constexpr unsigned long long nvmlSystemEventTypeGpuDriverBind = 0x2;
struct nvmlSystemEventSet_t {
  struct nvmlSystemEventSet_st* handle;
};
struct nvmlSystemEventSetCreateRequest_t {  // also the free request's layout
  unsigned int version;
  nvmlSystemEventSet_t set;
};
struct nvmlSystemEventSetFreeRequest_t {
  unsigned int version;
  nvmlSystemEventSet_t set;
};
struct nvmlSystemRegisterEventRequest_t {
  unsigned int version;
  unsigned long long eventTypes;
  nvmlSystemEventSet_t set;
};
struct nvmlSystemEventData_t {
  unsigned long long eventType;
  unsigned int gpuId;
};
struct nvmlSystemEventSetWaitRequest_t {
  unsigned int version;
  unsigned int timeoutms;
  nvmlSystemEventSet_t set;
  nvmlSystemEventData_t* data;
  unsigned int dataSize;
  unsigned int numEvent;
};

struct nvmlHwbcEntry_t {
  unsigned int hwbcId;
  char firmwareVersion[32];
};

inline constexpr unsigned NVML_GPM_SUPPORT_VERSION = 1;  // not a struct version word
struct nvmlGpmSupport_t {
  unsigned int version;
  unsigned int isSupportedDevice;
};

}  // extern "C"

inline constexpr unsigned nvmlMarginTemperature_v1 =
    nvml_struct_version(sizeof(nvmlMarginTemperature_t), 1);
inline constexpr unsigned nvmlTemperature_v1 = nvml_struct_version(sizeof(nvmlTemperature_t), 1);
inline constexpr unsigned nvmlPdi_v1 = nvml_struct_version(sizeof(nvmlPdi_t), 1);
inline constexpr unsigned nvmlRepairStatus_v1 = nvml_struct_version(sizeof(nvmlRepairStatus_t), 1);
inline constexpr unsigned nvmlEccSramErrorStatus_v1 =
    nvml_struct_version(sizeof(nvmlEccSramErrorStatus_t), 1);
inline constexpr unsigned nvmlEccSramUniqueUncorrectedErrorCounts_v1 =
    nvml_struct_version(sizeof(nvmlEccSramUniqueUncorrectedErrorCounts_t), 1);
inline constexpr unsigned nvmlDramEncryptionInfo_v1 =
    nvml_struct_version(sizeof(nvmlDramEncryptionInfo_t), 1);
inline constexpr unsigned nvmlDeviceCapabilities_v1 =
    nvml_struct_version(sizeof(nvmlDeviceCapabilities_t), 1);
inline constexpr unsigned nvmlGpuFabricInfo_v2 =
    nvml_struct_version(sizeof(nvmlGpuFabricInfo_v2_t), 2);
inline constexpr unsigned nvmlGpuFabricInfo_v3 =
    nvml_struct_version(sizeof(nvmlGpuFabricInfo_v3_t), 3);
inline constexpr unsigned nvmlVgpuHeterogeneousMode_v1 =
    nvml_struct_version(sizeof(nvmlVgpuHeterogeneousMode_t), 1);
inline constexpr unsigned nvmlUUID_v1 = nvml_struct_version(sizeof(nvmlUUID_t), 1);
inline constexpr unsigned nvmlSystemEventSetCreateRequest_v1 =
    nvml_struct_version(sizeof(nvmlSystemEventSetCreateRequest_t), 1);
inline constexpr unsigned nvmlSystemEventSetFreeRequest_v1 =
    nvml_struct_version(sizeof(nvmlSystemEventSetFreeRequest_t), 1);
inline constexpr unsigned nvmlSystemRegisterEventRequest_v1 =
    nvml_struct_version(sizeof(nvmlSystemRegisterEventRequest_t), 1);
inline constexpr unsigned nvmlSystemEventSetWaitRequest_v1 =
    nvml_struct_version(sizeof(nvmlSystemEventSetWaitRequest_t), 1);

// The x86-64 layouts nvml.h gives (natural alignment).
static_assert(sizeof(nvmlMarginTemperature_t) == 8);
static_assert(sizeof(nvmlTemperature_t) == 12);
static_assert(sizeof(nvmlPdi_t) == 16);
static_assert(sizeof(nvmlRepairStatus_t) == 12);
static_assert(sizeof(nvmlEccSramErrorStatus_t) == 104);
static_assert(offsetof(nvmlEccSramErrorStatus_t, bThresholdExceeded) == 96);
static_assert(sizeof(nvmlEccSramUniqueUncorrectedErrorCounts_t) == 16);
static_assert(sizeof(nvmlGpuFabricInfo_v2_t) == 36);
static_assert(offsetof(nvmlGpuFabricInfo_v2_t, healthMask) == 32);
static_assert(sizeof(nvmlGpuFabricInfo_v3_t) == 40);
static_assert(offsetof(nvmlGpuFabricInfo_v3_t, healthSummary) == 36);
static_assert(sizeof(nvmlUUID_t) == 52);
static_assert(sizeof(nvmlSystemRegisterEventRequest_t) == 24);
static_assert(sizeof(nvmlSystemEventSetWaitRequest_t) == 32);
static_assert(sizeof(nvmlHwbcEntry_t) == 36);
