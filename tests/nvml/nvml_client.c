/* A small NVML program of someone else's: dlopens libnvidia-ml.so.1 as GPU
 * software does and prints what it enumerates, one fact per line
 * (tests/nvml/compare.py reads it). Declares the few NVML types it uses itself. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef int ret_t;
typedef void* dev_t_;
typedef struct {
  char busIdLegacy[16];
  unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
  char busId[32];
} pci_t;
typedef struct {
  unsigned version;
  unsigned long long total, reserved, free, used;
} mem2_t;

/* nvml.h's MIG structs: nvmlGpuInstanceProfileInfo_v2_t, nvmlGpuInstanceInfo_t,
 * nvmlComputeInstanceInfo_t. */
typedef struct {
  unsigned version, id, isP2pSupported, sliceCount, instanceCount, multiprocessorCount,
      copyEngineCount, decoderCount, encoderCount, jpegCount, ofaCount;
  unsigned long long memorySizeMB;
  char name[96];
} gi_profile_t;
typedef struct {
  void* device;
  unsigned id, profileId, start, size;
} gi_info_t;
typedef struct {
  void* device;
  void* gpuInstance;
  unsigned id, profileId, start, size;
} ci_info_t;

static void* lib;
static void* sym(const char* name) {
  void* f = dlsym(lib, name);
  if (!f) {
    printf("missing %s\n", name);
  }
  return f;
}
#define CALL(type, name, ...) (((type)sym(#name))(__VA_ARGS__))
typedef ret_t (*f0)(void);
typedef ret_t (*fstr)(char*, unsigned);
typedef ret_t (*fint)(int*);
typedef ret_t (*fuint)(unsigned*);
typedef ret_t (*fidx)(unsigned, dev_t_*);
typedef ret_t (*fdstr)(dev_t_, char*, unsigned);
typedef ret_t (*fpci)(dev_t_, pci_t*);
typedef ret_t (*fmem)(dev_t_, mem2_t*);
typedef ret_t (*fduint)(dev_t_, unsigned*);
typedef ret_t (*fmig)(dev_t_, unsigned*, unsigned*);
typedef ret_t (*fmigh)(dev_t_, unsigned, dev_t_*);
typedef ret_t (*flink)(dev_t_, unsigned, int*);
typedef ret_t (*flpci)(dev_t_, unsigned, pci_t*);
typedef const char* (*ferr)(ret_t);
typedef ret_t (*fdtyped)(dev_t_, int, unsigned*);
typedef ret_t (*fprocs)(dev_t_, unsigned*, void*);
typedef ret_t (*fgiprof)(dev_t_, unsigned, gi_profile_t*);
typedef ret_t (*fgis)(dev_t_, unsigned, void**, unsigned*);
typedef ret_t (*fgiinfo)(void*, gi_info_t*);
typedef ret_t (*fcis)(void*, unsigned, void**, unsigned*);
typedef ret_t (*fciinfo)(void*, ci_info_t*);
typedef ret_t (*fcap)(dev_t_, unsigned, unsigned*);

/* GPU instance profiles (the table: "mig-table" lines, compared between clients),
 * then each GPU instance with its profile, memory and compute instances. */
