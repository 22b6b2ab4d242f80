#include "src/vocabulary/text_util.h"

#include <limits>

namespace hwaccel {
namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

constexpr char kEscape = '\x1b';
constexpr char kBell = '\x07';

// Length of the valid UTF-8 sequence starting at text[at], or 0 when invalid.
std::size_t utf8_sequence_length(std::string_view text, std::size_t at) {
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  unsigned char lead = byte(at);
  std::size_t length = 0;
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf)
    length = 2;
  else if (lead >= 0xe0 && lead <= 0xef)
    length = 3;
  else if (lead >= 0xf0 && lead <= 0xf4)
    length = 4;
  else
    return 0;
  if (at + length > text.size()) return 0;
  for (std::size_t i = 1; i < length; ++i)
    if ((byte(at + i) & 0xc0) != 0x80) return 0;
  return length;
}

}  // namespace

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  // Counted first: one allocation, not a regrowth every doubling (a 446 KB
  // /proc/cpuinfo of 224 CPUs has 6,272 lines).
  std::vector<std::string_view> pieces;
  std::size_t count = 1;
  for (auto at = text.find(separator); at != std::string_view::npos;
       at = text.find(separator, at + 1))
    ++count;
  pieces.reserve(count);
  std::size_t start = 0;
  while (true) {
    auto at = text.find(separator, start);
    if (at == std::string_view::npos) {
      pieces.push_back(text.substr(start));
      return pieces;
    }
    pieces.push_back(text.substr(start, at - start));
    start = at + 1;
  }
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  if (text.empty()) return lines;
  lines = split(text, '\n');
  if (lines.back().empty()) lines.pop_back();
  for (auto& line : lines)
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return lines;
}

std::optional<std::string_view> next_line(std::string_view text, std::size_t& pos) {
  if (pos >= text.size()) return std::nullopt;
  std::size_t end = text.find('\n', pos);
  if (end == std::string_view::npos) end = text.size();
  std::string_view line = text.substr(pos, end - pos);
  pos = end + 1;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

std::optional<KeyValue> split_key_value(std::string_view line) {
  auto colon = line.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  return KeyValue{trim(line.substr(0, colon)), trim(line.substr(colon + 1))};
}

std::optional<std::uint64_t> parse_u64(std::string_view text) {
  if (text.empty()) return std::nullopt;
  std::uint64_t value = 0;
  constexpr auto kMax = std::numeric_limits<std::uint64_t>::max();
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    auto digit = static_cast<std::uint64_t>(c - '0');
    if (value > (kMax - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return value;
}

std::optional<std::uint64_t> parse_hex(std::string_view text) {
  if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
    text.remove_prefix(2);
  if (text.empty()) return std::nullopt;
  std::uint64_t value = 0;
  for (char c : text) {
    std::uint64_t digit = 0;
    if (c >= '0' && c <= '9')
      digit = static_cast<std::uint64_t>(c - '0');
    else if (c >= 'a' && c <= 'f')
      digit = static_cast<std::uint64_t>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F')
      digit = static_cast<std::uint64_t>(c - 'A' + 10);
    else
      return std::nullopt;
    if (value >> 60) return std::nullopt;  // a fifth nibble over 64 bits
    value = (value << 4) | digit;
  }
  return value;
}

std::optional<std::uint64_t> checked_multiply(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a) return std::nullopt;
  return a * b;
}

std::string to_lower(std::string_view text) {
  std::string lower(text);
  for (auto& c : lower)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return lower;
}

bool contains_ignoring_case(std::string_view text, std::string_view needle) {
  return to_lower(text).find(to_lower(needle)) != std::string::npos;
}

std::string strip_ansi(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] != kEscape) {
      out += text[i++];
      continue;
    }
    ++i;  // the ESC itself
    if (i >= text.size()) break;
    char kind = text[i++];
    if (kind == '[') {
      // CSI: parameter and intermediate bytes, then one final byte in 0x40..0x7e.
      while (i < text.size() && !(text[i] >= 0x40 && text[i] <= 0x7e)) ++i;
      if (i < text.size()) ++i;
    } else if (kind == ']') {
      // OSC: up to BEL or ST (ESC '\').
      while (i < text.size() && text[i] != kBell &&
             !(text[i] == kEscape && i + 1 < text.size() && text[i + 1] == '\\'))
        ++i;
      if (i < text.size()) i += text[i] == kBell ? 1 : 2;
    }
    // Any other escape is two bytes long; both are already consumed.
  }
  return out;
}

std::string printable_line(std::string_view text, std::size_t max_bytes) {
  std::string plain = strip_ansi(text);
  std::string_view view(plain);
  std::string out;
  bool pending_space = false;
  std::size_t i = 0;
  while (i < view.size()) {
    auto c = static_cast<unsigned char>(view[i]);
    if (c < 0x20 || c == 0x7f || c == ' ') {
      pending_space = !out.empty();
      ++i;
      continue;
    }
    std::size_t length = utf8_sequence_length(view, i);
    std::string_view piece = length == 0 ? std::string_view("?") : view.substr(i, length);
    std::size_t needed = piece.size() + (pending_space ? 1 : 0);
    if (out.size() + needed > max_bytes) break;
    if (pending_space) out += ' ';
    out += piece;
    pending_space = false;
    i += length == 0 ? 1 : length;
  }
  return out;
}

std::string first_meaningful_line(std::string_view text, std::size_t max_bytes) {
  for (auto line : split_lines(text)) {
    if (trim(line).empty()) continue;  // cheap test first: output can be a million blank lines
    std::string printable = printable_line(line, max_bytes);
    if (!printable.empty()) return printable;
  }
  return {};
}

}  // namespace hwaccel
