#include "src/system/block_devices.h"

#include <algorithm>
#include <cerrno>

#include "src/system/infiniband.h"
#include "src/system/pcie_link.h"
#include "src/vocabulary/path.h"
#include "src/vocabulary/text_util.h"

namespace hwaccel {

namespace {

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool has(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

// The name's letters: "nvme0n1" -> starts with "nvme" and has "n" after the controller.
bool is_nvme_namespace(std::string_view name) {
  if (!starts_with(name, "nvme")) return false;
  auto n = name.find('n', 4);
  return n != std::string_view::npos && n > 4;
}

}  // namespace

std::optional<std::uint64_t> parse_block_size_bytes(std::string_view text) {
  auto sectors = parse_u64(trim(text));
  if (!sectors) return std::nullopt;
  return checked_multiply(*sectors, 512);
}

std::optional<bool> parse_rotational(std::string_view text) {
  auto t = trim(text);
  if (t == "0") return false;
  if (t == "1") return true;
  return std::nullopt;
}

BlockKind classify_block_device(const BlockFacts& f) {
  const std::string& n = f.name;
  const std::string& path = f.link_target;
  for (const char* prefix : {"loop", "ram", "zram", "dm-", "md"})
    if (starts_with(n, prefix)) return {"virtual", "", std::string(prefix) + "* device"};
  for (const char* prefix : {"nbd", "rbd", "drbd"})
    if (starts_with(n, prefix)) return {"network", prefix, std::string(prefix) + "* device"};
  if (is_nvme_namespace(n)) {
    std::string transport = f.nvme_transport;
    if (transport.empty() && has(path, "/nvme-fabrics/")) transport = "fabrics";
    if (!transport.empty() && transport != "pcie")
      return {"network", transport, "NVMe over " + transport};
    if (f.model == "Amazon Elastic Block Store")
      return {"network", transport, "model \"Amazon Elastic Block Store\" (an EBS volume)"};
    if (f.model == "nvme_card-pd")
      return {"network", transport, "model \"nvme_card-pd\" (a GCE persistent disk)"};
    return {"nvme", transport,
            transport.empty() ? "nvme* namespace, transport not known" : "NVMe on PCIe"};
  }
  if (starts_with(n, "vd")) return {"paravirtual", "virtio", "vd* (virtio-blk)"};
  if (starts_with(n, "xvd")) return {"paravirtual", "xen", "xvd* (Xen block front-end)"};
  if (starts_with(n, "sr")) return {"other", "", "sr* (optical drive)"};
  if (starts_with(n, "mmcblk")) return {"other", "mmc", "mmcblk* (SD/eMMC)"};
  if (starts_with(n, "sd")) {
    if (has(path, "/session")) return {"network", "iscsi", "sd* on an iSCSI session"};
    if (has(path, "/usb")) return {"other", "usb", "sd* on USB"};
    if (has(path, "/virtio")) return {"paravirtual", "virtio", "sd* behind virtio-scsi"};
    if (has(path, "/VMBUS:") || has(path, "/vmbus_"))
      return {"paravirtual", "vmbus", "sd* on Hyper-V VMBus (storvsc)"};
    std::string transport = has(path, "/ata") ? "ata" : "";
    if (f.rotational == false) return {"ssd", transport, "sd* with queue/rotational 0"};
    if (f.rotational == true) return {"hdd", transport, "sd* with queue/rotational 1"};
    return {"other", transport, "sd* with queue/rotational unknown"};
  }
  return {"other", "", "not a known kind of name"};
}

std::vector<BlockDevice> scan_block_devices(Host& host, std::vector<Warning>& warnings) {
  std::vector<BlockDevice> out;
  auto names = host.list(kBlockDir);
  if (!names) {
    if (names.error().code != ENOENT)
      warnings.push_back({"system", std::string(kBlockDir) + ": " + names.error().errno_name()});
    return out;
  }
  for (const auto& name : *names) {
    // /sys/block/NAME is a link into /sys/devices; its target tells the bus. The
    // attributes are read under the target, never through the link, so that a
    // recording (which keeps the link) replays them at the same paths.
    std::string dir = std::string(kBlockDir) + "/" + name;
    std::string link_target;
    if (auto t = host.readlink(dir); t && !t->empty()) {
      link_target = *t;
      std::string joined =
          link_target.front() == '/' ? link_target : std::string(kBlockDir) + "/" + link_target;
      if (auto canonical = normalize_absolute(joined)) dir = *canonical;
    }
    auto size_text = host.read(dir + "/size");
    if (!size_text) {
      warnings.push_back({"system", dir + "/size: " + size_text.error().errno_name()});
      continue;
    }
    auto size = parse_block_size_bytes(*size_text);
    if (!size) {
      warnings.push_back({"system", dir + "/size: unexpected \"" + printable_line(*size_text, 40) +
                                        "\", expected a count of 512-byte sectors"});
      continue;
    }
    if (*size == 0) continue;

    BlockFacts f;
    f.name = name;
    f.link_target = link_target;
    if (auto r = host.read(dir + "/queue/rotational")) f.rotational = parse_rotational(*r);
    if (auto m = host.read(dir + "/device/model")) f.model = printable_line(*m, 80);
    std::string address;
    if (is_nvme_namespace(name)) {
      if (auto t = host.read(dir + "/device/transport")) f.nvme_transport = printable_line(*t, 20);
      if (auto a = host.read(dir + "/device/address")) address = pci_address_from_link(trim(*a));
    }

    BlockKind k = classify_block_device(f);
    BlockDevice d;
    d.name = name;
    d.kind = k.kind;
    d.why = k.why;
    d.size_bytes = size;
    d.rotational = f.rotational;
    d.model = f.model;
    d.transport = k.transport;
    if (d.kind == "nvme" && !address.empty()) {
      d.pci_bus_id = address;
      d.pcie = read_pcie_link(host, address, warnings);
    }
    out.push_back(std::move(d));
  }
  std::sort(out.begin(), out.end(), [](const BlockDevice& a, const BlockDevice& b) {
    return natural_less(a.name, b.name);
  });
  return out;
}

}  // namespace hwaccel
