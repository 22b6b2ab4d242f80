// Contexts (primary and explicit, the per-thread stack) and memory: device,
// managed and host allocations, accounted per device against the free memory the
// snapshot recorded, so a runtime's reserve and out-of-memory paths run
// (docs/cuda.md, "Memory"). Device pointers are addresses nobody may touch;
// managed and host allocations are real (lazily backed) host memory.
#include <sys/mman.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "cuda/cuda_api_internal.h"

namespace hwaccel::cuda::api {
namespace {

struct Ctx {
  std::size_t position = 0;  // the device's position in Model::devices
  CUdevice ordinal = 0;
  bool primary = false;
  unsigned flags = 0;
  int retained = 0;  // primary: cuDevicePrimaryCtxRetain count; explicit: 1 until destroyed
};

enum class Kind { device, managed, host };
struct Allocation {
  std::size_t bytes = 0, counted = 0;
  std::size_t position = 0;  // the device it is counted against
  Kind kind = Kind::device;
  Ctx* ctx = nullptr;
};

constexpr std::size_t kAlignment = 512;                 // what cuMemAlloc promises (>= 256)
constexpr CUdeviceptr kDeviceBase = 0x200000000000ull;  // per device: a 1 TiB window
constexpr CUdeviceptr kWindow = 0x10000000000ull;

// Never freed: a context handle a program keeps stays an address we can compare.
std::set<Ctx*>* g_contexts = new std::set<Ctx*>;
std::map<std::size_t, Ctx*>* g_primary = new std::map<std::size_t, Ctx*>;
std::map<CUdeviceptr, Allocation>* g_allocations = new std::map<CUdeviceptr, Allocation>;
std::map<std::size_t, std::uint64_t>* g_used = new std::map<std::size_t, std::uint64_t>;
thread_local std::vector<Ctx*> t_stack;

bool alive(Ctx* ctx) {
  return ctx && g_contexts->count(ctx) && ctx->retained > 0;
}

// The calling thread's current context, alive; nullptr when none.
Ctx* current() {
  return !t_stack.empty() && alive(t_stack.back()) ? t_stack.back() : nullptr;
}

std::size_t rounded(std::size_t bytes) {
  return (bytes + kAlignment - 1) / kAlignment * kAlignment;
}

std::uint64_t free_of(const Model& model, std::size_t position) {
  const std::uint64_t recorded = model.devices[position].free, used = (*g_used)[position];
  return recorded > used ? recorded - used : 0;
}

// A free address range of `bytes` in the device's window (first fit).
CUdeviceptr place(std::size_t position, std::size_t bytes) {
  CUdeviceptr at = kDeviceBase + position * kWindow, end = at + kWindow;
  for (auto it = g_allocations->lower_bound(at); it != g_allocations->end() && it->first < end;
       ++it) {
    if (it->first >= at + bytes) break;
    at = std::max(at, it->first + rounded(it->second.bytes));
  }
  return at + bytes <= end ? at : 0;
}

void release_allocations_of(Ctx* ctx) {
  for (auto it = g_allocations->begin(); it != g_allocations->end();) {
    if (it->second.ctx != ctx) {
      ++it;
      continue;
    }
    (*g_used)[it->second.position] -= it->second.counted;
    if (it->second.kind != Kind::device)
      munmap(reinterpret_cast<void*>(it->first), it->second.bytes);
    it = g_allocations->erase(it);
  }
}

CUresult allocate(CUdeviceptr* out, std::size_t bytes, Kind kind) {
  if (!out || bytes == 0) return CUDA_ERROR_INVALID_VALUE;
  const Model* model = ready_model();
  if (!model) return CUDA_ERROR_NOT_INITIALIZED;
  Ctx* ctx = current();
  if (!ctx) return CUDA_ERROR_INVALID_CONTEXT;
  const std::size_t position = ctx->position;
  const Device& device = model->devices[position];
  // Pinned host memory is the device's own on a unified-memory host (GB10).
  const bool counted = kind != Kind::host || device.unified;
  const std::size_t size = rounded(bytes);
  if (size < bytes) return CUDA_ERROR_OUT_OF_MEMORY;
  if (counted && size > free_of(*model, position)) return CUDA_ERROR_OUT_OF_MEMORY;
  CUdeviceptr at = 0;
  if (kind == Kind::device) {
    at = place(position, size);
  } else {
    // Host-visible memory a program may write: reserved, backed only when touched.
    void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    at = p == MAP_FAILED ? 0 : reinterpret_cast<CUdeviceptr>(p);
  }
  if (at == 0) return CUDA_ERROR_OUT_OF_MEMORY;
  (*g_allocations)[at] = Allocation{size, counted ? size : 0, position, kind, ctx};
  if (counted) (*g_used)[position] += size;
  *out = at;
  return CUDA_SUCCESS;
}

CUresult release(CUdeviceptr at, bool host) {
  if (!ready_model()) return CUDA_ERROR_NOT_INITIALIZED;
  auto it = g_allocations->find(at);
  if (it == g_allocations->end() || (it->second.kind == Kind::host) != host)
    return CUDA_ERROR_INVALID_VALUE;
  (*g_used)[it->second.position] -= it->second.counted;
  if (it->second.kind != Kind::device) munmap(reinterpret_cast<void*>(at), it->second.bytes);
  g_allocations->erase(it);
  return CUDA_SUCCESS;
}

Ctx* primary_of(std::size_t position, CUdevice ordinal) {
  Ctx*& ctx = (*g_primary)[position];
  if (!ctx) {
    ctx = new Ctx{position, ordinal, true, 0, 0};
    g_contexts->insert(ctx);
  }
  return ctx;
}

}  // namespace
}  // namespace hwaccel::cuda::api

