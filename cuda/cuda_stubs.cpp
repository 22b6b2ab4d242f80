// Every other function the real libcuda exports (modules, launches, streams,
// events, graphs, interop, ...): a program that looks one up finds it, and it
// answers CUDA_ERROR_NOT_SUPPORTED without touching its arguments (the C calling
// conventions leave unread arguments harmless).
#include "cuda/cuda_abi.h"

#define CUDA_STUB(name)                                               \
  extern "C" __attribute__((visibility("default"))) CUresult name() { \
    return CUDA_ERROR_NOT_SUPPORTED;                                  \
  }
#include "cuda/cuda_stubs.inc"
