// cuDeviceGetAttribute: each CUdevice_attribute of a simulated device. What the
// snapshot and catalogue record (compute capability, SMs, PCI address, NUMA
// node, memory kind, compute mode) comes from the model; what every device of a
// compute capability shares comes from the CUDA programming guide's table of
// technical specifications; the rest is what a current data-centre GPU answers.
#pragma once

#include "cuda/cuda_abi.h"
#include "cuda/cuda_model.h"

namespace hwaccel::cuda {

// CUDA_ERROR_INVALID_VALUE for a value that is no attribute (as the real one).
CUresult attribute_of(const Device& device, int attribute, int& value);

}  // namespace hwaccel::cuda
