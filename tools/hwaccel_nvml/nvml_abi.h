// The few NVML entry points hwaccel-nvml calls, declared from NVML's public API
// reference (NVIDIA Management Library, nvml.h): opaque handles, an int return
// code (0 = NVML_SUCCESS), plain C structs. Only what this helper reads is here;
// the library is opened with dlopen, so nothing links against it.
#pragma once

namespace hwaccel_nvml {

using Return = int;                   // nvmlReturn_t
using Device = struct DeviceOpaque*;  // nvmlDevice_t

inline constexpr Return kSuccess = 0;
inline constexpr Return kErrorNotSupported = 3;
inline constexpr Return kErrorInsufficientSize = 7;
inline constexpr Return kErrorFunctionNotFound = 13;  // NVML_ERROR_FUNCTION_NOT_FOUND
inline constexpr Return kErrorNotFound = 6;

inline constexpr unsigned kNvLinkMaxLinks = 18;  // NVML_NVLINK_MAX_LINKS
inline constexpr unsigned kStringSize = 96;      // above every NVML_*_BUFFER_SIZE used

// nvmlPciInfo_t as the _v3 calls fill it.
struct PciInfo {
  char bus_id_legacy[16];
  unsigned domain;
  unsigned bus;
  unsigned device;
  unsigned pci_device_id;  // (device << 16) | vendor
  unsigned pci_subsystem_id;
  char bus_id[32];  // "00000000:00:06.0"
};

// nvmlMemory_t (v1): bytes.
struct Memory {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};

// nvmlC2cModeInfo_v1_t
struct C2cModeInfo {
  unsigned is_c2c_enabled;
};

// nvmlDeviceAddressingMode_t (versioned: sizeof | 1 << 24); value 0 none, 1 HMM, 2 ATS.
struct AddressingMode {
  unsigned version;
  unsigned value;
};
inline constexpr unsigned kAddressingModeVersion1 = sizeof(AddressingMode) | (1u << 24);

using InitFn = Return (*)();
using ShutdownFn = Return (*)();
using ErrorStringFn = const char* (*)(Return);
using SystemStringFn = Return (*)(char*, unsigned);
using SystemIntFn = Return (*)(int*);
using CountFn = Return (*)(unsigned*);
using HandleByIndexFn = Return (*)(unsigned, Device*);
using DeviceStringFn = Return (*)(Device, char*, unsigned);
using PciInfoFn = Return (*)(Device, PciInfo*);
using MemoryFn = Return (*)(Device, Memory*);
using ComputeCapFn = Return (*)(Device, int*, int*);
using TwoUnsignedFn = Return (*)(Device, unsigned*, unsigned*);  // MIG mode: current, pending
using UnsignedFn = Return (*)(Device, unsigned*);
using IntFn = Return (*)(Device, int*);  // enums (persistence, compute mode)
using MigHandleFn = Return (*)(Device, unsigned, Device*);
using NvLinkStateFn = Return (*)(Device, unsigned, int*);
using NvLinkRemoteFn = Return (*)(Device, unsigned, PciInfo*);
using NvLinkTypeFn = Return (*)(Device, unsigned, int*);  // NVML_NVLINK_DEVICE_TYPE_*
using CommonAncestorFn = Return (*)(Device, Device, int*);
// nvmlDeviceGetCpuAffinity / nvmlDeviceGetMemoryAffinity: bitmasks in unsigned longs.
using CpuAffinityFn = Return (*)(Device, unsigned, unsigned long*);
using MemoryAffinityFn = Return (*)(Device, unsigned, unsigned long*, int);
inline constexpr int kAffinityScopeNode = 0;    // NVML_AFFINITY_SCOPE_NODE
inline constexpr int kNvLinkDeviceSwitch = 2;   // NVML_NVLINK_DEVICE_TYPE_SWITCH
inline constexpr unsigned kAffinityWords = 64;  // 4096 CPUs or NUMA nodes
using C2cFn = Return (*)(Device, C2cModeInfo*);

// The monitoring getters (tools/hwaccel_nvml/nvml_monitor.cpp).
inline constexpr Return kErrorNoPermission = 4;
inline constexpr Return kErrorGpuIsLost = 15;
inline constexpr int kPstateUnknown = 32;                        // NVML_PSTATE_UNKNOWN
inline constexpr unsigned long long kValueNotAvailable = ~0ull;  // NVML_VALUE_NOT_AVAILABLE
// nvmlUtilization_t: percent of the sample period.
struct Utilization {
  unsigned gpu;
  unsigned memory;
};
// nvmlProcessInfo_v2_t / _v3_t (one layout): bytes, MIG ids 0xFFFFFFFF when not MIG.
struct ProcessInfo {
  unsigned pid;
  unsigned long long used_gpu_memory;
  unsigned gpu_instance_id;
  unsigned compute_instance_id;
};
using SensorFn = Return (*)(Device, int, unsigned*);  // temperature, clocks by type
using UtilizationFn = Return (*)(Device, Utilization*);
using EngineUtilizationFn = Return (*)(Device, unsigned*, unsigned*);  // value, period (us)
using ReasonsFn = Return (*)(Device, unsigned long long*);
using ProcessesFn = Return (*)(Device, unsigned*, ProcessInfo*);
using ProcessNameFn = Return (*)(unsigned, char*, unsigned);
using AddressingFn = Return (*)(Device, AddressingMode*);

}  // namespace hwaccel_nvml
