#include "src/probe/amdgpu_sysfs.h"

#include <cctype>

#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

bool all_digits(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text)
    if (c < '0' || c > '9') return false;
  return true;
}

bool all_hex(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

std::optional<std::uint16_t> hex16(std::string_view text) {
  if (text.size() != 4 || !all_hex(text)) return std::nullopt;
  return std::uint16_t(*parse_hex(text));
}

}  // namespace

bool is_drm_card_name(std::string_view name) {
  return name.size() > 4 && name.substr(0, 4) == "card" && all_digits(name.substr(4));
}

std::optional<std::uint64_t> parse_sysfs_bytes(std::string_view text) {
  return parse_u64(trim(text));
}

DrmDeviceUevent parse_drm_device_uevent(std::string_view text) {
  DrmDeviceUevent uevent;
  for (auto line : split_lines(text)) {
    auto eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    auto key = trim(line.substr(0, eq));
    auto value = trim(line.substr(eq + 1));
    if (key == "DRIVER") {
      uevent.driver = std::string(value);
    } else if (key == "PCI_ID") {
      auto colon = value.find(':');
      if (colon == std::string_view::npos) continue;
      auto vendor = hex16(value.substr(0, colon));
      auto device = hex16(value.substr(colon + 1));
      if (vendor && device) {
        uevent.vendor = vendor;
        uevent.device = device;
      }
    } else if (key == "PCI_SLOT_NAME") {
      uevent.slot_name = normalize_pci_address(value).value_or("");
    }
  }
  return uevent;
}

std::optional<PciAddressParts> parse_pci_address(std::string_view text) {
  // dddd:bb:dd.f: a 4-hex-digit domain (or more, as some VMs number them), then fixed widths.
  auto first = text.find(':');
  if (first == std::string_view::npos || first < 4 || first > 8) return std::nullopt;
  auto domain = text.substr(0, first);
  auto rest = text.substr(first + 1);
  if (rest.size() != 7 || rest[2] != ':' || rest[5] != '.') return std::nullopt;
  auto bus = rest.substr(0, 2), dev = rest.substr(3, 2), fn = rest.substr(6, 1);
  if (!all_hex(domain) || !all_hex(bus) || !all_hex(dev) || !all_hex(fn)) return std::nullopt;
  PciAddressParts parts;
  parts.domain = std::uint32_t(*parse_hex(domain));
  parts.bus = std::uint8_t(*parse_hex(bus));
  auto d = *parse_hex(dev), f = *parse_hex(fn);
  if (d > 31 || f > 7) return std::nullopt;
  parts.device = std::uint8_t(d);
  parts.function = std::uint8_t(f);
  return parts;
}

std::optional<std::string> normalize_pci_address(std::string_view text) {
  text = trim(text);
  if (!parse_pci_address(text)) return std::nullopt;
  return to_lower(text);
}

std::string link_basename(std::string_view target) {
  while (!target.empty() && target.back() == '/') target.remove_suffix(1);
  auto slash = target.rfind('/');
  return std::string(slash == std::string_view::npos ? target : target.substr(slash + 1));
}

std::string parse_partition_mode(std::string_view text) {
  auto mode = trim(text);
  if (mode.size() < 2 || mode.size() > 8) return "";
  std::string upper;
  for (char c : mode) {
    if (!std::isalnum(static_cast<unsigned char>(c))) return "";
    upper += char(std::toupper(static_cast<unsigned char>(c)));
  }
  return upper;
}

std::optional<int> render_minor_from_names(const std::vector<std::string>& names) {
  for (const auto& name : names) {
    std::string_view n = name;
    if (n.size() <= 7 || n.substr(0, 7) != "renderD" || !all_digits(n.substr(7))) continue;
    auto minor = parse_u64(n.substr(7));
    if (minor && *minor < 1u << 20) return int(*minor);
  }
  return std::nullopt;
}

}  // namespace hwaccel
