#include "src/report/json_yaml.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <string_view>

namespace hwaccel {

namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Skips the longest run of characters `ok` accepts from `i`; returns the new index.
template <typename Accept>
std::size_t skip(std::string_view s, std::size_t i, Accept ok) {
  while (i < s.size() && ok(s[i])) ++i;
  return i;
}

// [-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)?, the whole of s.
bool is_decimal(std::string_view s) {
  std::size_t i = s.size() > 0 && (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (i < s.size() && s[i] == '.') {
    std::size_t end = skip(s, i + 1, is_digit);
    if (end == i + 1) return false;
    i = end;
  } else {
    if (i >= s.size() || !is_digit(s[i])) return false;
    i = skip(s, i + 1, [](char c) { return is_digit(c) || c == '_'; });
    if (i < s.size() && s[i] == '.')
      i = skip(s, i + 1, [](char c) { return is_digit(c) || c == '_'; });
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    std::size_t end = skip(s, i, is_digit);
    if (end == i) return false;
    i = end;
  }
  return i == s.size();
}

// 0x[0-9a-fA-F_]+ | 0o?[0-7_]+ | [-+]?\.(inf|Inf|INF) | \.(nan|NaN|NAN) | [0-9:]+(\.[0-9]*)?
bool is_other_number(std::string_view s) {
  auto all = [&](std::size_t from, auto ok) {
    return from < s.size() && skip(s, from, ok) == s.size();
  };
  if (s.size() > 2 && s.substr(0, 2) == "0x" &&
      all(2, [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) || c == '_'; }))
    return true;
  auto octal = [](char c) { return (c >= '0' && c <= '7') || c == '_'; };
  if (s.size() > 1 && s[0] == '0' && (all(1, octal) || (s[1] == 'o' && all(2, octal)))) return true;
  std::string_view unsigned_part = !s.empty() && (s[0] == '-' || s[0] == '+') ? s.substr(1) : s;
  for (std::string_view word : {".inf", ".Inf", ".INF"})
    if (unsigned_part == word) return true;
  for (std::string_view word : {".nan", ".NaN", ".NAN"})
    if (s == word) return true;
  std::size_t i = skip(s, 0, [](char c) { return is_digit(c) || c == ':'; });
  if (i == 0) return false;
  if (i < s.size() && s[i] == '.') i = skip(s, i + 1, is_digit);
  return i == s.size();
}

// What a YAML 1.1 reader (PyYAML, Go's yaml.v2) would not read back as a
// string: numbers ("12.1", "0x10de", "1e3"), booleans ("yes", "off"), null.
// Plain scanning, not a regular expression: libstdc++'s engine recurses per character, and
// these strings come from snapshots (a 30 KB token overflowed the stack elsewhere).
bool reads_as_non_string(const std::string& s) {
  if (s.empty()) return true;
  std::string lower = s;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  for (const char* word : {"true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"})
    if (lower == word) return true;
  return is_decimal(s) || is_other_number(s);
}

void emit(YAML::Emitter& out, const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::object:
      out << YAML::BeginMap;
      for (const auto& [key, value] : j.items()) {
        out << YAML::Key << key << YAML::Value;
        emit(out, value);
      }
      out << YAML::EndMap;
      break;
    case nlohmann::json::value_t::array:
      out << YAML::BeginSeq;
      for (const auto& value : j) emit(out, value);
      out << YAML::EndSeq;
      break;
    case nlohmann::json::value_t::null:
      out << YAML::Null;
      break;
    case nlohmann::json::value_t::boolean:
      out << j.get<bool>();
      break;
    case nlohmann::json::value_t::number_integer:
      out << j.get<std::int64_t>();
      break;
    case nlohmann::json::value_t::number_unsigned:
      out << j.get<std::uint64_t>();
      break;
    case nlohmann::json::value_t::number_float:
      out << j.get<double>();
      break;
    case nlohmann::json::value_t::string:
      if (reads_as_non_string(j.get<std::string>()))
        out << YAML::DoubleQuoted << j.get<std::string>();
      else
        out << j.get<std::string>();
      break;
    default:
      out << YAML::Null;
  }
}

}  // namespace

std::string json_to_yaml(const nlohmann::json& document) {
  YAML::Emitter out;
  emit(out, document);
  return std::string(out.c_str()) + "\n";
}

}  // namespace hwaccel
