// `nvidia-smi -L`: one line per GPU, and under a GPU in MIG mode one indented
// line per MIG device:
//
//   GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-...)
//     MIG 3g.40gb     Device  0: (UUID: MIG-...)
//
// Older drivers (R450/R470) print MIG UUIDs as "MIG-GPU-<uuid>/<gi>/<ci>"; the
// UUID is kept as printed. Lines that fit neither shape are skipped with a note.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel {

struct NvidiaMigDevice {
  std::string profile;  // "3g.40gb", "1g.10gb+me", "1c.3g.40gb"
  int device = 0;       // "Device  0" -> 0
  std::string uuid;     // "MIG-..."
};

struct NvidiaListedGpu {
  int index = 0;
  std::string name;
  std::string uuid;  // "GPU-..."; "" when the line has none
  std::vector<NvidiaMigDevice> mig_devices;
};

struct NvidiaSmiList {
  std::vector<NvidiaListedGpu> gpus;
  std::vector<std::string> problems;  // lines skipped and why
};

NvidiaSmiList parse_nvidia_smi_list(std::string_view text);

// The memory a MIG profile's name promises, in bytes: "3g.40gb" -> 40 * 10^9,
// "1g.10gb+me" -> 10 * 10^9, "1c.3g.40gb" -> 40 * 10^9. Only an estimate: the
// real slice can be larger (an H100 80GB's 3g.40gb has 40448 MiB = 42.4 * 10^9
// bytes) or smaller (an H200's 1g.18gb has 16384 MiB = 17.2 * 10^9); the probe
// uses nvidia-smi -q's figure where it has one. nullopt without a "<n>gb".
std::optional<std::uint64_t> mig_profile_memory_bytes(std::string_view profile);

}  // namespace hwaccel
