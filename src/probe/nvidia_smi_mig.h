// MIG sizes where `nvidia-smi -q` has none, from the two other places the
// driver prints them (docs/probes.md, "MIG sizes"):
//
// The bare table (`nvidia-smi`), its "MIG devices:" block: one row per MIG
// device, GPU index, GPU instance, compute instance and device index, then the
// device's used and total memory ("Shared Memory-Usage" from driver 525,
// "Memory-Usage" before):
//
//   | GPU  GI  CI  MIG |              Shared Memory-Usage |        Vol|  ...
//   |==================+==================================+===========+=...
//   |  0    2   0   0  |              26MiB / 40448MiB    | 60      0 |  ...
//   |                  |               0MiB / 24739MiB    |           |  ...   (BAR1)
//
// `nvidia-smi mig -lgip`: each GPU instance profile's memory in GiB, two
// decimals (5 MiB either way), whether or not an instance of it exists:
//
//   | GPU   Name             ID    Instances   Memory     P2P    SM    DEC   ENC  |
//   |                              Free/Total   GiB              CE    JPEG  OFA  |
//   |=============================================================================|
//   |   0  MIG 1g.10gb       19     7/7        9.75       No     16     1     0   |
//   |                                                             1     1     0   |
//
// `nvidia-smi mig -lgi`: the GPU instances that exist, with their profile and
// instance ids (no sizes):
//
//   |   0  MIG 3g.40gb          9        2          0:4     |
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel {

struct MigTableDevice {
  int gpu = 0;               // nvidia-smi's index of the whole GPU
  int gpu_instance = 0;      // GI ID
  int compute_instance = 0;  // CI ID
  int device = 0;            // MIG Dev: -L's "Device N"
  std::uint64_t used_bytes = 0, total_bytes = 0;
};

struct MigTable {
  bool has_block = false;  // a "MIG devices:" header was there
  std::vector<MigTableDevice> devices;
  std::vector<std::string> problems;  // rows that could not be read
};
MigTable parse_nvidia_smi_table_mig(std::string_view text);

struct MigProfile {
  int gpu = 0;
  std::string name;  // "1g.10gb", "1g.10gb+me"
  int id = 0;
  int free_instances = 0, total_instances = 0;
  std::uint64_t memory_bytes = 0;  // the GiB figure x 2^30, rounded to the MiB
  std::string memory_text;         // as printed, "9.75"
};

struct MigGpuInstance {
  int gpu = 0;
  std::string profile;  // "3g.40gb"
  int profile_id = 0;
  int instance = 0;       // GI ID
  std::string placement;  // "0:4"
};

struct MigListing {
  std::vector<MigProfile> profiles;       // -lgip
  std::vector<MigGpuInstance> instances;  // -lgi
  std::vector<std::string> problems;
};
MigListing parse_nvidia_smi_mig_lgip(std::string_view text);
MigListing parse_nvidia_smi_mig_lgi(std::string_view text);

}  // namespace hwaccel