using namespace hwaccel::cuda;
using namespace hwaccel::cuda::api;

// --- primary contexts ---

CUDA_API CUresult cuDevicePrimaryCtxRetain(CUcontext* out, CUdevice device) {
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(state_mutex());
  std::size_t position = 0;
  if (CUresult r = position_of(device, position); r != CUDA_SUCCESS) return r;
  Ctx* ctx = primary_of(position, device);
  ++ctx->retained;
  *out = reinterpret_cast<CUcontext>(ctx);
  return CUDA_SUCCESS;
}

// The last release destroys the context and what was allocated in it.
CUDA_API CUresult cuDevicePrimaryCtxRelease_v2(CUdevice device) {
  std::lock_guard lock(state_mutex());
  std::size_t position = 0;
  if (CUresult r = position_of(device, position); r != CUDA_SUCCESS) return r;
  Ctx* ctx = primary_of(position, device);
  if (ctx->retained == 0) return CUDA_ERROR_INVALID_CONTEXT;
  if (--ctx->retained == 0) release_allocations_of(ctx);
  return CUDA_SUCCESS;
}

CUDA_API CUresult cuDevicePrimaryCtxRelease(CUdevice device) {
  return cuDevicePrimaryCtxRelease_v2(device);
}

CUDA_API CUresult cuDevicePrimaryCtxReset_v2(CUdevice device) {
  std::lock_guard lock(state_mutex());
  std::size_t position = 0;
  if (CUresult r = position_of(device, position); r != CUDA_SUCCESS) return r;
  Ctx* ctx = primary_of(position, device);
  release_allocations_of(ctx);
  ctx->retained = 0;
  ctx->flags = 0;
  return CUDA_SUCCESS;
}

CUDA_API CUresult cuDevicePrimaryCtxReset(CUdevice device) {
  return cuDevicePrimaryCtxReset_v2(device);
}

CUDA_API CUresult cuDevicePrimaryCtxGetState(CUdevice device, unsigned int* flags, int* active) {
  if (!flags || !active) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(state_mutex());
  std::size_t position = 0;
  if (CUresult r = position_of(device, position); r != CUDA_SUCCESS) return r;
  Ctx* ctx = primary_of(position, device);
  *flags = ctx->flags;
  *active = ctx->retained > 0;
  return CUDA_SUCCESS;
}

CUDA_API CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice device, unsigned int flags) {
  std::lock_guard lock(state_mutex());
  std::size_t position = 0;
  if (CUresult r = position_of(device, position); r != CUDA_SUCCESS) return r;
  if (flags & ~0x1fu) return CUDA_ERROR_INVALID_VALUE;
  primary_of(position, device)->flags = flags;
  return CUDA_SUCCESS;
}

CUDA_API CUresult cuDevicePrimaryCtxSetFlags(CUdevice device, unsigned int flags) {
  return cuDevicePrimaryCtxSetFlags_v2(device, flags);
}

// --- explicit contexts and the per-thread stack ---

CUDA_API CUresult cuCtxCreate_v2(CUcontext* out, unsigned int flags, CUdevice device) {
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(state_mutex());
  std::size_t position = 0;
  if (CUresult r = position_of(device, position); r != CUDA_SUCCESS) return r;
  Ctx* ctx = new Ctx{position, device, false, flags, 1};
  g_contexts->insert(ctx);
  t_stack.push_back(ctx);
  *out = reinterpret_cast<CUcontext>(ctx);
  return CUDA_SUCCESS;
}

