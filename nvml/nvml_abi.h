// The part of NVML's public C API that the snapshot-backed libnvidia-ml answers:
// return codes, enums and struct layouts as NVIDIA documents them (nvml.h, the
// "NVML API Reference"), declared here from those facts. Sizes are checked below
// and against a third-party binding (tests/nvml).
#pragma once

#include <cstddef>

extern "C" {

typedef int nvmlReturn_t;
enum : int {
  NVML_SUCCESS = 0,
  NVML_ERROR_UNINITIALIZED = 1,
  NVML_ERROR_INVALID_ARGUMENT = 2,
  NVML_ERROR_NOT_SUPPORTED = 3,
  NVML_ERROR_NO_PERMISSION = 4,
  NVML_ERROR_ALREADY_INITIALIZED = 5,
  NVML_ERROR_NOT_FOUND = 6,
  NVML_ERROR_INSUFFICIENT_SIZE = 7,
  NVML_ERROR_INSUFFICIENT_POWER = 8,
  NVML_ERROR_DRIVER_NOT_LOADED = 9,
  NVML_ERROR_TIMEOUT = 10,
  NVML_ERROR_IRQ_ISSUE = 11,
  NVML_ERROR_LIBRARY_NOT_FOUND = 12,
  NVML_ERROR_FUNCTION_NOT_FOUND = 13,
  NVML_ERROR_CORRUPTED_INFOROM = 14,
  NVML_ERROR_GPU_IS_LOST = 15,
  NVML_ERROR_RESET_REQUIRED = 16,
  NVML_ERROR_OPERATING_SYSTEM = 17,
  NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18,
  NVML_ERROR_IN_USE = 19,
  NVML_ERROR_MEMORY = 20,
  NVML_ERROR_NO_DATA = 21,
  NVML_ERROR_VGPU_ECC_NOT_SUPPORTED = 22,
  NVML_ERROR_INSUFFICIENT_RESOURCES = 23,
  NVML_ERROR_FREQ_NOT_SUPPORTED = 24,
  NVML_ERROR_ARGUMENT_VERSION_MISMATCH = 25,
  NVML_ERROR_DEPRECATED = 26,
  NVML_ERROR_NOT_READY = 27,
  NVML_ERROR_GPU_NOT_FOUND = 28,
  NVML_ERROR_INVALID_STATE = 29,
  NVML_ERROR_UNKNOWN = 999,
};

// nvmlDevice_t is an opaque pointer; ours point at a Gpu of the model.
struct nvmlDevice_st;
typedef struct nvmlDevice_st* nvmlDevice_t;

enum : int { NVML_FEATURE_DISABLED = 0, NVML_FEATURE_ENABLED = 1 };

enum : int {
  NVML_BRAND_UNKNOWN = 0,
  NVML_BRAND_QUADRO = 1,
  NVML_BRAND_TESLA = 2,
  NVML_BRAND_GEFORCE = 5,
  NVML_BRAND_TITAN = 6,
  NVML_BRAND_NVIDIA_RTX = 13,
  NVML_BRAND_NVIDIA = 14,
};

enum : unsigned {
  NVML_DEVICE_ARCH_KEPLER = 2,
  NVML_DEVICE_ARCH_MAXWELL = 3,
  NVML_DEVICE_ARCH_PASCAL = 4,
  NVML_DEVICE_ARCH_VOLTA = 5,
  NVML_DEVICE_ARCH_TURING = 6,
  NVML_DEVICE_ARCH_AMPERE = 7,
  NVML_DEVICE_ARCH_ADA = 8,
  NVML_DEVICE_ARCH_HOPPER = 9,
  NVML_DEVICE_ARCH_BLACKWELL = 10,
  NVML_DEVICE_ARCH_UNKNOWN = 0xffffffffu,
};

enum : int {
  NVML_TOPOLOGY_INTERNAL = 0,
  NVML_TOPOLOGY_SINGLE = 10,
  NVML_TOPOLOGY_MULTIPLE = 20,
  NVML_TOPOLOGY_HOSTBRIDGE = 30,
  NVML_TOPOLOGY_NODE = 40,
  NVML_TOPOLOGY_SYSTEM = 50,
};

enum : int { NVML_AFFINITY_SCOPE_NODE = 0, NVML_AFFINITY_SCOPE_SOCKET = 1 };

// nvmlIntNvLinkDeviceType_t
enum : int {
  NVML_NVLINK_DEVICE_TYPE_GPU = 0,
  NVML_NVLINK_DEVICE_TYPE_IBMNPU = 1,
  NVML_NVLINK_DEVICE_TYPE_SWITCH = 2,
  NVML_NVLINK_DEVICE_TYPE_UNKNOWN = 0xff,
};

// nvmlDeviceAddressingModeType_t (driver 580 on)
enum : unsigned {
  NVML_DEVICE_ADDRESSING_MODE_NONE = 0,
  NVML_DEVICE_ADDRESSING_MODE_HMM = 1,
  NVML_DEVICE_ADDRESSING_MODE_ATS = 2,
};

inline constexpr unsigned NVML_NVLINK_MAX_LINKS = 18;
inline constexpr unsigned NVML_DEVICE_MIG_DISABLE = 0;
inline constexpr unsigned NVML_DEVICE_MIG_ENABLE = 1;
inline constexpr unsigned NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE = 32;
inline constexpr unsigned NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE = 16;
inline constexpr unsigned NVML_INIT_FLAG_NO_GPUS = 1;
inline constexpr unsigned NVML_INIT_FLAG_NO_ATTACH = 2;

// nvmlPciInfo_t: the layout of nvmlDeviceGetPciInfo_v2/_v3 (busIdLegacy first).
struct nvmlPciInfo_t {
  char busIdLegacy[NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE];  // "0000:1B:00.0"
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pciDeviceId;     // device id << 16 | vendor id
  unsigned int pciSubSystemId;  // subsystem device id << 16 | subsystem vendor id
  char busId[NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE];  // "00000000:1B:00.0"
};

// The first nvmlDeviceGetPciInfo (NVML 1-era): a 16-byte bus id and four reserved words.
struct nvmlPciInfo_v1_t {
  char busId[NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE];
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pciDeviceId;
  unsigned int pciSubSystemId;
  unsigned int reserved0, reserved1, reserved2, reserved3;
};

struct nvmlMemory_t {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;  // includes what the driver reserves
};

struct nvmlMemory_v2_t {
  unsigned int version;  // nvmlMemory_v2 (the caller sets it)
  unsigned long long total;
  unsigned long long reserved;
  unsigned long long free;
  unsigned long long used;
};

struct nvmlBAR1Memory_t {
  unsigned long long bar1Total;
  unsigned long long bar1Free;
  unsigned long long bar1Used;
};

struct nvmlDeviceAddressingMode_t {
  unsigned int version;  // nvmlDeviceAddressingMode_v1
  unsigned int value;    // NVML_DEVICE_ADDRESSING_MODE_*
};

struct nvmlUtilization_t {
  unsigned int gpu;     // percent of time a kernel ran
  unsigned int memory;  // percent of time memory was read or written
};

enum : int { NVML_TEMPERATURE_GPU = 0 };
enum : int { NVML_CLOCK_GRAPHICS = 0, NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2, NVML_CLOCK_VIDEO = 3 };

struct nvmlC2cModeInfo_v1_t {
  unsigned int isC2cEnabled;
};

// ---- MIG: GPU and compute instances (nvml.h's Multi Instance GPU Management)
struct nvmlGpuInstance_st;
typedef struct nvmlGpuInstance_st* nvmlGpuInstance_t;
struct nvmlComputeInstance_st;
typedef struct nvmlComputeInstance_st* nvmlComputeInstance_t;

inline constexpr unsigned NVML_DEVICE_NAME_V2_BUFFER_SIZE = 96;
inline constexpr unsigned NVML_GPU_INSTANCE_PROFILE_CAPS_P2P = 1;
inline constexpr unsigned NVML_COMPUTE_INSTANCE_ENGINE_PROFILE_SHARED = 0;

struct nvmlGpuInstancePlacement_t {
  unsigned int start;
  unsigned int size;
};
typedef nvmlGpuInstancePlacement_t nvmlComputeInstancePlacement_t;

// The first profile info struct (no version field).
struct nvmlGpuInstanceProfileInfo_t {
  unsigned int id;
  unsigned int isP2pSupported;
  unsigned int sliceCount;
  unsigned int instanceCount;
  unsigned int multiprocessorCount;
  unsigned int copyEngineCount;
  unsigned int decoderCount;
  unsigned int encoderCount;
  unsigned int jpegCount;
  unsigned int ofaCount;
  unsigned long long memorySizeMB;
};

struct nvmlGpuInstanceProfileInfo_v2_t {
  unsigned int version;  // nvmlGpuInstanceProfileInfo_v2
  unsigned int id;
  unsigned int isP2pSupported;
  unsigned int sliceCount;
  unsigned int instanceCount;
  unsigned int multiprocessorCount;
  unsigned int copyEngineCount;
  unsigned int decoderCount;
  unsigned int encoderCount;
  unsigned int jpegCount;
  unsigned int ofaCount;
  unsigned long long memorySizeMB;
  char name[NVML_DEVICE_NAME_V2_BUFFER_SIZE];
};

// v3 drops isP2pSupported for a capabilities mask at the end.
struct nvmlGpuInstanceProfileInfo_v3_t {
  unsigned int version;  // nvmlGpuInstanceProfileInfo_v3
  unsigned int id;
  unsigned int sliceCount;
  unsigned int instanceCount;
  unsigned int multiprocessorCount;
  unsigned int copyEngineCount;
  unsigned int decoderCount;
  unsigned int encoderCount;
  unsigned int jpegCount;
  unsigned int ofaCount;
  unsigned long long memorySizeMB;
  char name[NVML_DEVICE_NAME_V2_BUFFER_SIZE];
  unsigned int capabilities;  // NVML_GPU_INSTANCE_PROFILE_CAPS_*
};

struct nvmlGpuInstanceInfo_t {
  nvmlDevice_t device;  // the parent GPU
  unsigned int id;
  unsigned int profileId;
  nvmlGpuInstancePlacement_t placement;
};

struct nvmlComputeInstanceProfileInfo_t {
  unsigned int id;
  unsigned int sliceCount;
  unsigned int instanceCount;
  unsigned int multiprocessorCount;
  unsigned int sharedCopyEngineCount;
  unsigned int sharedDecoderCount;
  unsigned int sharedEncoderCount;
  unsigned int sharedJpegCount;
  unsigned int sharedOfaCount;
};

struct nvmlComputeInstanceProfileInfo_v2_t {
  unsigned int version;  // nvmlComputeInstanceProfileInfo_v2
  unsigned int id;
  unsigned int sliceCount;
  unsigned int instanceCount;
  unsigned int multiprocessorCount;
  unsigned int sharedCopyEngineCount;
  unsigned int sharedDecoderCount;
  unsigned int sharedEncoderCount;
  unsigned int sharedJpegCount;
  unsigned int sharedOfaCount;
  char name[NVML_DEVICE_NAME_V2_BUFFER_SIZE];
};

struct nvmlComputeInstanceProfileInfo_v3_t {
  unsigned int version;  // nvmlComputeInstanceProfileInfo_v3
  unsigned int id;
  unsigned int sliceCount;
  unsigned int instanceCount;
  unsigned int multiprocessorCount;
  unsigned int sharedCopyEngineCount;
  unsigned int sharedDecoderCount;
  unsigned int sharedEncoderCount;
  unsigned int sharedJpegCount;
  unsigned int sharedOfaCount;
  char name[NVML_DEVICE_NAME_V2_BUFFER_SIZE];
  unsigned int capabilities;
};

struct nvmlComputeInstanceInfo_t {
  nvmlDevice_t device;  // the parent GPU
  nvmlGpuInstance_t gpuInstance;
  unsigned int id;
  unsigned int profileId;
  nvmlComputeInstancePlacement_t placement;
};

}  // extern "C"

