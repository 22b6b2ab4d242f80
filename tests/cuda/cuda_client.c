/* A CUDA driver API client that loads libcuda.so.1 with dlopen, as Ollama's GPU
 * discovery does, and makes its calls (cuInit, cuDriverGetVersion,
 * cuDeviceGetCount, cuDeviceGet, cuDeviceGetAttribute for compute capability and
 * "integrated", cuDeviceGetName, cuDeviceTotalMem_v2, cuDeviceGetPCIBusId), then
 * the UUID, a primary context's cuMemGetInfo_v2 and cuGetProcAddress.
 *
 * cuda_client            one line per fact (tests/cuda/compare.py reads them)
 * cuda_client reserve    per device: 1 GiB allocations until CUDA_ERROR_OUT_OF_MEMORY,
 *                        then the rest to the byte (in 512-byte units), then checks
 *                        that freeing gives it all back. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef void* CUcontext;
typedef struct {
  unsigned char bytes[16];
} CUuuid;

#define LOAD(name)                             \
  name##_t name = (name##_t)dlsym(lib, #name); \
  if (!name) {                                 \
    printf("missing %s\n", #name);             \
    return 1;                                  \
  }

typedef CUresult (*cuInit_t)(unsigned);
typedef CUresult (*cuDriverGetVersion_t)(int*);
typedef CUresult (*cuDeviceGetCount_t)(int*);
typedef CUresult (*cuDeviceGet_t)(CUdevice*, int);
typedef CUresult (*cuDeviceGetAttribute_t)(int*, int, CUdevice);
typedef CUresult (*cuDeviceGetName_t)(char*, int, CUdevice);
typedef CUresult (*cuDeviceTotalMem_v2_t)(size_t*, CUdevice);
typedef CUresult (*cuDeviceGetPCIBusId_t)(char*, int, CUdevice);
typedef CUresult (*cuDeviceGetUuid_v2_t)(CUuuid*, CUdevice);
typedef CUresult (*cuDevicePrimaryCtxRetain_t)(CUcontext*, CUdevice);
typedef CUresult (*cuDevicePrimaryCtxRelease_v2_t)(CUdevice);
typedef CUresult (*cuCtxSetCurrent_t)(CUcontext);
typedef CUresult (*cuMemGetInfo_v2_t)(size_t*, size_t*);
typedef CUresult (*cuMemAlloc_v2_t)(CUdeviceptr*, size_t);
typedef CUresult (*cuMemFree_v2_t)(CUdeviceptr);
typedef CUresult (*cuGetProcAddress_t)(const char*, void**, int, uint64_t);
typedef CUresult (*cuGetErrorName_t)(CUresult, const char**);

enum { CC_MAJOR = 75, CC_MINOR = 76, INTEGRATED = 18, OUT_OF_MEMORY = 2 };
#define GIB (1ull << 30)
#define MAX_CHUNKS 4096

int main(int argc, char** argv) {
  int reserve = argc > 1 && strcmp(argv[1], "reserve") == 0;
  void* lib = dlopen("libcuda.so.1", RTLD_NOW);
  if (!lib) {
    printf("dlopen failed\n");
    return 0;
  }
  LOAD(cuInit)
  LOAD(cuDriverGetVersion) LOAD(cuDeviceGetCount) LOAD(cuDeviceGet) LOAD(cuDeviceGetAttribute)
      LOAD(cuDeviceGetName) LOAD(cuDeviceTotalMem_v2) LOAD(cuDeviceGetPCIBusId)
          LOAD(cuDeviceGetUuid_v2) LOAD(cuDevicePrimaryCtxRetain) LOAD(cuDevicePrimaryCtxRelease_v2)
              LOAD(cuCtxSetCurrent) LOAD(cuMemGetInfo_v2) LOAD(cuMemAlloc_v2) LOAD(cuMemFree_v2)
                  LOAD(cuGetProcAddress) LOAD(cuGetErrorName)

                      CUresult r = cuInit(0);
  const char* name = "?";
  cuGetErrorName(r, &name);
  printf("init %d %s\n", r, name);
  if (r != 0) return 0;
  int version = 0, count = 0;
  cuDriverGetVersion(&version);
  cuDeviceGetCount(&count);
  if (!reserve) printf("driver %d\ncount %d\n", version, count);
  for (int i = 0; i < count; ++i) {
    CUdevice dev;
    if (cuDeviceGet(&dev, i) != 0) return 1;
    CUcontext ctx;
    size_t free_bytes = 0, total = 0;
    if (cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx) ||
        cuMemGetInfo_v2(&free_bytes, &total))
      return 1;
    if (!reserve) {
      int major = 0, minor = 0, integrated = 0;
      char text[256], bus[32];
      size_t memory = 0;
      CUuuid u;
      cuDeviceGetAttribute(&major, CC_MAJOR, dev);
      cuDeviceGetAttribute(&minor, CC_MINOR, dev);
      cuDeviceGetAttribute(&integrated, INTEGRATED, dev);
      cuDeviceGetName(text, sizeof text, dev);
      cuDeviceTotalMem_v2(&memory, dev);
      cuDeviceGetPCIBusId(bus, sizeof bus, dev);
      cuDeviceGetUuid_v2(&u, dev);
      printf("gpu %d name %s\ngpu %d cc %d.%d\ngpu %d integrated %d\ngpu %d total %zu\n", i, text,
             i, major, minor, i, integrated, i, memory);
      printf("gpu %d bus %s\n", i, bus);
      printf("gpu %d uuid ", i);
      for (int b = 0; b < 16; ++b)
        printf("%02x%s", u.bytes[b], b == 3 || b == 5 || b == 7 || b == 9 ? "-" : "");
      printf("\ngpu %d meminfo %zu %zu\n", i, free_bytes, total);
    } else {
      /* 1 GiB at a time until the driver says no. */
      static CUdeviceptr chunks[MAX_CHUNKS];
      unsigned n = 0, bad = 0;
      CUresult last = 0;
      while (n < MAX_CHUNKS && (last = cuMemAlloc_v2(&chunks[n], GIB)) == 0) {
        if (chunks[n] == 0 || chunks[n] % 512) ++bad;
        for (unsigned k = 0; k < n; ++k)
          if (chunks[k] == chunks[n]) ++bad;
        ++n;
      }
      size_t left = 0, t2 = 0;
      cuMemGetInfo_v2(&left, &t2);
      /* The rest in one allocation (512-byte units), then not a unit more. */
      size_t rest = left / 512 * 512;
      CUdeviceptr tail = 0, more = 0;
      CUresult tail_r = rest ? cuMemAlloc_v2(&tail, rest) : 0;
      CUresult more_r = cuMemAlloc_v2(&more, 512);
      size_t after = 0;
      cuMemGetInfo_v2(&after, &t2);
      for (unsigned k = 0; k < n; ++k) cuMemFree_v2(chunks[k]);
      if (tail) cuMemFree_v2(tail);
      size_t back = 0;
      cuMemGetInfo_v2(&back, &t2);
      printf(
          "gpu %d free %zu chunks %u stop %d left %zu rest %d more %d after %zu back %zu bad %u\n",
          i, free_bytes, n, last, left, tail_r, more_r, after, back, bad);
    }
    cuCtxSetCurrent(NULL);
    cuDevicePrimaryCtxRelease_v2(dev);
  }
  if (!reserve) {
    void* f = NULL;
    r = cuGetProcAddress("cuMemAlloc", &f, 12000, 0);
    printf("procaddress cuMemAlloc %d %s\n", r, f == (void*)cuMemAlloc_v2 ? "v2" : "other");
    r = cuGetProcAddress("cuNoSuchFunction", &f, 12000, 0);
    printf("procaddress missing %d\n", r);
  }
  return 0;
}
