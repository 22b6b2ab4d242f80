// How long reading a data set takes from the block devices a host has: one
// sequential-read throughput per kind of device, stated with its source.
//
// Throughputs assumed (GB/s = 10^9 bytes/s, sequential read, one device):
//   nvme with a known PCIe link: 90% of the link's per-direction bandwidth, capped
//     by the generation's fastest drives (Gen3 x4 3.5, Gen4 x4 7.0, Gen5 x4 14.0):
//     Samsung 970 EVO Plus 3.5 GB/s, 990 PRO 7.45 GB/s, Crucial T705 14.5 GB/s
//   nvme, link not known: 3.5 GB/s (a Gen3 x4 drive)
//   ssd (SATA/SAS): 0.55 GB/s (SATA III is 6 Gb/s with 8b/10b = 0.6 GB/s;
//     Samsung 870 EVO 560 MB/s)
//   hdd: 0.2 GB/s (a 7200 rpm drive: ~270 MB/s on outer tracks, less inside;
//     Seagate Exos X18 270 MB/s max)
//   paravirtual and network: 0.2 GB/s (a cloud volume's provisioned rate: AWS
//     gp3 baseline 125 MB/s, Azure Premium SSD P30 200 MB/s, GCE pd-balanced
//     ~240 MB/s; they scale with size and purchase, which sysfs does not say)
//   virtual and other devices: not used (built on other devices, or removable).
// Striping: several devices of the best kind read in parallel (RAID 0, a
// parallel loader) give the sum; the estimate shows both.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/system/system_info.h"

namespace hwaccel {

// "100G" = 100e9 bytes; K, M, G, T, P are powers of 1000 (an optional trailing
// "B": "100GB"), Ki, Mi, Gi, Ti, Pi powers of 1024 ("1.5TiB"); no suffix: bytes.
// A decimal fraction is allowed. nullopt for anything else, zero or overflow.
std::optional<std::uint64_t> parse_data_size(std::string_view text);

struct DeviceRate {
  std::string device;  // "nvme0n1"
  std::string kind;
  std::optional<std::uint64_t> size_bytes;
  double gbytes_per_s = 0;
  std::string assumption;  // "90% of PCIe Gen4 x4 (7.88 GB/s), capped at 7.0"
  double seconds = 0;      // for the data set
  bool fits = true;        // the device is at least as big as the data set
};

struct IngestEstimate {
  std::uint64_t dataset_bytes = 0;
  std::vector<DeviceRate> devices;        // usable devices, fastest first (then by name)
  std::optional<std::size_t> best;        // index into devices: fastest that fits
  std::optional<double> striped_seconds;  // all devices of the best's kind together
  std::size_t striped_count = 0;
  double striped_gbytes_per_s = 0;
  std::vector<std::string> notes;  // e.g. "no block devices seen"
};

// The sequential-read rate this estimate assumes for one device; nullopt for
// kinds it does not count (virtual, other).
std::optional<DeviceRate> assumed_rate(const BlockDevice& device);

IngestEstimate estimate_ingest(const std::vector<BlockDevice>& storage,
                               std::uint64_t dataset_bytes);

}  // namespace hwaccel