// NVML_STRUCT_VERSION(name, ver): sizeof the struct | ver << 24.
constexpr unsigned int nvml_struct_version(std::size_t size, unsigned version) {
  return static_cast<unsigned int>(size) | (version << 24);
}
inline constexpr unsigned int nvmlMemory_v2 = nvml_struct_version(sizeof(nvmlMemory_v2_t), 2);
inline constexpr unsigned int nvmlDeviceAddressingMode_v1 =
    nvml_struct_version(sizeof(nvmlDeviceAddressingMode_t), 1);

inline constexpr unsigned int nvmlGpuInstanceProfileInfo_v2 =
    nvml_struct_version(sizeof(nvmlGpuInstanceProfileInfo_v2_t), 2);
inline constexpr unsigned int nvmlGpuInstanceProfileInfo_v3 =
    nvml_struct_version(sizeof(nvmlGpuInstanceProfileInfo_v3_t), 3);
inline constexpr unsigned int nvmlComputeInstanceProfileInfo_v2 =
    nvml_struct_version(sizeof(nvmlComputeInstanceProfileInfo_v2_t), 2);
inline constexpr unsigned int nvmlComputeInstanceProfileInfo_v3 =
    nvml_struct_version(sizeof(nvmlComputeInstanceProfileInfo_v3_t), 3);

