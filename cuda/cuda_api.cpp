// The driver API entry points for initialisation, devices and their attributes,
// peers and error text (docs/cuda.md). Contexts and memory: cuda_context.cpp;
// cuGetProcAddress: cuda_proc.cpp; everything else: cuda_stubs.cpp.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>

#include "cuda/cuda_api_internal.h"
#include "cuda/cuda_attributes.h"
#include "cuda/cuda_errors.h"

namespace hwaccel::cuda::api {

namespace {
std::mutex g_mutex;
bool g_tried = false;
CUresult g_init_result = CUDA_ERROR_NOT_INITIALIZED;
Model* g_model = nullptr;  // never freed: contexts and pointers may outlive anything
}  // namespace

std::mutex& state_mutex() {
  return g_mutex;
}

const Model* ready_model() {
  return g_init_result == CUDA_SUCCESS ? g_model : nullptr;
}

CUresult position_of(CUdevice device, std::size_t& position) {
  const Model* model = ready_model();
  if (!model) return CUDA_ERROR_NOT_INITIALIZED;
  if (device < 0 || static_cast<std::size_t>(device) >= model->visible.size())
    return CUDA_ERROR_INVALID_DEVICE;
  position = model->visible[static_cast<std::size_t>(device)];
  return CUDA_SUCCESS;
}

namespace {

// The device of `device`, or nullptr with `result` set.
const Device* device_of(CUdevice device, CUresult& result) {
  std::size_t position = 0;
  result = position_of(device, position);
  return result == CUDA_SUCCESS ? &ready_model()->devices[position] : nullptr;
}

}  // namespace
}  // namespace hwaccel::cuda::api

using namespace hwaccel::cuda;
using namespace hwaccel::cuda::api;

// Flags must be 0; the first call reads the snapshot and the environment, later
// calls give the same answer (as the real driver's do).
CUDA_API CUresult cuInit(unsigned int flags) {
  std::lock_guard lock(g_mutex);
  if (!g_tried) {
    g_tried = true;
    try {
      g_model = new Model(load_model());
      g_init_result = g_model->init_result;
    } catch (...) {
      g_init_result = CUDA_ERROR_UNKNOWN;
    }
  }
  if (flags != 0 && g_init_result == CUDA_SUCCESS) return CUDA_ERROR_INVALID_VALUE;
  return g_init_result;
}

// Works before cuInit, as the real one does; the snapshot is read for it.
CUDA_API CUresult cuDriverGetVersion(int* version) {
  if (!version) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(g_mutex);
  static const int known = [] {
    try {
      return load_model().driver_version;
    } catch (...) {
      return 0;
    }
  }();
  *version = g_model && g_model->driver_version ? g_model->driver_version : known;
  return CUDA_SUCCESS;
}

CUDA_API CUresult cuDeviceGetCount(int* count) {
  if (!count) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(g_mutex);
  const Model* model = ready_model();
  if (!model) return CUDA_ERROR_NOT_INITIALIZED;
  *count = static_cast<int>(model->visible.size());
  return CUDA_SUCCESS;
}

CUDA_API CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  if (!device) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(g_mutex);
  std::size_t position = 0;
  if (CUresult r = position_of(ordinal, position); r != CUDA_SUCCESS) return r;
  *device = ordinal;
  return CUDA_SUCCESS;
}

CUDA_API CUresult cuDeviceGetName(char* name, int length, CUdevice device) {
  if (!name || length <= 0) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(g_mutex);
  CUresult r;
  const Device* d = device_of(device, r);
  if (!d) return r;
  // A short buffer gets the name cut, terminated.
  std::size_t n = std::min(d->name.size(), static_cast<std::size_t>(length) - 1);
  std::memcpy(name, d->name.data(), n);
  name[n] = '\0';
  return CUDA_SUCCESS;
}

// cuDeviceGetUuid names the GPU; _v2 names a MIG device itself (CUDA 11.4 on).
CUDA_API CUresult cuDeviceGetUuid(CUuuid* uuid, CUdevice device) {
  if (!uuid) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(g_mutex);
  CUresult r;
  const Device* d = device_of(device, r);
  if (!d) return r;
  *uuid = d->gpu_uuid_bytes;
  return CUDA_SUCCESS;
}

CUDA_API CUresult cuDeviceGetUuid_v2(CUuuid* uuid, CUdevice device) {
  if (!uuid) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(g_mutex);
  CUresult r;
  const Device* d = device_of(device, r);
  if (!d) return r;
  *uuid = d->uuid_bytes;
  return CUDA_SUCCESS;
}

CUDA_API CUresult cuDeviceTotalMem_v2(std::size_t* bytes, CUdevice device) {
  if (!bytes) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(g_mutex);
  CUresult r;
  const Device* d = device_of(device, r);
  if (!d) return r;
  *bytes = d->total;
  return CUDA_SUCCESS;
}

