// Every other function the real libcuda exports (modules, launches, streams,
// events, graphs, interop, ...): a program that looks one up finds it, and it
// answers CUDA_ERROR_NOT_SUPPORTED without touching its arguments (the C calling
// conventions leave unread arguments harmless). HWSIM_CUDA_TRACE=1 names each
// call on stderr: what a program wanted that the simulation does not answer.
#include <cstdio>

#include "cuda/cuda_abi.h"
#include "src/host/live_host.h"

namespace {
CUresult not_supported(const char* name) {
  static const bool trace = hwaccel::LiveHost().env("HWSIM_CUDA_TRACE") == "1";
  if (trace) std::fprintf(stderr, "hwsim libcuda: %s: CUDA_ERROR_NOT_SUPPORTED\n", name);
  return CUDA_ERROR_NOT_SUPPORTED;
}
}  // namespace

#define CUDA_STUB(name)                                               \
  extern "C" __attribute__((visibility("default"))) CUresult name() { \
    return not_supported(#name);                                      \
  }
#include "cuda/cuda_stubs.inc"
