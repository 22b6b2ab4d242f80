#include "src/snapshot/yaml_scalar.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>

namespace hwaccel::yaml_out {
namespace {

bool is_special_word(std::string_view s) {
  static const std::array<std::string_view, 11> words = {"true", "false", "yes", "no", "on", "off",
                                                         "null", "~",     "y",   "n",  "<<"};
  std::string lower(s);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return std::find(words.begin(), words.end(), lower) != words.end();
}

// Characters that YAML 1.1 parsers may treat as line breaks or a byte-order mark.
bool has_unicode_break(std::string_view s) {
  return s.find("\xc2\x85") != std::string_view::npos ||
         s.find("\xe2\x80\xa8") != std::string_view::npos ||
         s.find("\xe2\x80\xa9") != std::string_view::npos ||
         s.find("\xef\xbb\xbf") != std::string_view::npos;
}

bool is_block_safe(std::string_view s) {
  if (s.find('\n') == std::string_view::npos) return false;
  if (s.find_first_not_of('\n') == std::string_view::npos) return false;
  for (unsigned char c : s) {
    if (c == '\n' || c == '\t') continue;
    if (c < 0x20 || c == 0x7f) return false;
  }
  if (has_unicode_break(s)) return false;
  // A line holding only blanks is ambiguous against the block's indentation,
  // and so are tabs where the indentation is being detected.
  std::size_t start = 0;
  while (start < s.size()) {
    auto end = s.find('\n', start);
    if (end == std::string_view::npos) end = s.size();
    auto line = s.substr(start, end - start);
    if (!line.empty() && line.find_first_not_of(" \t") == std::string_view::npos) return false;
    if (!line.empty() && line.front() == '\t') return false;
    start = end + 1;
  }
  return true;
}

}  // namespace

bool is_plain_safe(std::string_view s) {
  if (s.empty() || s.size() > 200) return false;
  auto first = static_cast<unsigned char>(s.front());
  if (!(std::isalpha(first) || first == '_' || first == '/')) return false;
  for (unsigned char c : s) {
    if (std::isalnum(c)) continue;
    if (c == '_' || c == '.' || c == '/' || c == '-' || c == '+' || c == '=' || c == '@' ||
        c == ':')
      continue;
    return false;
  }
  if (s.back() == ':') return false;
  return !is_special_word(s);
}

std::string double_quoted(std::string_view s) {
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"':
        out += "\\\"";
        continue;
      case '\\':
        out += "\\\\";
        continue;
      case '\n':
        out += "\\n";
        continue;
      case '\t':
        out += "\\t";
        continue;
      case '\r':
        out += "\\r";
        continue;
      case 0:
        out += "\\0";
        continue;
      case 0x1b:
        out += "\\e";
        continue;
      default:
        break;
    }
    if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
      continue;
    }
    // U+0085, U+2028, U+2029 and U+FEFF are escaped so no parser reads a break or a
    // BOM (as \\u0085, not \\N, which yaml-cpp 0.7 decodes to a lone 0x85 byte).
    auto rest = s.substr(i);
    if (rest.rfind("\xc2\x85", 0) == 0) {
      out += "\\u0085";
      i += 1;
      continue;
    }
    if (rest.rfind("\xe2\x80\xa8", 0) == 0) {
      out += "\\L";
      i += 2;
      continue;
    }
    if (rest.rfind("\xe2\x80\xa9", 0) == 0) {
      out += "\\P";
      i += 2;
      continue;
    }
    if (rest.rfind("\xef\xbb\xbf", 0) == 0) {
      out += "\\uFEFF";
      i += 2;
      continue;
    }
    out += char(c);
  }
  out += '"';
  return out;
}

std::string block_value(std::string_view s, int indent) {
  if (is_plain_safe(s)) return std::string(s);
  if (!is_block_safe(s)) return double_quoted(s);
  std::size_t trailing = 0;
  while (trailing < s.size() && s[s.size() - 1 - trailing] == '\n') ++trailing;
  std::string header = "|";
  auto first_text = s.find_first_not_of('\n');
  if (s[first_text] == ' ') header += std::to_string(2);  // indentation indicator
  if (trailing == 0) header += "-";
  if (trailing >= 2) header += "+";
  std::string pad(std::size_t(indent), ' ');
  std::string out = header + "\n";
  auto body = s.substr(0, s.size() - trailing);
  std::size_t start = 0;
  while (start <= body.size()) {
    auto end = body.find('\n', start);
    if (end == std::string_view::npos) end = body.size();
    auto line = body.substr(start, end - start);
    if (!line.empty()) out += pad;
    out += line;
    out += '\n';
    start = end + 1;
  }
  // Kept trailing newlines beyond the last line's own are empty lines.
  for (std::size_t k = 1; k < trailing; ++k) out += '\n';
  return out;
}

std::string flow_value(std::string_view s) {
  if (is_plain_safe(s) && s.find_first_of(",[]{}") == std::string_view::npos) return std::string(s);
  return double_quoted(s);
}

}  // namespace hwaccel::yaml_out
