#include "src/report/json_yaml.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <regex>

namespace hwaccel {

namespace {

// What a YAML 1.1 reader (PyYAML, Go's yaml.v2) would not read back as a
// string: numbers ("12.1", "0x10de", "1e3"), booleans ("yes", "off"), null.
bool reads_as_non_string(const std::string& s) {
  if (s.empty()) return true;
  std::string lower = s;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  for (const char* word : {"true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"})
    if (lower == word) return true;
  static const std::regex number(
      R"([-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)?|0x[0-9a-fA-F_]+|0o?[0-7_]+|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)|[0-9:]+(\.[0-9]*)?)");
  return std::regex_match(s, number);
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
