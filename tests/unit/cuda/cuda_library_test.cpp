// libcuda.so.1 through its C ABI, as a program loads it, on one fixture host
// (cuInit reads the snapshot once per process): calls before cuInit, contexts and
// the per-thread stack, allocations against the recorded free memory,
// cuGetProcAddress's version and flag rules, error text, and stubs.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "cuda/cuda_abi.h"
#include "tests/support/test_support.h"

namespace {

void* lib() {
  static void* handle = [] {
    void* h = ::dlopen(HWACCEL_BIN_DIR "/libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    EXPECT_NE(h, nullptr) << ::dlerror();
    return h;
  }();
  return handle;
}

template <typename F>
F call(const char* name) {
  void* f = ::dlsym(lib(), name);
  EXPECT_NE(f, nullptr) << name;
  return reinterpret_cast<F>(f);
}

CUresult init() {
  std::string path = hwaccel::testing::source_path("fixtures/hosts/dgx-h100.yaml");
  ::setenv("HWSIM_CUDA_SNAPSHOT", path.c_str(), 1);
  ::setenv("CUDA_VISIBLE_DEVICES", "1,0", 1);
  CUresult r = call<CUresult (*)(unsigned)>("cuInit")(0);
  ::unsetenv("CUDA_VISIBLE_DEVICES");
  return r;
}

using GetCount = CUresult (*)(int*);
using Retain = CUresult (*)(CUcontext*, CUdevice);
using Ctx = CUresult (*)(CUcontext);
using MemInfo = CUresult (*)(std::size_t*, std::size_t*);
using Alloc = CUresult (*)(CUdeviceptr*, std::size_t);
using Free = CUresult (*)(CUdeviceptr);

// First in the file: the calls a program makes before cuInit.
TEST(CudaLibrary, CallsBeforeInitAreNotInitialized) {
  int count = 0;
  EXPECT_EQ(call<GetCount>("cuDeviceGetCount")(&count), CUDA_ERROR_NOT_INITIALIZED);
  int version = 0;
  EXPECT_EQ(call<CUresult (*)(int*)>("cuDriverGetVersion")(&version), CUDA_SUCCESS);
}

TEST(CudaLibrary, InitHonoursVisibleDevices) {
  ASSERT_EQ(init(), CUDA_SUCCESS);
  EXPECT_EQ(init(), CUDA_SUCCESS);  // again: the same answer
  int count = 0;
  ASSERT_EQ(call<GetCount>("cuDeviceGetCount")(&count), CUDA_SUCCESS);
  EXPECT_EQ(count, 2);
  char bus[16];
  ASSERT_EQ(call<CUresult (*)(char*, int, CUdevice)>("cuDeviceGetPCIBusId")(bus, sizeof bus, 0),
            CUDA_SUCCESS);
  EXPECT_STREQ(bus, "0000:43:00.0");  // ordinal 0 is the second GPU
  CUdevice found = -1;
  EXPECT_EQ(
      call<CUresult (*)(CUdevice*, const char*)>("cuDeviceGetByPCIBusId")(&found, "0000:1b:00.0"),
      CUDA_SUCCESS);
  EXPECT_EQ(found, 1);
  EXPECT_EQ(
      call<CUresult (*)(CUdevice*, const char*)>("cuDeviceGetByPCIBusId")(&found, "0000:52:00.0"),
      CUDA_ERROR_INVALID_DEVICE);  // hidden
  char name[8];
  ASSERT_EQ(call<CUresult (*)(char*, int, CUdevice)>("cuDeviceGetName")(name, sizeof name, 0),
            CUDA_SUCCESS);
  EXPECT_EQ(std::strlen(name), 7u);  // cut to the buffer
  int value = 0;
  EXPECT_EQ(call<CUresult (*)(int*, int, CUdevice)>("cuDeviceGetAttribute")(&value, 9999, 0),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(call<CUresult (*)(int*, int, CUdevice)>("cuDeviceGetAttribute")(&value, 16, 2),
            CUDA_ERROR_INVALID_DEVICE);
}

TEST(CudaLibrary, MemoryIsAccountedPerDevice) {
  ASSERT_EQ(init(), CUDA_SUCCESS);
  CUcontext c0 = nullptr, c1 = nullptr;
  ASSERT_EQ(call<Retain>("cuDevicePrimaryCtxRetain")(&c0, 0), CUDA_SUCCESS);
  ASSERT_EQ(call<Retain>("cuDevicePrimaryCtxRetain")(&c1, 1), CUDA_SUCCESS);
  std::size_t free0 = 0, total = 0, free1 = 0, now = 0;
  // No current context yet.
  EXPECT_EQ(call<MemInfo>("cuMemGetInfo_v2")(&free0, &total), CUDA_ERROR_INVALID_CONTEXT);
  ASSERT_EQ(call<Ctx>("cuCtxPushCurrent_v2")(c1), CUDA_SUCCESS);
  ASSERT_EQ(call<MemInfo>("cuMemGetInfo_v2")(&free1, &total), CUDA_SUCCESS);
  ASSERT_EQ(call<Ctx>("cuCtxSetCurrent")(c0), CUDA_SUCCESS);
  ASSERT_EQ(call<MemInfo>("cuMemGetInfo_v2")(&free0, &total), CUDA_SUCCESS);
  CUdeviceptr a = 0, b = 0, c = 0;
  ASSERT_EQ(call<Alloc>("cuMemAlloc_v2")(&a, 1000), CUDA_SUCCESS);
  ASSERT_EQ(call<Alloc>("cuMemAlloc_v2")(&b, 1 << 20), CUDA_SUCCESS);
  EXPECT_NE(a, 0u);
  EXPECT_NE(a, b);
  EXPECT_EQ(a % 512, 0u);
  EXPECT_EQ(b % 512, 0u);
  ASSERT_EQ(call<MemInfo>("cuMemGetInfo_v2")(&now, &total), CUDA_SUCCESS);
  EXPECT_EQ(now, free0 - 1024 - (1 << 20));  // sizes in 512-byte units
  EXPECT_EQ(call<Alloc>("cuMemAlloc_v2")(&c, now + 1), CUDA_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(call<Alloc>("cuMemAlloc_v2")(&c, 0), CUDA_ERROR_INVALID_VALUE);
  // The other device's free memory is untouched.
  ASSERT_EQ(call<Ctx>("cuCtxSetCurrent")(c1), CUDA_SUCCESS);
  ASSERT_EQ(call<MemInfo>("cuMemGetInfo_v2")(&now, &total), CUDA_SUCCESS);
  EXPECT_EQ(now, free1);
  EXPECT_EQ(call<Free>("cuMemFree_v2")(a), CUDA_SUCCESS);
  EXPECT_EQ(call<Free>("cuMemFree_v2")(a), CUDA_ERROR_INVALID_VALUE);  // twice
  // Releasing the primary context frees what was allocated in it.
  EXPECT_EQ(call<CUresult (*)(CUdevice)>("cuDevicePrimaryCtxRelease_v2")(0), CUDA_SUCCESS);
  ASSERT_EQ(call<Retain>("cuDevicePrimaryCtxRetain")(&c0, 0), CUDA_SUCCESS);
  ASSERT_EQ(call<Ctx>("cuCtxSetCurrent")(c0), CUDA_SUCCESS);
  ASSERT_EQ(call<MemInfo>("cuMemGetInfo_v2")(&now, &total), CUDA_SUCCESS);
  EXPECT_EQ(now, free0);
  // Host memory is real and writable.
  void* host = nullptr;
  ASSERT_EQ(call<CUresult (*)(void**, std::size_t)>("cuMemAllocHost_v2")(&host, 4096),
            CUDA_SUCCESS);
  std::memset(host, 1, 4096);
  EXPECT_EQ(call<CUresult (*)(void*)>("cuMemFreeHost")(host), CUDA_SUCCESS);
  ASSERT_EQ(call<MemInfo>("cuMemGetInfo_v2")(&now, &total), CUDA_SUCCESS);
  EXPECT_EQ(now, free0);  // not the device's on a discrete GPU
  CUcontext popped = nullptr;
  EXPECT_EQ(call<CUresult (*)(CUcontext*)>("cuCtxPopCurrent_v2")(&popped), CUDA_SUCCESS);
  EXPECT_EQ(popped, c0);
  EXPECT_EQ(call<CUresult (*)(CUcontext*)>("cuCtxPopCurrent_v2")(&popped),
            CUDA_ERROR_INVALID_CONTEXT);
}

TEST(CudaLibrary, ContextsAreCurrentPerThread) {
  ASSERT_EQ(init(), CUDA_SUCCESS);
  CUcontext ctx = nullptr;
  ASSERT_EQ(call<CUresult (*)(CUcontext*, unsigned, CUdevice)>("cuCtxCreate_v2")(&ctx, 0, 1),
            CUDA_SUCCESS);
  CUdevice device = -1;
  EXPECT_EQ(call<CUresult (*)(CUdevice*)>("cuCtxGetDevice")(&device), CUDA_SUCCESS);
  EXPECT_EQ(device, 1);
  std::thread([] {
    CUcontext other = reinterpret_cast<CUcontext>(1);
    EXPECT_EQ(call<CUresult (*)(CUcontext*)>("cuCtxGetCurrent")(&other), CUDA_SUCCESS);
    EXPECT_EQ(other, nullptr);
    EXPECT_EQ(call<CUresult (*)()>("cuCtxSynchronize")(), CUDA_ERROR_INVALID_CONTEXT);
  }).join();
  EXPECT_EQ(call<CUresult (*)()>("cuCtxSynchronize")(), CUDA_SUCCESS);
  EXPECT_EQ(call<Ctx>("cuCtxDestroy_v2")(ctx), CUDA_SUCCESS);
  EXPECT_EQ(call<Ctx>("cuCtxDestroy_v2")(ctx), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(call<Ctx>("cuCtxPushCurrent_v2")(ctx), CUDA_ERROR_INVALID_CONTEXT);
}

using ProcAddress = CUresult (*)(const char*, void**, int, cuuint64_t,
                                 CUdriverProcAddressQueryResult*);

TEST(CudaLibrary, GetProcAddressPicksTheVariantOfTheVersion) {
  auto get = call<ProcAddress>("cuGetProcAddress_v2");
  void* f = nullptr;
  CUdriverProcAddressQueryResult status{};
  ASSERT_EQ(get("cuMemAlloc", &f, 12000, 0, &status), CUDA_SUCCESS);
  EXPECT_EQ(f, ::dlsym(lib(), "cuMemAlloc_v2"));
  ASSERT_EQ(get("cuMemAlloc", &f, 3000, 0, &status), CUDA_SUCCESS);
  EXPECT_EQ(f, ::dlsym(lib(), "cuMemAlloc"));
  ASSERT_EQ(get("cuDeviceGetUuid", &f, 11040, 0, &status), CUDA_SUCCESS);
  EXPECT_EQ(f, ::dlsym(lib(), "cuDeviceGetUuid_v2"));
  ASSERT_EQ(get("cuDeviceGetUuid", &f, 11030, 0, &status), CUDA_SUCCESS);
  EXPECT_EQ(f, ::dlsym(lib(), "cuDeviceGetUuid"));
  ASSERT_EQ(get("cuMemcpyHtoD", &f, 12000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &status),
            CUDA_SUCCESS);
  EXPECT_EQ(f, ::dlsym(lib(), "cuMemcpyHtoD_v2_ptds"));
  EXPECT_EQ(get("cuGetProcAddress_v2", &f, 12000, 0, &status), CUDA_ERROR_NOT_FOUND);
  EXPECT_EQ(status, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
  EXPECT_EQ(get("cuNoSuchThing", &f, 12000, 0, &status), CUDA_ERROR_NOT_FOUND);
  EXPECT_EQ(status, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
  EXPECT_EQ(f, nullptr);
  EXPECT_EQ(get("cuMemAlloc", &f, 12000, 7, &status), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(call<CUresult (*)(const char*, void**, int, cuuint64_t)>("cuGetProcAddress")(
                "cuInit", &f, 12000, 0),
            CUDA_SUCCESS);
  EXPECT_EQ(f, ::dlsym(lib(), "cuInit"));
}

TEST(CudaLibrary, ErrorTextAndStubs) {
  const char* text = nullptr;
  ASSERT_EQ(call<CUresult (*)(CUresult, const char**)>("cuGetErrorName")(100, &text), CUDA_SUCCESS);
  EXPECT_STREQ(text, "CUDA_ERROR_NO_DEVICE");
  ASSERT_EQ(call<CUresult (*)(CUresult, const char**)>("cuGetErrorString")(2, &text), CUDA_SUCCESS);
  EXPECT_STREQ(text, "out of memory");
  EXPECT_EQ(call<CUresult (*)(CUresult, const char**)>("cuGetErrorName")(12345, &text),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(call<CUresult (*)()>("cuLaunchKernel")(), CUDA_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(call<CUresult (*)()>("cuModuleLoadData")(), CUDA_ERROR_NOT_SUPPORTED);
}

}  // namespace
