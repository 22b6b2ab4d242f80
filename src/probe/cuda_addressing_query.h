// The CUDA probe's step 4: whether a GPU reaches host memory coherently (ATS),
// as the tool says it: the addressing_mode query field, else -q's "Addressing
// Mode". The kernel's evidence and the verdict are in cuda_memory_facts.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "src/host/host.h"
#include "src/probe/cuda_memory_facts.h"
#include "src/probe/nvidia_kernel_gpus.h"
#include "src/probe/nvidia_smi_q.h"
#include "src/probe/probe.h"

namespace hwaccel {

// addressing_mode is a query field from driver 580 on (nvmlDeviceGetAddressingMode).
inline constexpr int kCudaAddressingModeDriver = 580;

// The first entry's driver major version ("550.127.05" -> 550).
std::optional<int> cuda_driver_major(const std::vector<Entry>& entries);

// Where ATS could be at all: a GPU joined coherently to its CPU (Grace over
// NVLink-C2C, POWER9 over NVLink 2.0). On an x86 host behind PCIe it cannot,
// so an old driver there is not asked a field it would reject.
bool cuda_coherence_possible(Host& host, const std::vector<KernelGpu>& kernel,
                             const std::vector<Entry>& entries);

// The query's answer into `modes`. True when the driver does not know the
// field (rejected, or no such column): nvidia-smi -q is the next place to look.
bool cuda_read_addressing_mode(const ToolRun& run, AddressingModes& modes,
                               std::vector<Warning>& warnings);

// -q's Addressing Mode for the GPUs `modes` has none for.
void cuda_addressing_from_q(const NvidiaSmiQ& q, const std::string& provenance,
                            AddressingModes& modes);

}  // namespace hwaccel
