#include "src/report/colour.h"

#include <sstream>

namespace hwaccel {

namespace {

constexpr const char* kGreen = "\033[32m";
constexpr const char* kRed = "\033[31m";
constexpr const char* kYellow = "\033[33m";
constexpr const char* kReset = "\033[0m";

std::string paint(const std::string& word, const char* colour) {
  return colour + word + kReset;
}

// "cuda:0   ready   NVIDIA ..." -> the status word painted.
std::string paint_line(const std::string& line) {
  if (line.rfind("warning:", 0) == 0) return paint("warning:", kYellow) + line.substr(8);
  if (line.rfind("error:", 0) == 0) return paint("error:", kRed) + line.substr(6);
  if (line.empty() || line[0] == ' ') return line;
  auto first_end = line.find(' ');
  if (first_end == std::string::npos) return line;
  auto second = line.find_first_not_of(' ', first_end);
  if (second == std::string::npos || second - first_end < 2) return line;  // columns: 2+ spaces
  for (const auto& [word, colour] : {std::pair{"ready", kGreen}, {"unavailable", kRed}}) {
    std::string w = word;
    if (line.compare(second, w.size(), w) == 0 &&
        (second + w.size() == line.size() || line[second + w.size()] == ' '))
      return line.substr(0, second) + paint(w, colour) + line.substr(second + w.size());
  }
  return line;
}

}  // namespace

std::string colourise_report(const std::string& text) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out += paint_line(text.substr(start, end - start));
    if (end < text.size()) out += '\n';
    start = end + 1;
  }
  return out;
}

bool colour_wanted(bool stdout_is_terminal, const std::optional<std::string>& no_color) {
  if (no_color && !no_color->empty()) return false;
  return stdout_is_terminal;
}

}  // namespace hwaccel
