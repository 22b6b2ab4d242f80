#include "src/probe/vulkaninfo_summary.h"

#include <algorithm>
#include <cctype>

#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

bool all_of_char(std::string_view text, char c) {
  if (text.empty()) return false;
  for (char x : text)
    if (x != c) return false;
  return true;
}

// "GPU0:" -> 0
std::optional<int> gpu_header(std::string_view line) {
  if (line.size() < 5 || line.substr(0, 3) != "GPU" || line.back() != ':') return std::nullopt;
  auto n = parse_u64(line.substr(3, line.size() - 4));
  if (!n || *n > 100000) return std::nullopt;
  return int(*n);
}

std::optional<std::uint32_t> parse_id(std::string_view value) {
  auto v = parse_hex(value);
  if (!v || *v > 0xffffffffull) return std::nullopt;
  return std::uint32_t(*v);
}

// The integer before " (...)" or the whole value, when it is one.
std::optional<std::uint64_t> leading_integer(std::string_view value) {
  auto space = value.find(' ');
  return parse_u64(trim(value.substr(0, space)));
}

std::string dotted(std::initializer_list<std::uint64_t> parts) {
  std::string out;
  for (auto p : parts) {
    if (!out.empty()) out += '.';
    out += std::to_string(p);
  }
  return out;
}

bool looks_dotted(std::string_view text) {
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text.front()))) return false;
  for (char c : text)
    if (!std::isdigit(static_cast<unsigned char>(c)) && c != '.') return false;
  return true;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void assign(VulkanPhysicalDevice& d, std::string_view key, std::string_view value,
            std::vector<std::string>& problems) {
  if (key == "apiVersion") {
    d.api_version = vulkan_api_version_text(value);
  } else if (key == "driverVersion") {
    d.driver_version = std::string(value);  // decoded once vendorID is known
  } else if (key == "vendorID") {
    d.vendor_id = parse_id(value);
    if (!d.vendor_id)
      problems.push_back("GPU" + std::to_string(d.index) + ": vendorID \"" +
                         printable_line(value, 40) + "\" is not a number");
  } else if (key == "deviceID") {
    d.device_id = parse_id(value);
  } else if (key == "deviceType") {
    d.type = std::string(value);
  } else if (key == "deviceName") {
    d.name = printable_line(value, 200);
  } else if (key == "driverID") {
    d.driver_id = std::string(value);
  } else if (key == "driverName") {
    d.driver_name = printable_line(value, 100);
  } else if (key == "driverInfo") {
    d.driver_info = printable_line(value, 100);
  } else if (key == "deviceUUID") {
    d.device_uuid = parse_vulkan_uuid(value);
  }
}

}  // namespace

std::string vulkan_api_version_text(std::string_view value) {
  value = trim(value);
  auto open = value.find('(');
  if (open != std::string_view::npos) {
    auto close = value.find(')', open);
    auto inner = trim(value.substr(
        open + 1, close == std::string_view::npos ? std::string_view::npos : close - open - 1));
    if (looks_dotted(inner)) return std::string(inner);
  }
  if (looks_dotted(value) && value.find('.') != std::string_view::npos) return std::string(value);
  if (auto v = parse_u64(value); v && *v <= 0xffffffffull)
    return dotted({(*v >> 22) & 0x7f, (*v >> 12) & 0x3ff, *v & 0xfff});
  return "";
}

std::string vulkan_driver_version_text(std::string_view value,
                                       std::optional<std::uint32_t> vendor) {
  value = trim(value);
  if (looks_dotted(value) && value.find('.') != std::string_view::npos) return std::string(value);
  auto v = leading_integer(value);
  if (!v || *v > 0xffffffffull) return printable_line(value, 40);
  if (vendor == 0x10de)
    return dotted({(*v >> 22) & 0x3ff, (*v >> 14) & 0xff, (*v >> 6) & 0xff, *v & 0x3f});
  return dotted({(*v >> 22) & 0x3ff, (*v >> 12) & 0x3ff, *v & 0xfff});
}

std::optional<std::array<std::uint8_t, 16>> parse_vulkan_uuid(std::string_view text) {
  text = trim(text);
  std::array<std::uint8_t, 16> out{};
  std::size_t nibbles = 0;
  for (char c : text) {
    if (c == '-') continue;
    int h = hex_digit(c);
    if (h < 0 || nibbles >= 32) return std::nullopt;
    out[nibbles / 2] = std::uint8_t(out[nibbles / 2] << 4 | h);
    ++nibbles;
  }
  if (nibbles != 32) return std::nullopt;
  return out;
}

std::string format_uuid(const std::array<std::uint8_t, 16>& uuid) {
  constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < uuid.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += kHex[uuid[i] >> 4];
    out += kHex[uuid[i] & 0xf];
  }
  return out;
}

