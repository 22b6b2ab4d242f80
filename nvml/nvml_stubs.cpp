// Every other function the real libnvidia-ml exports: a program that looks one
// up finds it, and it answers NVML_ERROR_NOT_SUPPORTED without touching its
// arguments (the C calling conventions leave unread arguments harmless).
#include "nvml/nvml_abi.h"

#define NVML_STUB(name)                                                   \
  extern "C" __attribute__((visibility("default"))) nvmlReturn_t name() { \
    return NVML_ERROR_NOT_SUPPORTED;                                      \
  }
#include "nvml/nvml_stubs.inc"