static void mig_instances(unsigned gpu, dev_t_ d) {
  for (unsigned p = 0; p < 17; ++p) {
    gi_profile_t info;
    memset(&info, 0, sizeof info);
    info.version = (unsigned)sizeof info | 2u << 24;
    if (CALL(fgiprof, nvmlDeviceGetGpuInstanceProfileInfoV, d, p, &info) != 0) continue;
    unsigned left = 99, places = 0;
    CALL(fcap, nvmlDeviceGetGpuInstanceRemainingCapacity, d, info.id, &left);
    CALL(fgis, nvmlDeviceGetGpuInstancePossiblePlacements_v2, d, info.id, 0, &places);
    printf(
        "mig-table gpu %u profile %u id %u %s slices %u instances %u sm %u ce %u dec %u enc %u "
        "jpg %u ofa %u memory %llu placements %u left %u\n",
        gpu, p, info.id, info.name, info.sliceCount, info.instanceCount, info.multiprocessorCount,
        info.copyEngineCount, info.decoderCount, info.encoderCount, info.jpegCount, info.ofaCount,
        info.memorySizeMB, places, left);
    void* gis[8];
    unsigned n = 0;
    if (CALL(fgis, nvmlDeviceGetGpuInstances, d, info.id, gis, &n) != 0) continue;
    for (unsigned g = 0; g < n && g < 8; ++g) {
      gi_info_t gi;
      if (CALL(fgiinfo, nvmlGpuInstanceGetInfo, gis[g], &gi) != 0) continue;
      unsigned computes = 0;
      for (unsigned c = 0; c < 8; ++c) {
        void* cis[8];
        unsigned m = 0;
        if (CALL(fcis, nvmlGpuInstanceGetComputeInstances, gis[g], c, cis, &m) != 0) continue;
        for (unsigned k = 0; k < m && k < 8; ++k) {
          ci_info_t ci;
          if (CALL(fciinfo, nvmlComputeInstanceGetInfo_v2, cis[k], &ci) != 0) continue;
          printf("mig-table gpu %u gi %u ci %u profile %u placement %u:%u parent %s\n", gpu, gi.id,
                 ci.id, ci.profileId, ci.start, ci.size,
                 ci.device == d && ci.gpuInstance == gis[g] ? "ok" : "wrong");
          ++computes;
        }
      }
      printf("mig-table gpu %u gi %u placement %u:%u parent %s\n", gpu, gi.id, gi.start, gi.size,
             gi.device == d ? "ok" : "wrong");
      printf("gpu %u gi %u profile %s memory %llu compute %u\n", gpu, gi.id,
             strncmp(info.name, "MIG ", 4) == 0 ? info.name + 4 : info.name, info.memorySizeMB,
             computes);
    }
  }
}

static void memory(const char* what, dev_t_ d) {
  mem2_t m;
  memset(&m, 0, sizeof m);
  m.version = (unsigned)sizeof m | 2u << 24;
  ret_t r = CALL(fmem, nvmlDeviceGetMemoryInfo_v2, d, &m);
  if (r == 0)
    printf("%s memory %llu %llu\n", what, m.total, m.free);
  else
    printf("%s memory error %d\n", what, r);
}

/* What gpustat and nvitop ask each GPU: temperature, power, SM clock, utilisation
 * (its status: the fixtures record none of these) and the running processes. */
/* What gpustat and nvitop ask: the status, then the value where there is one. */
typedef struct {
  unsigned pid;
  unsigned long long used;
  unsigned gi, ci;
} proc_t;
static void figure(const char* gpu, const char* what, ret_t r, unsigned value) {
  if (r == 0)
    printf("monitor %s %s 0 %u\n", gpu, what, value);
  else
    printf("monitor %s %s %d\n", gpu, what, r);
}
static void monitor(const char* gpu, dev_t_ d) {
  unsigned v = 0, rates[2] = {0, 0}, procs = 0;
  ret_t r = CALL(fdtyped, nvmlDeviceGetTemperature, d, 0, &v);
  figure(gpu, "temperature", r, v);
  r = CALL(fduint, nvmlDeviceGetPowerUsage, d, &v);
  figure(gpu, "power", r, v);
  r = CALL(fdtyped, nvmlDeviceGetClockInfo, d, 1, &v);
  figure(gpu, "sm-clock", r, v);
  r = CALL(fduint, nvmlDeviceGetUtilizationRates, d, rates);
  figure(gpu, "utilization", r, rates[0]);
  /* pynvml's way: ask the size with no buffer, then fetch. */
  r = CALL(fprocs, nvmlDeviceGetComputeRunningProcesses_v3, d, &procs, NULL);
  if (r == 7 && procs > 0 && procs < 64) {
    proc_t list[64];
    r = CALL(fprocs, nvmlDeviceGetComputeRunningProcesses_v3, d, &procs, list);
    printf("monitor %s processes %d %u\n", gpu, r, procs);
    for (unsigned i = 0; r == 0 && i < procs; ++i)
      printf("monitor %s process %u %llu\n", gpu, list[i].pid, list[i].used >> 20);
    return;
  }
  printf("monitor %s processes %d %u\n", gpu, r, procs);
}

