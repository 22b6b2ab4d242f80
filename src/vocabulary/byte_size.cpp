#include "src/vocabulary/byte_size.h"

#include <cctype>
#include <cmath>
#include <map>
#include <string>

namespace hwaccel {

std::optional<std::uint64_t> parse_size(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  std::size_t digits = 0;
  bool seen_dot = false;
  while (digits < text.size() && (std::isdigit(static_cast<unsigned char>(text[digits])) ||
                                  (text[digits] == '.' && !seen_dot))) {
    seen_dot = seen_dot || text[digits] == '.';
    ++digits;
  }
  if (digits == 0 || text.substr(0, digits) == ".") return std::nullopt;
  std::string number(text.substr(0, digits));
  std::string unit(text.substr(digits));
  for (auto& c : unit) c = char(std::toupper(static_cast<unsigned char>(c)));
  static const std::map<std::string, int> shifts = {
      {"", 0},     {"B", 0},  {"K", 10},  {"KB", 10},  {"KIB", 10}, {"M", 20},  {"MB", 20},
      {"MIB", 20}, {"G", 30}, {"GB", 30}, {"GIB", 30}, {"T", 40},   {"TB", 40}, {"TIB", 40}};
  auto it = shifts.find(unit);
  if (it == shifts.end()) return std::nullopt;
  if (number.size() > 20) return std::nullopt;
  if (!seen_dot) {
    std::uint64_t value = 0;
    for (char c : number) {
      if (value > (UINT64_MAX - 9) / 10) return std::nullopt;
      value = value * 10 + std::uint64_t(c - '0');
    }
    if (it->second > 0 && value > (UINT64_MAX >> it->second)) return std::nullopt;
    return value << it->second;
  }
  if (it->second == 0) return std::nullopt;  // fractions of a byte make no sense
  double value = std::stod(number) * std::ldexp(1.0, it->second);
  if (!(value < 1.8e19)) return std::nullopt;
  return std::uint64_t(std::llround(value));
}

}  // namespace hwaccel
