// The CUDA driver's device enumeration: which of a host's NVIDIA GPUs (and MIG
// devices) a process opens as CUDA ordinals 0, 1, ..., given its
// CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER. One pure rule, shared by the
// simulated libcuda.so.1 (cuda/) and hwaccel's own selection, so the ordinal
// hwaccel names is the one the runtime opens (docs/cuda.md, "Enumeration").
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel {

struct CudaCandidate {
  std::string uuid;    // "GPU-..." or "MIG-..." as nvidia-smi -L prints it
  std::string bus_id;  // "0000:1b:00.0" (MIG devices: their GPU's)
  bool is_mig = false;
  std::size_t parent = 0;    // MIG device: its whole GPU's position in the list
  bool mig_enabled = false;  // whole GPU in MIG mode: not a CUDA device itself
  // FASTEST_FIRST's key: compute capability, then SMs (0 when unknown).
  int cc_major = 0, cc_minor = 0;
  unsigned multiprocessors = 0;
};

// The positions in `devices` that CUDA enumerates, in ordinal order.
//
// Base order: CUDA_DEVICE_ORDER=PCI_BUS_ID sorts whole GPUs by bus id;
// FASTEST_FIRST (the default, and any other value) sorts by compute capability
// then SM count, fastest first, ties in bus order. A GPU in MIG mode is not a
// device; without CUDA_VISIBLE_DEVICES its first MIG device stands in its place,
// and a process enumerates one MIG device at most (CUDA 11/12 drivers).
//
// CUDA_VISIBLE_DEVICES (nullopt: unset; "": no device): comma-separated entries,
// each an index into the base order of whole GPUs (a GPU in MIG mode gives its
// first MIG device), a GPU UUID or a unique prefix of one ("GPU-8932f937"), or a
// MIG device's UUID or unique prefix ("MIG-...", "MIG-GPU-<uuid>/<gi>/<ci>").
// The first entry that names nothing (out of range, negative, not a number,
// ambiguous prefix, a device already listed, a second MIG device) ends the list.
std::vector<std::size_t> cuda_enumeration(const std::vector<CudaCandidate>& devices,
                                          const std::optional<std::string>& visible_devices,
                                          const std::optional<std::string>& device_order);

}  // namespace hwaccel