VulkanSummary parse_vulkaninfo_summary(std::string_view text) {
  VulkanSummary summary;
  bool in_devices = false;
  VulkanPhysicalDevice* current = nullptr;
  // vulkaninfo numbers each physical device once. A GPU<n>: seen again, or the
  // banner or "Devices:" inside the section, is the output repeating itself (a
  // flood, a wrapper that runs it twice): the first listing is the one kept.
  bool in_repeat = false;
  std::size_t repeated_blocks = 0;
  for (auto raw : split_lines(text)) {
    auto line = trim(raw);
    if (line.empty() || all_of_char(line, '=') || all_of_char(line, '-')) continue;
    if (!in_devices) {
      if (line == "Devices:") in_devices = summary.devices_section = true;
      continue;
    }
    if (line == "Devices:" || line == "VULKANINFO") {
      summary.problems.push_back("the output starts over at \"" + std::string(line) +
                                 "\"; what follows is ignored");
      break;
    }
    if (auto n = gpu_header(line)) {
      in_repeat = std::any_of(summary.devices.begin(), summary.devices.end(),
                              [&](const VulkanPhysicalDevice& d) { return d.index == *n; });
      if (in_repeat) {
        ++repeated_blocks;
        current = nullptr;
        continue;
      }
      summary.devices.push_back({});
      current = &summary.devices.back();
      current->index = *n;
      continue;
    }
    if (in_repeat) continue;
    auto eq = line.find('=');
    if (eq == std::string_view::npos) {
      // A loader or driver message printed in the middle of the section.
      if (line.rfind("WARNING", 0) == 0 || line.rfind("ERROR", 0) == 0) continue;
      summary.problems.push_back("line \"" + printable_line(line, 60) +
                                 "\" is neither GPU<n>: nor key = value");
      continue;
    }
    if (!current) {
      summary.problems.push_back("\"" + printable_line(line, 60) + "\" before any GPU<n>:");
      continue;
    }
    assign(*current, trim(line.substr(0, eq)), trim(line.substr(eq + 1)), summary.problems);
  }
  if (repeated_blocks)
    summary.problems.push_back(std::to_string(repeated_blocks) +
                               " repeated GPU<n>: block(s) ignored (the first listing is kept)");
  for (auto& d : summary.devices) {
    d.driver_version = vulkan_driver_version_text(d.driver_version, d.vendor_id);
    if (d.name.empty())
      summary.problems.push_back("GPU" + std::to_string(d.index) + " has no deviceName");
  }
  return summary;
}

bool is_software_vulkan_device(const VulkanPhysicalDevice& d) {
  if (d.type == "PHYSICAL_DEVICE_TYPE_CPU") return true;
  if (d.driver_id == "DRIVER_ID_MESA_LLVMPIPE" || d.driver_id == "DRIVER_ID_GOOGLE_SWIFTSHADER")
    return true;
  for (std::string_view word : {"llvmpipe", "lavapipe", "swiftshader", "softpipe"})
    if (contains_ignoring_case(d.name, word) || contains_ignoring_case(d.driver_name, word))
      return true;
  return false;
}

std::optional<std::string> amd_vulkan_uuid_pci_address(const std::array<std::uint8_t, 16>& uuid) {
  std::uint32_t words[4];
  for (int w = 0; w < 4; ++w)
    words[w] = std::uint32_t(uuid[w * 4]) | std::uint32_t(uuid[w * 4 + 1]) << 8 |
               std::uint32_t(uuid[w * 4 + 2]) << 16 | std::uint32_t(uuid[w * 4 + 3]) << 24;
  if (words[0] > 0xffff || words[1] > 0xff || words[2] > 0x1f || words[3] > 0x7)
    return std::nullopt;
  // All zero is what the drivers write when they have no PCI information.
  if (words[0] == 0 && words[1] == 0 && words[2] == 0 && words[3] == 0) return std::nullopt;
  constexpr char kHex[] = "0123456789abcdef";
  auto hex = [&](std::uint32_t v, int digits) {
    std::string s;
    for (int i = digits - 1; i >= 0; --i) s += kHex[(v >> (4 * i)) & 0xf];
    return s;
  };
  return hex(words[0], 4) + ":" + hex(words[1], 2) + ":" + hex(words[2], 2) + "." +
         hex(words[3], 1);
}

std::optional<Reason> known_vulkaninfo_error(std::string_view output) {
  std::optional<Reason> found;
  for (auto raw : split_lines(output)) {
    auto line = printable_line(raw, 200);
    if (line.find("Found no drivers") != std::string::npos ||
        line.find("ERROR_INCOMPATIBLE_DRIVER") != std::string::npos)
      return Reason{ReasonCode::driver_not_found, line};
    if (!found && (line.find("ERROR_INITIALIZATION_FAILED") != std::string::npos ||
                   line.find("vkEnumeratePhysicalDevices failed") != std::string::npos ||
                   line.find("vkCreateInstance failed") != std::string::npos))
      found = Reason{ReasonCode::probe_failed, line};
  }
  return found;
}

std::string vulkan_device_type_text(std::string_view type) {
  if (type == "PHYSICAL_DEVICE_TYPE_DISCRETE_GPU") return "discrete GPU";
  if (type == "PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU") return "integrated GPU";
  if (type == "PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU") return "virtual GPU";
  if (type == "PHYSICAL_DEVICE_TYPE_CPU") return "CPU (software)";
  if (type == "PHYSICAL_DEVICE_TYPE_OTHER") return "other";
  return printable_line(type, 60);
}

}  // namespace hwaccel
