// What the CUDA probe learns about memory after the query: each MIG device's
// own size (nvidia-smi -q, else the profile name), and whether a GPU reaches
// host memory coherently (ATS: GH200, GB200), with the evidence that decided.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "src/probe/nvidia_kernel_gpus.h"
#include "src/probe/nvidia_smi_q.h"
#include "src/probe/probe.h"

namespace hwaccel {

// MIG entries (partition set, physical_id "mig:<parent>/<device>") get -q's
// Shared FB Memory Total/Free; where -q has no figure (null `q`), the profile
// name's estimate. Two compute instances of one GPU instance share its memory:
// the first carries the figure, the others say whose it is.
void apply_mig_memory(const NvidiaSmiQ* q, const std::string& q_provenance, ProbeResult& result);

// A GPU's addressing mode and where it came from, by bus id, in order of
// trust: the query's addressing_mode field, -q's "Addressing Mode", then (ATS
// only) the GPU's memory as a NUMA node, then a superchip's PCI id.
struct AddressingMode {
  std::string mode;      // "ATS", "HMM", "None"
  std::string evidence;  // "nvidia-smi -q", "PCI id 10de:2342 (a Grace Hopper superchip)"
  std::string provenance;
};
using AddressingModes = std::map<std::string, AddressingMode>;

// Fills the modes no better source gave from the kernel's evidence.
void addressing_from_kernel(const std::vector<KernelGpu>& kernel, const std::vector<Entry>& entries,
                            AddressingModes& modes);

// True when a PCI device id is a superchip's GPU (GH200, GB200): coherent with
// its Grace CPU over NVLink-C2C.
bool is_superchip_gpu(std::uint16_t device_id);

// ATS GPUs' entries say so (still discrete: the HBM is what fits a model).
void apply_addressing(const AddressingModes& modes, ProbeResult& result);

}  // namespace hwaccel
