#include "src/export/version_numbers.h"

#include <cctype>
#include <vector>

namespace hwaccel {

namespace {

bool digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// "0042" -> "42": a label GFD compares as a number has no leading zeros.
std::string plain(std::string s) {
  s.erase(0, s.find_first_not_of('0'));
  return s.empty() ? "0" : s;
}

}  // namespace

std::optional<ComputeVersion> compute_version(const std::string& c) {
  // NVIDIA sm_XY (sm_90, sm_100, sm_120): the last digit is the minor.
  if (c.rfind("sm_", 0) == 0 && c.size() >= 5 && c.size() <= 7) {
    std::string n = c.substr(3);
    for (char ch : n)
      if (!digit(ch)) return std::nullopt;
    return ComputeVersion{plain(n.substr(0, n.size() - 1)), n.substr(n.size() - 1)};
  }
  // AMD gfxMMmS: the last two characters are minor and stepping (hex), the rest the major.
  if (c.rfind("gfx", 0) == 0 && c.size() >= 6 && c.size() <= 7) {
    std::string n = c.substr(3);
    for (std::size_t i = 0; i + 2 < n.size(); ++i)
      if (!digit(n[i])) return std::nullopt;
    if (!std::isxdigit(static_cast<unsigned char>(n[n.size() - 2]))) return std::nullopt;
    return ComputeVersion{plain(n.substr(0, n.size() - 2)),
                          std::to_string(std::stoi(n.substr(n.size() - 2, 1), nullptr, 16))};
  }
  return std::nullopt;
}

std::optional<DriverVersion> driver_version_numbers(const std::string& v) {
  // The first run of dotted numbers: "550.54.15", "Mesa 24.0.5-1ubuntu1" -> 24.0.5.
  std::size_t at = 0;
  while (at < v.size() && !digit(v[at])) ++at;
  std::vector<std::string> parts{""};
  for (; at < v.size() && parts.size() <= 3; ++at) {
    if (digit(v[at]) && parts.back().size() < 9)
      parts.back() += v[at];
    else if (v[at] == '.' && !parts.back().empty() && at + 1 < v.size() && digit(v[at + 1]))
      parts.emplace_back();
    else
      break;
  }
  if (parts.size() < 2 || parts.size() > 3 || parts.back().empty()) return std::nullopt;
  // The revision as written: GFD keeps "01" of 590.48.01.
  return DriverVersion{plain(parts[0]), plain(parts[1]), parts.size() == 3 ? parts[2] : ""};
}

}  // namespace hwaccel
