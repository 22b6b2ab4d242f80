/* A CUDA runtime program (cudaGetDeviceCount, cudaGetDeviceProperties,
 * cudaMemGetInfo, cudaMalloc) built with plain gcc: libcudart is loaded with dlopen
 * from the path given (NVIDIA's libcudart.so.12 from the nvidia-cuda-runtime-cu12
 * wheel; Debian main has no CUDA toolkit), and the runtime loads libcuda.so.1 as
 * it does on a real host. Prints what each call returned (docs/cuda.md, "The CUDA
 * runtime"). cudart_client LIBCUDART */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef int (*count_t)(int*);
typedef int (*props_t)(void*, int);
typedef int (*meminfo_t)(size_t*, size_t*);
typedef int (*malloc_t)(void**, size_t);
typedef int (*setdev_t)(int);
typedef int (*version_t)(int*);
typedef const char* (*errname_t)(int);

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  void* rt = dlopen(argv[1], RTLD_NOW);
  if (!rt) {
    printf("dlopen %s: %s\n", argv[1], dlerror());
    return 1;
  }
  count_t count = (count_t)dlsym(rt, "cudaGetDeviceCount");
  props_t props = (props_t)dlsym(rt, "cudaGetDeviceProperties_v2");
  if (!props) props = (props_t)dlsym(rt, "cudaGetDeviceProperties");
  meminfo_t meminfo = (meminfo_t)dlsym(rt, "cudaMemGetInfo");
  malloc_t cmalloc = (malloc_t)dlsym(rt, "cudaMalloc");
  setdev_t setdev = (setdev_t)dlsym(rt, "cudaSetDevice");
  version_t driver = (version_t)dlsym(rt, "cudaDriverGetVersion");
  errname_t errname = (errname_t)dlsym(rt, "cudaGetErrorName");
  if (!count || !props || !meminfo || !cmalloc || !setdev || !driver || !errname) return 1;
  int v = 0, r = driver(&v);
  printf("cudaDriverGetVersion %d %s %d\n", r, errname(r), v);
  int n = 0;
  r = count(&n);
  printf("cudaGetDeviceCount %d %s %d\n", r, errname(r), n);
  for (int i = 0; r == 0 && i < n; ++i) {
    /* cudaDeviceProp (CUDA 12): name[256], uuid[16], luid[8], luidDeviceNodeMask,
     * then totalGlobalMem at offset 288; a generous buffer for the rest. */
    static unsigned char prop[8192];
    int pr = props(prop, i);
    size_t total = 0;
    memcpy(&total, prop + 288, sizeof total);
    printf("cudaGetDeviceProperties %d %s %d name %s total %zu\n", pr, errname(pr), i, (char*)prop,
           total);
    int sr = setdev(i);
    size_t free_bytes = 0, all = 0;
    int mr = meminfo(&free_bytes, &all);
    void* p = NULL;
    int ar = cmalloc(&p, 1 << 20);
    printf("cudaSetDevice %d cudaMemGetInfo %d %s %zu %zu cudaMalloc %d %s %p\n", sr, mr,
           errname(mr), free_bytes, all, ar, errname(ar), p);
  }
  return 0;
}
