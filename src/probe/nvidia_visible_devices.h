// The environment's device lists. CUDA_VISIBLE_DEVICES tokenised: a comma-separated list of
// device indices or UUIDs ("GPU-..." or "MIG-...", a unique prefix is enough). Syntax only, and
// stricter than CUDA ("1gpu" is no index here); what CUDA makes of the variable (which devices,
// at which ordinals) is cuda_visible.h, which the CUDA probe uses.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hwaccel {

struct CudaVisibleToken {
  bool is_index = false;
  int index = 0;     // when is_index
  std::string uuid;  // "GPU-..." / "MIG-..." (possibly a prefix) otherwise
};

struct CudaVisibleDevices {
  std::vector<CudaVisibleToken> tokens;  // the usable tokens, in order
  std::string stopped_at;                // the first invalid token; "" when none
  bool stopped = false;                  // parsing ended at an invalid token
};

// Syntax only: a token is an index (decimal, no sign) or starts with "GPU-" or
// "MIG-". Whether it names a device is the probe's question (a token naming no
// device also ends the list, as in CUDA).
CudaVisibleDevices parse_cuda_visible_devices(std::string_view value);

// NVIDIA_VISIBLE_DEVICES, the NVIDIA container toolkit's request: which GPUs a
// container is given (its /dev/nvidiaN nodes, /proc/driver/nvidia/gpus folders
// and device-cgroup rules). It changes nothing for a process already running:
// it only explains GPUs a container's nvidia-smi does not list. Values: "all";
// "none" (driver libraries, no GPU); "void" or "" (the runtime adds nothing:
// with CDI, devices come by other means, so it says nothing about them); a
// directory ("/var/run/nvidia-container-devices", the device plugin's
// volume-mounts strategy: the names of the files in it are the list); or a
// comma-separated list of indices, GPU-/MIG- UUIDs and "GPU:MIG" index pairs.
struct NvidiaVisibleDevices {
  enum class Kind { all, none, nothing_said, list, directory };
  Kind kind = Kind::nothing_said;
  std::vector<std::string> tokens;  // for list; printable, each at most 80 bytes
  std::string directory;            // for directory
};
NvidiaVisibleDevices parse_nvidia_visible_devices(std::string_view value);

}  // namespace hwaccel
