// Which CUDA devices a process sees, and at which ordinals: the CUDA driver's
// enumeration rule as a pure function of the GPUs and two environment values.
// Shared by the CUDA probe (the ordinal `hwaccel select` prints) and the
// simulated libcuda.so.1 (the device cuDeviceGet(ordinal) returns), so the two
// doors cannot disagree. docs/probes.md ("CUDA's numbering") lists the sources.
//
// The rule, as implemented:
//   1. Order. CUDA_DEVICE_ORDER=PCI_BUS_ID: by PCI bus id. Anything else (unset
//      included) is FASTEST_FIRST: by `speed`, fastest first, ties by PCI bus id.
//      Real CUDA's speed heuristic is undocumented; cuda_speed_key is ours.
//   2. CUDA_VISIBLE_DEVICES unset: every GPU, in that order. Set: a comma-separated
//      list, each entry (spaces trimmed) one of
//        - an index into the order of 1, read like strtoul: leading digits, the
//          rest ignored ("1gpu" is 1);
//        - "GPU-" and a unique prefix of a GPU UUID;
//        - "MIG-" and a unique prefix of a MIG device UUID (driver >= R470);
//        - "MIG-GPU-<full GPU UUID>/<GPU instance id>/<compute instance id>"
//          (the form before R470).
//      The first entry that is none of these, names nothing, or is an ambiguous
//      prefix ends the list: the devices before it stay. An empty value shows no
//      device. A device named twice shows no device at all (PyTorch's record of
//      the driver's behaviour, pytorch/pytorch#84879: "repeated ordinal results
//      in empty set").
//   3. MIG (CUDA 11/R450 to CUDA 12/R525, MIG user guide, "CUDA Device
//      Enumeration"): a MIG-enabled GPU is never a CUDA device itself. Named by
//      index or GPU UUID, or listed while the variable is unset, it stands for
//      its first MIG device (none: it adds nothing). A process enumerates at most
//      one MIG device, and none when any whole GPU is enumerated: whole GPUs win,
//      else only the first MIG device stays.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel {

struct CudaMigDevice {
  std::string uuid;  // "MIG-..."
  std::optional<int> gpu_instance_id;
  std::optional<int> compute_instance_id;
};

struct CudaGpu {
  std::string pci_bus_id;   // "0000:01:00.0" (compared case-insensitively)
  std::string uuid;         // "GPU-..."; may be empty when unknown
  std::uint64_t speed = 0;  // FASTEST_FIRST key, larger is faster (cuda_speed_key)
  bool mig_enabled = false;
  std::vector<CudaMigDevice> mig;  // in the driver's order (nvidia-smi -L)
};

// One CUDA device: a GPU (index into the input) or one of its MIG devices.
struct CudaDeviceRef {
  std::size_t gpu = 0;
  std::optional<std::size_t> mig;  // index into gpus[gpu].mig
  bool operator==(const CudaDeviceRef&) const = default;
};

struct CudaEnumeration {
  std::vector<CudaDeviceRef> devices;  // devices[k] is CUDA ordinal k
  // Why an entry of CUDA_VISIBLE_DEVICES was not used ("" when every entry was):
  // the list stopped there, or a device was named twice, or a MIG limit applied.
  std::string problem;
  std::string stopped_at;  // the entry that ended the list ("" when none)
};

// The devices CUDA shows, in ordinal order. `visible_devices` and `device_order`
// are the variables' values (nullopt: unset). Total: any input gives an answer.
CudaEnumeration cuda_enumerate(const std::vector<CudaGpu>& gpus,
                               const std::optional<std::string>& visible_devices,
                               const std::optional<std::string>& device_order);

// The GPUs in the order CUDA_VISIBLE_DEVICES indices refer to (step 1).
std::vector<std::size_t> cuda_device_order(const std::vector<CudaGpu>& gpus,
                                           const std::optional<std::string>& device_order);

// FASTEST_FIRST's key: compute capability (9.0 > 8.9 > 8.0). Both doors must
// build it from the same facts, which every snapshot has.
std::uint64_t cuda_speed_key(int cc_major, int cc_minor);
// The same from a compute class "sm_90" / "sm_100a"; 0 when it is not one.
std::uint64_t cuda_speed_key(std::string_view compute_class);

// The entry of CUDA_VISIBLE_DEVICES that names exactly this device, as a
// program would write it: the MIG or GPU UUID (empty when unknown).
std::string cuda_visible_token(const std::vector<CudaGpu>& gpus, const CudaDeviceRef& device);

}  // namespace hwaccel