CUDA_API CUresult cuCtxCreate(CUcontext* out, unsigned int flags, CUdevice device) {
  return cuCtxCreate_v2(out, flags, device);
}

CUDA_API CUresult cuCtxDestroy_v2(CUcontext handle) {
  std::lock_guard lock(state_mutex());
  if (!ready_model()) return CUDA_ERROR_NOT_INITIALIZED;
  Ctx* ctx = reinterpret_cast<Ctx*>(handle);
  if (!alive(ctx) || ctx->primary) return CUDA_ERROR_INVALID_CONTEXT;
  release_allocations_of(ctx);
  ctx->retained = 0;
  std::erase(t_stack, ctx);
  return CUDA_SUCCESS;
}

CUDA_API CUresult cuCtxDestroy(CUcontext handle) {
  return cuCtxDestroy_v2(handle);
}

CUDA_API CUresult cuCtxPushCurrent_v2(CUcontext handle) {
  std::lock_guard lock(state_mutex());
  if (!ready_model()) return CUDA_ERROR_NOT_INITIALIZED;
  Ctx* ctx = reinterpret_cast<Ctx*>(handle);
  if (!alive(ctx)) return CUDA_ERROR_INVALID_CONTEXT;
  t_stack.push_back(ctx);
  return CUDA_SUCCESS;
}

CUDA_API CUresult cuCtxPushCurrent(CUcontext handle) {
  return cuCtxPushCurrent_v2(handle);
}

CUDA_API CUresult cuCtxPopCurrent_v2(CUcontext* out) {
  std::lock_guard lock(state_mutex());
  if (!ready_model()) return CUDA_ERROR_NOT_INITIALIZED;
  if (t_stack.empty()) return CUDA_ERROR_INVALID_CONTEXT;
  if (out) *out = reinterpret_cast<CUcontext>(t_stack.back());
  t_stack.pop_back();
  return CUDA_SUCCESS;
}

CUDA_API CUresult cuCtxPopCurrent(CUcontext* out) {
  return cuCtxPopCurrent_v2(out);
}

CUDA_API CUresult cuCtxGetCurrent(CUcontext* out) {
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(state_mutex());
  if (!ready_model()) return CUDA_ERROR_NOT_INITIALIZED;
  *out = t_stack.empty() ? nullptr : reinterpret_cast<CUcontext>(t_stack.back());
  return CUDA_SUCCESS;
}

// NULL unbinds the thread's current context.
CUDA_API CUresult cuCtxSetCurrent(CUcontext handle) {
  std::lock_guard lock(state_mutex());
  if (!ready_model()) return CUDA_ERROR_NOT_INITIALIZED;
  Ctx* ctx = reinterpret_cast<Ctx*>(handle);
  if (!ctx) {
    if (!t_stack.empty()) t_stack.pop_back();
    return CUDA_SUCCESS;
  }
  if (!alive(ctx)) return CUDA_ERROR_INVALID_CONTEXT;
  if (t_stack.empty())
    t_stack.push_back(ctx);
  else
    t_stack.back() = ctx;
  return CUDA_SUCCESS;
}

CUDA_API CUresult cuCtxGetDevice(CUdevice* device) {
  if (!device) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(state_mutex());
  if (!ready_model()) return CUDA_ERROR_NOT_INITIALIZED;
  Ctx* ctx = current();
  if (!ctx) return CUDA_ERROR_INVALID_CONTEXT;
  *device = ctx->ordinal;
  return CUDA_SUCCESS;
}

CUDA_API CUresult cuCtxGetFlags(unsigned int* flags) {
  if (!flags) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(state_mutex());
  if (!ready_model()) return CUDA_ERROR_NOT_INITIALIZED;
  Ctx* ctx = current();
  if (!ctx) return CUDA_ERROR_INVALID_CONTEXT;
  *flags = ctx->flags;
  return CUDA_SUCCESS;
}

CUDA_API CUresult cuCtxGetApiVersion(CUcontext handle, unsigned int* version) {
  if (!version) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(state_mutex());
  if (!ready_model()) return CUDA_ERROR_NOT_INITIALIZED;
  Ctx* ctx = handle ? reinterpret_cast<Ctx*>(handle) : current();
  if (!alive(ctx)) return CUDA_ERROR_INVALID_CONTEXT;
  *version = 3020;  // every context since CUDA 3.2's API
  return CUDA_SUCCESS;
}