static_assert(sizeof(nvmlPciInfo_t) == 68);
static_assert(sizeof(nvmlGpuInstanceProfileInfo_t) == 48);
static_assert(sizeof(nvmlGpuInstanceProfileInfo_v2_t) == 152);
static_assert(sizeof(nvmlGpuInstanceProfileInfo_v3_t) == 152);
static_assert(offsetof(nvmlGpuInstanceProfileInfo_v2_t, memorySizeMB) == 48);
static_assert(offsetof(nvmlGpuInstanceProfileInfo_v3_t, memorySizeMB) == 40);
static_assert(offsetof(nvmlGpuInstanceProfileInfo_v3_t, capabilities) == 144);
static_assert(sizeof(nvmlGpuInstanceInfo_t) == 24);
static_assert(sizeof(nvmlComputeInstanceProfileInfo_t) == 36);
static_assert(sizeof(nvmlComputeInstanceProfileInfo_v2_t) == 136);
static_assert(sizeof(nvmlComputeInstanceProfileInfo_v3_t) == 140);
static_assert(sizeof(nvmlComputeInstanceInfo_t) == 32);
static_assert(offsetof(nvmlPciInfo_t, busId) == 36);
static_assert(sizeof(nvmlPciInfo_v1_t) == 52);
static_assert(sizeof(nvmlMemory_t) == 24);
static_assert(sizeof(nvmlMemory_v2_t) == 40);
static_assert(offsetof(nvmlMemory_v2_t, total) == 8);
static_assert(sizeof(nvmlBAR1Memory_t) == 24);
static_assert(sizeof(nvmlDeviceAddressingMode_t) == 8);
static_assert(nvmlMemory_v2 == 0x02000028);
static_assert(sizeof(nvmlUtilization_t) == 8);
