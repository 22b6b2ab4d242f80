#include "src/probe/apple_silicon.h"

#include <cctype>

#include "src/vocabulary/text_util.h"

namespace hwaccel {
namespace {

struct Soc {
  std::string_view id;
  std::string_view name;
};

// Apple's SoC ids as the Asahi device trees name them (arch/arm64/boot/dts/apple).
constexpr Soc kSocs[] = {
    {"t8103", "Apple M1"},       {"t6000", "Apple M1 Pro"},   {"t6001", "Apple M1 Max"},
    {"t6002", "Apple M1 Ultra"}, {"t8112", "Apple M2"},       {"t6020", "Apple M2 Pro"},
    {"t6021", "Apple M2 Max"},   {"t6022", "Apple M2 Ultra"}, {"t8122", "Apple M3"},
    {"t6030", "Apple M3 Pro"},   {"t6031", "Apple M3 Max"},   {"t6034", "Apple M3 Max"},
};

std::vector<std::string_view> strings_of(std::string_view compatible) {
  std::vector<std::string_view> out;
  for (auto piece : split(compatible, '\0')) {
    auto t = trim(piece);
    if (!t.empty()) out.push_back(t);
  }
  return out;
}

}  // namespace

bool is_apple_device_tree(std::string_view compatible) {
  for (auto s : strings_of(compatible))
    if (s.substr(0, 6) == "apple,") return true;
  return false;
}

std::string apple_soc_name(std::string_view compatible, std::string* soc) {
  if (soc) soc->clear();
  for (auto s : strings_of(compatible)) {
    if (s.substr(0, 7) != "apple,t") continue;
    auto id = s.substr(6);
    if (soc) *soc = printable_line(id, 20);
    for (const auto& known : kSocs)
      if (known.id == id) return std::string(known.name);
    return "";
  }
  return "";
}

std::string apple_soc_physical_id(std::string_view chip, std::string_view part) {
  std::string slug;
  bool dash = false;
  for (unsigned char c : chip) {
    if (std::isalnum(c)) {
      if (dash && !slug.empty()) slug += '-';
      slug += char(std::tolower(c));
      dash = false;
    } else {
      dash = true;
    }
  }
  return "soc:" + (slug.empty() ? std::string("apple") : slug) + "/" + std::string(part);
}

int apple_neural_engine_cores(std::string_view chip_name) {
  return contains_ignoring_case(chip_name, "Ultra") ? 32 : 16;
}

WorkingSet apple_working_set(std::uint64_t memsize, std::optional<std::uint64_t> wired_limit_mb) {
  if (wired_limit_mb && *wired_limit_mb > 0) {
    if (auto bytes = checked_multiply(*wired_limit_mb, 1ull << 20); bytes && *bytes <= memsize)
      return {*bytes, "iogpu.wired_limit_mb = " + std::to_string(*wired_limit_mb) +
                          " (set by the administrator)"};
  }
  constexpr std::uint64_t kGiB = 1ull << 30;
  if (memsize <= 36 * kGiB)
    return {memsize / 3 * 2, "2/3 of hw.memsize (macOS default at 36 GiB or less)"};
  return {memsize / 4 * 3, "3/4 of hw.memsize (macOS default above 36 GiB)"};
}

}  // namespace hwaccel
