// The CUDA probe's step 5: every GPU the kernel shows (nvidia_kernel_gpus)
// joined to the tool's entries, or a line of its own where nvidia-smi does not
// list it, unavailable with the reason the kernel's evidence gives.
#pragma once

#include <string>
#include <vector>

#include "src/host/host.h"
#include "src/probe/nvidia_kernel_gpus.h"
#include "src/probe/probe.h"

namespace hwaccel {

// One past the highest index in `entries` (0 when empty).
int cuda_next_index(const std::vector<Entry>& entries);

// The kernel GPU at a PCI address; nullptr when none (or `address` is "").
const KernelGpu* cuda_find_kernel_gpu(const std::vector<KernelGpu>& gpus,
                                      const std::string& address);

// What the kernel adds to a listed GPU: PCI device id, NUMA node, its sysfs
// provenance, and its memory as a NUMA node (the size where nothing gave one).
void cuda_add_kernel_facts(Host& host, const KernelGpu& gpu, Entry& entry);

// nvidia-smi gave no GPU: every GPU the kernel shows is a line of its own,
// unavailable with the tool's `reason`. Without any, the backend line alone.
ProbeResult cuda_bus_only(Host& host, ProbeResult result, const std::vector<KernelGpu>& seen,
                          Reason reason);

// GPUs on the PCI bus that nvidia-smi did not list: fallen off, or bound
// elsewhere. The module's own folder for a GPU says it holds it even where
// sysfs shows no driver link (a recording without links, a container).
void cuda_add_unlisted_kernel_gpus(Host& host, const std::vector<KernelGpu>& bus,
                                   ProbeResult& result);

}  // namespace hwaccel