CUDA_API CUresult cuCtxGetStreamPriorityRange(int* least, int* greatest) {
  std::lock_guard lock(state_mutex());
  if (!ready_model()) return CUDA_ERROR_NOT_INITIALIZED;
  if (!current()) return CUDA_ERROR_INVALID_CONTEXT;
  if (least) *least = 0;
  if (greatest) *greatest = -5;
  return CUDA_SUCCESS;
}

// Nothing runs, so everything has finished.
CUDA_API CUresult cuCtxSynchronize() {
  std::lock_guard lock(state_mutex());
  if (!ready_model()) return CUDA_ERROR_NOT_INITIALIZED;
  return current() ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

// --- memory ---

CUDA_API CUresult cuMemGetInfo_v2(std::size_t* free, std::size_t* total) {
  std::lock_guard lock(state_mutex());
  const Model* model = ready_model();
  if (!model) return CUDA_ERROR_NOT_INITIALIZED;
  Ctx* ctx = current();
  if (!ctx) return CUDA_ERROR_INVALID_CONTEXT;
  if (!free || !total) return CUDA_ERROR_INVALID_VALUE;
  *free = free_of(*model, ctx->position);
  *total = model->devices[ctx->position].total;
  return CUDA_SUCCESS;
}

CUDA_API CUresult cuMemAlloc_v2(CUdeviceptr* out, std::size_t bytes) {
  std::lock_guard lock(state_mutex());
  return allocate(out, bytes, Kind::device);
}

CUDA_API CUresult cuMemAllocPitch_v2(CUdeviceptr* out, std::size_t* pitch, std::size_t width,
                                     std::size_t height, unsigned int element) {
  if (!pitch || width == 0 || height == 0 || (element != 4 && element != 8 && element != 16))
    return CUDA_ERROR_INVALID_VALUE;
  const std::size_t row = (width + kAlignment - 1) / kAlignment * kAlignment;
  if (height > static_cast<std::size_t>(-1) / row) return CUDA_ERROR_OUT_OF_MEMORY;
  std::lock_guard lock(state_mutex());
  CUresult r = allocate(out, row * height, Kind::device);
  if (r == CUDA_SUCCESS) *pitch = row;
  return r;
}

CUDA_API CUresult cuMemAllocManaged(CUdeviceptr* out, std::size_t bytes, unsigned int flags) {
  if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(state_mutex());
  return allocate(out, bytes, Kind::managed);
}

CUDA_API CUresult cuMemFree_v2(CUdeviceptr at) {
  std::lock_guard lock(state_mutex());
  if (at == 0) return ready_model() ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
  return release(at, false);
}

CUDA_API CUresult cuMemHostAlloc(void** out, std::size_t bytes, unsigned int flags) {
  if (!out || flags & ~7u) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(state_mutex());
  CUdeviceptr at = 0;
  CUresult r = allocate(&at, bytes, Kind::host);
  if (r == CUDA_SUCCESS) *out = reinterpret_cast<void*>(at);
  return r;
}

CUDA_API CUresult cuMemAllocHost_v2(void** out, std::size_t bytes) {
  return cuMemHostAlloc(out, bytes, 0);
}

CUDA_API CUresult cuMemFreeHost(void* p) {
  std::lock_guard lock(state_mutex());
  return release(reinterpret_cast<CUdeviceptr>(p), true);
}

// Host allocations are mapped at the same address on the device (UVA).
CUDA_API CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr* out, void* p, unsigned int flags) {
  if (!out || flags != 0) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(state_mutex());
  if (!ready_model()) return CUDA_ERROR_NOT_INITIALIZED;
  auto it = g_allocations->find(reinterpret_cast<CUdeviceptr>(p));
  if (it == g_allocations->end() || it->second.kind != Kind::host) return CUDA_ERROR_INVALID_VALUE;
  *out = it->first;
  return CUDA_SUCCESS;
}

CUDA_API CUresult cuMemGetAddressRange_v2(CUdeviceptr* base, std::size_t* size, CUdeviceptr at) {
  std::lock_guard lock(state_mutex());
  if (!ready_model()) return CUDA_ERROR_NOT_INITIALIZED;
  auto it = g_allocations->upper_bound(at);
  if (it == g_allocations->begin()) return CUDA_ERROR_NOT_FOUND;
  --it;
  if (at >= it->first + it->second.bytes || it->second.kind == Kind::host)
    return CUDA_ERROR_NOT_FOUND;
  if (base) *base = it->first;
  if (size) *size = it->second.bytes;
  return CUDA_SUCCESS;
}