CUDA_API CUresult cuDeviceGetAttribute(int* value, int attribute, CUdevice device) {
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(g_mutex);
  CUresult r;
  const Device* d = device_of(device, r);
  if (!d) return r;
  return attribute_of(*d, attribute, *value);
}

CUDA_API CUresult cuDeviceComputeCapability(int* major, int* minor, CUdevice device) {
  if (!major || !minor) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(g_mutex);
  CUresult r;
  const Device* d = device_of(device, r);
  if (!d) return r;
  *major = d->cc_major;
  *minor = d->cc_minor;
  return CUDA_SUCCESS;
}

// "0000:1B:00.0", as the real driver writes it.
CUDA_API CUresult cuDeviceGetPCIBusId(char* bus_id, int length, CUdevice device) {
  if (!bus_id || length <= 0) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(g_mutex);
  CUresult r;
  const Device* d = device_of(device, r);
  if (!d) return r;
  char text[32];
  std::snprintf(text, sizeof text, "%04X:%02X:%02X.%X", d->domain & 0xffff, d->bus & 0xff,
                d->device & 0x1f, d->function & 7);
  std::size_t n = std::min(std::strlen(text), static_cast<std::size_t>(length) - 1);
  std::memcpy(bus_id, text, n);
  bus_id[n] = '\0';
  return CUDA_SUCCESS;
}

// "[domain:]bus:device.function" in hex, any case.
CUDA_API CUresult cuDeviceGetByPCIBusId(CUdevice* device, const char* bus_id) {
  if (!device || !bus_id) return CUDA_ERROR_INVALID_VALUE;
  unsigned domain = 0, bus = 0, dev = 0, function = 0;
  char tail = 0;
  if (std::sscanf(bus_id, "%x:%x:%x.%x%c", &domain, &bus, &dev, &function, &tail) != 4) {
    domain = 0;
    if (std::sscanf(bus_id, "%x:%x.%x%c", &bus, &dev, &function, &tail) != 3)
      return CUDA_ERROR_INVALID_VALUE;
  }
  std::lock_guard lock(g_mutex);
  const Model* model = ready_model();
  if (!model) return CUDA_ERROR_NOT_INITIALIZED;
  for (std::size_t i = 0; i < model->visible.size(); ++i) {
    const Device& d = model->devices[model->visible[i]];
    if (d.domain == domain && d.bus == bus && d.device == dev && d.function == function) {
      *device = static_cast<CUdevice>(i);
      return CUDA_SUCCESS;
    }
  }
  return CUDA_ERROR_INVALID_DEVICE;
}

namespace {
CUresult peer_of(CUdevice a, CUdevice b, P2P& p2p) {
  std::size_t x = 0, y = 0;
  if (CUresult r = position_of(a, x); r != CUDA_SUCCESS) return r;
  if (CUresult r = position_of(b, y); r != CUDA_SUCCESS) return r;
  if (x == y) return CUDA_ERROR_INVALID_DEVICE;
  auto it = ready_model()->p2p.find({x, y});
  p2p = it == ready_model()->p2p.end() ? P2P{} : it->second;  // MIG devices have no peers
  return CUDA_SUCCESS;
}
}  // namespace

CUDA_API CUresult cuDeviceCanAccessPeer(int* can, CUdevice device, CUdevice peer) {
  if (!can) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(g_mutex);
  P2P p2p;
  if (CUresult r = peer_of(device, peer, p2p); r != CUDA_SUCCESS) return r;
  *can = p2p.access;
  return CUDA_SUCCESS;
}

CUDA_API CUresult cuDeviceGetP2PAttribute(int* value, int attribute, CUdevice src, CUdevice dst) {
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(g_mutex);
  P2P p2p;
  if (CUresult r = peer_of(src, dst, p2p); r != CUDA_SUCCESS) return r;
  switch (attribute) {
    case CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK:
      *value = p2p.access ? p2p.rank : 0;
      return CUDA_SUCCESS;
    case CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED:
    case CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED:
      *value = p2p.access;
      return CUDA_SUCCESS;
    case CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED:
      *value = p2p.atomics;
      return CUDA_SUCCESS;
    default:
      return CUDA_ERROR_INVALID_VALUE;
  }
}

CUDA_API CUresult cuGetErrorName(CUresult error, const char** name) {
  if (!name) return CUDA_ERROR_INVALID_VALUE;
  const ErrorText* text = error_text(error);
  *name = text ? text->name : nullptr;
  return text ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUDA_API CUresult cuGetErrorString(CUresult error, const char** string) {
  if (!string) return CUDA_ERROR_INVALID_VALUE;
  const ErrorText* text = error_text(error);
  *string = text ? text->text : nullptr;
  return text ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

// CU_MODULE_LAZY_LOADING (2): the default since CUDA 12.2 (CUDA_MODULE_LOADING).
CUDA_API CUresult cuModuleGetLoadingMode(int* mode) {
  if (!mode) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(g_mutex);
  if (!ready_model()) return CUDA_ERROR_NOT_INITIALIZED;
  *mode = 2;
  return CUDA_SUCCESS;
}
