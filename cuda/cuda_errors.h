// cuGetErrorName / cuGetErrorString: each CUresult's name and a one-line text.
#pragma once

#include "cuda/cuda_abi.h"

namespace hwaccel::cuda {

struct ErrorText {
  CUresult code;
  const char* name;
  const char* text;
};

// nullptr for a value that is no CUresult (the real functions then fail).
const ErrorText* error_text(CUresult code);

}  // namespace hwaccel::cuda
