#include "src/probe/apple_system_profiler.h"

#include <cctype>
#include <nlohmann/json.hpp>

#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

std::string text_of(const nlohmann::json& item, const char* key) {
  auto at = item.find(key);
  if (at == item.end() || !at->is_string()) return "";
  return printable_line(at->get<std::string>(), 120);
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

std::string vendor_text(std::string_view value) {
  // "sppci_vendor_Apple", "sppci_vendor_amd", "sppci_vendor_intel"; older macOS
  // printed "Apple (0x106b)" or "ATI (0x1002)".
  std::string v = to_lower(value);
  if (v.find("apple") != std::string::npos || v.find("0x106b") != std::string::npos) return "Apple";
  if (v.find("amd") != std::string::npos || v.find("ati") != std::string::npos ||
      v.find("0x1002") != std::string::npos)
    return "AMD";
  if (v.find("intel") != std::string::npos || v.find("0x8086") != std::string::npos) return "Intel";
  if (v.find("nvidia") != std::string::npos || v.find("0x10de") != std::string::npos)
    return "NVIDIA";
  return std::string(value);
}

// "8 GB", "1536 MB" -> bytes (binary units, as macOS counts VRAM).
std::optional<std::uint64_t> vram_bytes(std::string_view text) {
  auto t = trim(text);
  auto space = t.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  auto n = parse_u64(t.substr(0, space));
  if (!n) return std::nullopt;
  auto unit = trim(t.substr(space + 1));
  if (unit == "GB") return checked_multiply(*n, 1ull << 30);
  if (unit == "MB") return checked_multiply(*n, 1ull << 20);
  return std::nullopt;
}

}  // namespace

std::string metal_family_text(std::string_view key) {
  std::string k(trim(key));
  if (starts_with(k, "spdisplays_")) k = k.substr(11);
  if (starts_with(k, "mtlgpufamily")) {
    std::string rest = k.substr(12);  // "apple7", "mac2", "metal3"
    std::size_t digit = 0;
    while (digit < rest.size() && !std::isdigit(static_cast<unsigned char>(rest[digit]))) ++digit;
    std::string word = rest.substr(0, digit);
    if (!word.empty()) word[0] = char(std::toupper(static_cast<unsigned char>(word[0])));
    return digit < rest.size() ? word + " " + rest.substr(digit) : word;
  }
  if (starts_with(k, "metalfeaturesetfamily")) return "Metal feature set family " + k.substr(21);
  if (starts_with(k, "metal")) return "Metal " + k.substr(5);  // "metal3" -> "Metal 3"
  if (k == "supported") return "Metal";
  return printable_line(k, 60);
}

std::string metal_compute_class(std::string_view family) {
  std::string out;
  for (char c : family)
    if (std::isalnum(static_cast<unsigned char>(c))) out += char(std::tolower(c));
  return out;
}

MacDisplays parse_sp_displays_json(std::string_view text) {
  MacDisplays out;
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  } catch (const nlohmann::json::exception&) {
    doc = nlohmann::json::value_t::discarded;
  }
  if (doc.is_discarded() || !doc.is_object()) {
    out.problems.push_back("not a JSON object");
    return out;
  }
  out.valid_json = true;
  auto items = doc.find("SPDisplaysDataType");
  if (items == doc.end() || !items->is_array()) {
    out.problems.push_back("no SPDisplaysDataType array");
    return out;
  }
  for (const auto& item : *items) {
    if (!item.is_object()) {
      out.problems.push_back("an SPDisplaysDataType item is not an object");
      continue;
    }
    MacGpu gpu;
    gpu.model = text_of(item, "sppci_model");
    if (gpu.model.empty()) gpu.model = text_of(item, "_name");
    if (gpu.model == "kHW_AppleM1Item") gpu.model = "Apple M1";  // macOS 11's untranslated key
    if (auto cores = parse_u64(text_of(item, "sppci_cores")); cores && *cores < 10000)
      gpu.cores = int(*cores);
    for (const char* key : {"spdisplays_mtlgpufamilysupport", "spdisplays_metalfamily",
                            "spdisplays_metal", "spdisplays_metal_support"}) {
      auto value = text_of(item, key);
      if (!value.empty()) {
        gpu.metal = metal_family_text(value);
        break;
      }
    }
    gpu.vendor = vendor_text(text_of(item, "spdisplays_vendor"));
    if (gpu.vendor.empty() && starts_with(gpu.model, "Apple ")) gpu.vendor = "Apple";
    gpu.builtin = text_of(item, "sppci_bus") == "spdisplays_builtin";
    for (const char* key : {"spdisplays_vram", "_spdisplays_vram", "spdisplays_vram_shared"}) {
      if (auto bytes = vram_bytes(text_of(item, key))) {
        gpu.vram_bytes = bytes;
        break;
      }
    }
    if (auto id = parse_hex(text_of(item, "spdisplays_device-id")); id && *id <= 0xffff)
      gpu.device_id = std::uint16_t(*id);
    if (gpu.model.empty()) {
      out.problems.push_back("a graphics item has neither sppci_model nor _name");
      continue;
    }
    out.gpus.push_back(std::move(gpu));
  }
  return out;
}

std::optional<std::uint64_t> parse_sysctl_u64(std::string_view text) {
  return parse_u64(trim(text));
}

}  // namespace hwaccel
