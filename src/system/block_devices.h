// Block devices from /sys/block: what kind each is and how big.
//
// Kinds (decided from the name, the sysfs path the /sys/block/NAME link points
// to, queue/rotational, and for NVMe the controller's transport and model):
//   nvme         nvme*n* on a PCIe controller (transport "pcie")
//   ssd / hdd    sd* on ATA/SAS/SCSI by queue/rotational (0 / 1)
//   paravirtual  vd* (virtio-blk), xvd* (Xen), sd* behind virtio-scsi or Hyper-V
//                VMBus: a hypervisor's disk, in a cloud usually network-backed
//   network      nbd*, rbd*, drbd*, sd* on an iSCSI session, NVMe over
//                TCP/RDMA/FC, and the cloud block volumes that show as NVMe
//                (model "Amazon Elastic Block Store", GCE "nvme_card-pd")
//   virtual      loop*, ram*, zram*, dm-*, md*: built on other devices or on
//                memory; listed, but not counted as a place data comes from
//   other        sr* (optical), mmcblk*, usb disks, anything else
// Devices of size 0 (an unattached loop, an empty drive) are left out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/host/host.h"
#include "src/system/system_info.h"

namespace hwaccel {

inline constexpr const char* kBlockDir = "/sys/block";

// "/sys/block/NAME/size": 512-byte sectors whatever the device's block size.
std::optional<std::uint64_t> parse_block_size_bytes(std::string_view text);

// "0\n" / "1\n" -> false / true; anything else nullopt.
std::optional<bool> parse_rotational(std::string_view text);

struct BlockFacts {
  std::string name;         // "sda"
  std::string link_target;  // readlink /sys/block/NAME: "../devices/pci0000:00/.../block/sda"
  std::optional<bool> rotational;
  std::string model;           // trimmed
  std::string nvme_transport;  // /sys/block/NAME/device/transport for NVMe: "pcie", "tcp"
};
struct BlockKind {
  std::string kind;       // see above
  std::string transport;  // "pcie", "ata", "usb", "iscsi", "virtio", "vmbus", "xen", ...; ""
  std::string why;        // a short account for reports
};
// Pure: the kind from what sysfs said.
BlockKind classify_block_device(const BlockFacts& facts);

// Every block device with a nonzero size, sorted by name. No /sys/block: none.
std::vector<BlockDevice> scan_block_devices(Host& host, std::vector<Warning>& warnings);

}  // namespace hwaccel