int main(int argc, char** argv) {
  lib = dlopen(argc > 1 ? argv[1] : "libnvidia-ml.so.1", RTLD_NOW);
  if (!lib) {
    printf("dlopen failed: %s\n", dlerror());
    return 2;
  }
  ret_t r = CALL(f0, nvmlInit_v2);
  printf("init %d\nerror-string %s\n", r, CALL(ferr, nvmlErrorString, r));
  if (r != 0) return 0;
  char text[96];
  if (CALL(fstr, nvmlSystemGetDriverVersion, text, sizeof text) == 0) printf("driver %s\n", text);
  int cuda = 0;
  if (CALL(fint, nvmlSystemGetCudaDriverVersion_v2, &cuda) == 0) printf("cuda %d\n", cuda);
  unsigned count = 0;
  CALL(fuint, nvmlDeviceGetCount_v2, &count);
  printf("count %u\n", count);
  for (unsigned i = 0; i < count; ++i) {
    dev_t_ d = 0;
    if (CALL(fidx, nvmlDeviceGetHandleByIndex_v2, i, &d) != 0) continue;
    char name[96], uuid[96], gpu[16];
    CALL(fdstr, nvmlDeviceGetName, d, name, sizeof name);
    CALL(fdstr, nvmlDeviceGetUUID, d, uuid, sizeof uuid);
    pci_t pci;
    CALL(fpci, nvmlDeviceGetPciInfo_v3, d, &pci);
    snprintf(gpu, sizeof gpu, "gpu %u", i);
    printf("%s name %s\n%s uuid %s\n%s bus %s\n", gpu, name, gpu, uuid, gpu, pci.busId);
    memory(gpu, d);
    monitor(gpu, d);
    unsigned current = 0, pending = 0;
    if (CALL(fmig, nvmlDeviceGetMigMode, d, &current, &pending) == 0 && current == 1) {
      unsigned max = 0;
      CALL(fduint, nvmlDeviceGetMaxMigDeviceCount, d, &max);
      for (unsigned m = 0; m < max; ++m) {
        dev_t_ mig = 0;
        if (CALL(fmigh, nvmlDeviceGetMigDeviceHandleByIndex, d, m, &mig) != 0) continue;
        char what[32];
        snprintf(what, sizeof what, "gpu %u mig %u", i, m);
        CALL(fdstr, nvmlDeviceGetName, mig, name, sizeof name);
        CALL(fdstr, nvmlDeviceGetUUID, mig, uuid, sizeof uuid);
        printf("%s name %s\n%s uuid %s\n", what, name, what, uuid);
        memory(what, mig);
      }
      mig_instances(i, d);
    }
    for (unsigned l = 0; l < 18; ++l) {
      int active = 0;
      if (CALL(flink, nvmlDeviceGetNvLinkState, d, l, &active) != 0 || !active) continue;
      pci_t remote;
      int type = -1;
      CALL(flink, nvmlDeviceGetNvLinkRemoteDeviceType, d, l, &type);
      if (CALL(flpci, nvmlDeviceGetNvLinkRemotePciInfo_v2, d, l, &remote) == 0)
        printf("%s nvlink %u gpu %s\n", gpu, l, remote.busId);
      else
        printf("%s nvlink %u %s\n", gpu, l, type == 2 ? "switch" : "unknown");
    }
  }
  printf("shutdown %d\n", CALL(f0, nvmlShutdown));
  return 0;
}
