// What the C entry points of the snapshot-backed libcuda share (cuda_api.cpp
// defines these; cuda_context.cpp and cuda_proc.cpp use them).
#pragma once

#include <mutex>

#include "cuda/cuda_abi.h"
#include "cuda/cuda_model.h"

#define CUDA_API extern "C" __attribute__((visibility("default")))

namespace hwaccel::cuda::api {

// Held by every entry point that reads or changes the driver's state.
std::mutex& state_mutex();
// The model after a successful cuInit, else nullptr (call with the mutex held).
const Model* ready_model();
// The position in Model::devices of CUDA ordinal `device`, or the error to return
// (CUDA_ERROR_NOT_INITIALIZED before cuInit, CUDA_ERROR_INVALID_DEVICE).
CUresult position_of(CUdevice device, std::size_t& position);

}  // namespace hwaccel::cuda::api
