#include "cuda/cuda_attributes.h"

namespace hwaccel::cuda {
namespace {

// Per compute capability: threads, shared memory (bytes) and blocks per SM, and
// shared memory a block may opt in to (CUDA programming guide, "Technical
// Specifications per Compute Capability").
struct SmFacts {
  int threads_per_sm, shared_per_sm, shared_optin, blocks_per_sm;
};

SmFacts sm_facts(int major, int minor) {
  const int cc = major * 10 + minor;
  if (cc == 70 || cc == 72) return {2048, 98304, 98304, 32};
  if (cc == 75) return {1024, 65536, 65536, 16};
  if (cc == 80 || cc == 87) return {2048, 167936, 166912, 32};
  if (cc == 86) return {1536, 102400, 101376, 16};
  if (cc == 89) return {1536, 102400, 101376, 24};
  if (cc == 90 || cc == 100 || cc == 103) return {2048, 233472, 232448, 32};
  if (major >= 12) return {1536, 102400, 101376, 32};
  return {2048, 65536, 49152, 32};  // older or unknown: Pascal's
}

}  // namespace

CUresult attribute_of(const Device& d, int attribute, int& value) {
  if (attribute < 1 || attribute >= CU_DEVICE_ATTRIBUTE_MAX) return CUDA_ERROR_INVALID_VALUE;
  const SmFacts sm = sm_facts(d.cc_major, d.cc_minor);
  const int cc = d.cc_major * 10 + d.cc_minor;
  switch (attribute) {
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
      value = 1024;
      break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
      value = 1024;
      break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y:
      value = 1024;
      break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z:
      value = 64;
      break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X:
      value = 2147483647;
      break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
      value = 65535;
      break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z:
      value = 65535;
      break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK:
      value = 49152;
      break;
    case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY:
      value = 65536;
      break;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE:
      value = 32;
      break;
    case CU_DEVICE_ATTRIBUTE_MAX_PITCH:
      value = 2147483647;
      break;
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK:
      value = 65536;
      break;
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE:
      value = static_cast<int>(d.clock_khz);
      break;
    case CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT:
      value = 512;
      break;
    case CU_DEVICE_ATTRIBUTE_GPU_OVERLAP:
      value = 1;
      break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
      value = static_cast<int>(d.multiprocessors);
      break;
    case CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT:
      value = 0;
      break;  // no display watchdog
    case CU_DEVICE_ATTRIBUTE_INTEGRATED:
      value = d.unified;
      break;
    case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY:
      value = 1;
      break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_MODE:
      value = d.compute_mode;
      break;
    case CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT:
      value = 512;
      break;
    case CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS:
      value = 1;
      break;
    case CU_DEVICE_ATTRIBUTE_ECC_ENABLED:
      value = d.datacenter && !d.unified;
      break;
    case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID:
      value = static_cast<int>(d.bus);
      break;
    case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID:
      value = static_cast<int>(d.device);
      break;
    case CU_DEVICE_ATTRIBUTE_TCC_DRIVER:
      value = 0;
      break;  // Windows only
    case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE:
      value = static_cast<int>(d.memory_clock_khz);
      break;
    case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH:
      value = static_cast<int>(d.bus_width);
      break;
    case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE:
      value = static_cast<int>(d.l2_bytes);
      break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR:
      value = sm.threads_per_sm;
      break;
    case CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT:
      value = d.datacenter ? 3 : 2;
      break;
    case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING:
      value = 1;
      break;
    case CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID:
      value = static_cast<int>(d.domain);
      break;
    case CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT:
      value = 32;
      break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
      value = d.cc_major;
      break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
      value = d.cc_minor;
      break;
    case CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED:
      value = 1;
      break;
    case CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED:
      value = 1;
      break;
    case CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED:
      value = 1;
      break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR:
      value = sm.shared_per_sm;
      break;
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR:
      value = 65536;
      break;
    case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY:
      value = 1;
      break;
    case CU_DEVICE_ATTRIBUTE_IS_MULTI_GPU_BOARD:
      value = 0;
      break;
    case CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID:
      value = 0;
      break;
    // Coherent hosts (GH200's NVLink-C2C with ATS, GB10): the GPU reaches host
    // memory through the host's page tables and atomics work across it.
    case CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED:
      value = d.coherent;
      break;
    case CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO:
      value = (cc == 60 || cc == 70 || cc == 80 || cc == 90 || cc == 100) ? 2 : 64;
      break;
    case CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS:
      value = d.coherent;
      break;
    case CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS:
      value = 1;
      break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED:
      value = 1;
      break;
    case CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM:
      value = d.coherent;
      break;
    case CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH:
      value = 1;
      break;
    case CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH:
      value = 1;
      break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
      value = sm.shared_optin;
      break;
    case CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES:
      value = 0;
      break;
    case CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED:
      value = 1;
      break;
    case CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES:
      value = d.coherent;
      break;
    case CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST:
      value = d.coherent;
      break;
    case CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED:
      value = 1;
      break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR:
      value = sm.blocks_per_sm;
      break;
    case CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE:
      value = cc >= 80 ? static_cast<int>(d.l2_bytes / 4 * 3) : 0;
      break;
    case CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE:
      value = cc >= 80 ? 134213632 : 0;
      break;
    case CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK:
      value = cc >= 80 ? 1024 : 0;
      break;
    case CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED:
      value = 1;
      break;
    case CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH:
      value = cc >= 90;
      break;
    // CU_DEVICE_NUMA_CONFIG_NUMA_NODE where the GPU's memory is a NUMA node of its
    // own (GH200, GB10 show it through ATS), else none.
    case CU_DEVICE_ATTRIBUTE_NUMA_CONFIG:
      value = d.coherent && !d.unified ? 1 : 0;
      break;
    case CU_DEVICE_ATTRIBUTE_NUMA_ID:
      value = -1;
      break;
    case CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED:
      value = 0;
      break;
    case CU_DEVICE_ATTRIBUTE_MPS_ENABLED:
      value = 0;
      break;
    case CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID:
      value = d.numa_node.value_or(-1);
      break;
    case CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID:
      value = static_cast<int>(unsigned(d.pci_device) << 16 | d.pci_vendor);
      break;
    case CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID:
      value = static_cast<int>(d.pci_subsystem);
      break;
    default:
      // Textures, surfaces, interop and handle types: what no snapshot records and
      // no discovery reads. Zero is "not supported" for the flags among them.
      value = 0;
      break;
  }
  return CUDA_SUCCESS;
}

}  // namespace hwaccel::cuda
