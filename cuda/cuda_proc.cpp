// cuGetProcAddress (CUDA 11.3's form) and cuGetProcAddress_v2 (CUDA 12.5's, which
// also says why a symbol was not found): a base name ("cuMemAlloc") and the CUDA
// version the caller was built for pick the newest exported variant introduced at
// or before it (cuMemAlloc_v2 from 3.2); the per-thread flag picks its _ptds/_ptsz
// form where there is one. Every name is looked up in this library's own exports.
#include <dlfcn.h>

#include <cstdio>
#include <map>
#include <string>

#include "cuda/cuda_api_internal.h"
#include "src/host/live_host.h"

namespace {

// When NVIDIA introduced each _vN variant (the CUDA version, 1000 x major + 10 x
// minor), from the driver API's change history; unlisted _v2 forms are CUDA 3.2's
// 64-bit API, unlisted _v3 forms 11.4's.
int introduced(const std::string& name) {
  static const std::map<std::string, int> versions = {
      {"cuCtxCreate_v3", 11040},
      {"cuCtxCreate_v4", 12050},
      {"cuCtxDestroy_v2", 4000},
      {"cuCtxPopCurrent_v2", 4000},
      {"cuCtxPushCurrent_v2", 4000},
      {"cuStreamDestroy_v2", 4000},
      {"cuEventDestroy_v2", 4000},
      {"cuDeviceGetUuid_v2", 11040},
      {"cuDevicePrimaryCtxRelease_v2", 11000},
      {"cuDevicePrimaryCtxReset_v2", 11000},
      {"cuDevicePrimaryCtxSetFlags_v2", 11000},
      {"cuIpcOpenMemHandle_v2", 11000},
      {"cuGraphInstantiate_v2", 11000},
      {"cuStreamBeginCapture_v2", 10010},
      {"cuLinkCreate_v2", 6050},
      {"cuLinkAddData_v2", 6050},
      {"cuLinkAddFile_v2", 6050},
      {"cuMemHostRegister_v2", 6050},
      {"cuGraphicsResourceSetMapFlags_v2", 6050},
      {"cuGLGetDevices_v2", 6050},
      {"cuStreamGetCaptureInfo_v2", 11030},
      {"cuStreamGetCaptureInfo_v3", 12030},
      {"cuStreamBatchMemOp_v2", 11070},
      {"cuStreamWaitValue32_v2", 11070},
      {"cuStreamWaitValue64_v2", 11070},
      {"cuStreamWriteValue32_v2", 11070},
      {"cuStreamWriteValue64_v2", 11070},
      {"cuGraphExecUpdate_v2", 12000},
      {"cuGraphAddKernelNode_v2", 12000},
      {"cuGraphKernelNodeGetParams_v2", 12000},
      {"cuGraphKernelNodeSetParams_v2", 12000},
      {"cuGraphExecKernelNodeSetParams_v2", 12000},
      {"cuMemAdvise_v2", 12020},
      {"cuMemPrefetchAsync_v2", 12020},
      {"cuGraphAddNode_v2", 12030},
      {"cuGraphAddDependencies_v2", 12030},
      {"cuGraphRemoveDependencies_v2", 12030},
      {"cuGraphGetEdges_v2", 12030},
      {"cuGraphNodeGetDependencies_v2", 12030},
      {"cuGraphNodeGetDependentNodes_v2", 12030},
      {"cuStreamUpdateCaptureDependencies_v2", 12030},
      {"cuGetProcAddress_v2", 12050},
      {"cuEventElapsedTime_v2", 12080},
      {"cuTexRefSetAddress2D_v3", 4010},
  };
  if (auto it = versions.find(name); it != versions.end()) return it->second;
  if (name.size() > 3 && name.compare(name.size() - 3, 3, "_v2") == 0) return 3020;
  if (name.size() > 3 && name.compare(name.size() - 3, 3, "_v3") == 0) return 11040;
  if (name.size() > 3 && name.compare(name.size() - 3, 3, "_v4") == 0) return 12050;
  return 2000;
}

void* own_symbol(const std::string& name) {
  static void* self = [] {
    Dl_info info{};
    if (!dladdr(reinterpret_cast<void*>(&introduced), &info) || !info.dli_fname)
      return (void*)nullptr;
    return dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
  }();
  return self ? dlsym(self, name.c_str()) : nullptr;
}

CUresult lookup(const char* symbol, void** pfn, int version, cuuint64_t flags,
                CUdriverProcAddressQueryResult* status) {
  if (!symbol || !pfn || flags > CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM)
    return CUDA_ERROR_INVALID_VALUE;
  *pfn = nullptr;
  const std::string base = symbol;
  std::string best;
  bool any = false;
  int best_version = -1;
  for (const char* suffix : {"", "_v2", "_v3", "_v4"}) {
    std::string name = base + suffix;
    if (!own_symbol(name)) continue;
    any = true;
    int since = introduced(name);
    if (since <= version && since > best_version) best = name, best_version = since;
  }
  if (best.empty()) {
    if (status)
      *status =
          any ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    return CUDA_ERROR_NOT_FOUND;
  }
  void* found = own_symbol(best);
  if (flags == CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM)
    for (const char* suffix : {"_ptds", "_ptsz"})
      if (void* ptds = own_symbol(best + suffix)) found = ptds;
  *pfn = found;
  if (status) *status = CU_GET_PROC_ADDRESS_SUCCESS;
  return CUDA_SUCCESS;
}

}  // namespace

CUDA_API CUresult cuGetProcAddress(const char* symbol, void** pfn, int version, cuuint64_t flags) {
  return lookup(symbol, pfn, version, flags, nullptr);
}

CUDA_API CUresult cuGetProcAddress_v2(const char* symbol, void** pfn, int version, cuuint64_t flags,
                                      CUdriverProcAddressQueryResult* status) {
  return lookup(symbol, pfn, version, flags, status);
}

// NVIDIA's private tables, named by UUIDs its own runtime and tools know: nothing
// public says what they hold, so none is offered, and the CUDA runtime stops at its
// first one (docs/cuda.md, "The CUDA runtime"). HWSIM_CUDA_TRACE=1 names each table.
CUDA_API CUresult cuGetExportTable(const void** table, const CUuuid* id) {
  if (table) *table = nullptr;
  static const bool trace = hwaccel::LiveHost().env("HWSIM_CUDA_TRACE") == "1";
  if (trace && id) {
    std::fprintf(stderr, "hwsim libcuda: cuGetExportTable(");
    for (int i = 0; i < 16; ++i)
      std::fprintf(stderr, "%02x%s", static_cast<unsigned char>(id->bytes[i]),
                   i == 3 || i == 5 || i == 7 || i == 9 ? "-" : "");
    std::fprintf(stderr, "): not offered\n");
  }
  return CUDA_ERROR_NOT_SUPPORTED;
}
