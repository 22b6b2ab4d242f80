#include "src/export/prometheus_text.h"

#include <cstdio>

namespace hwaccel {

namespace {

std::string escape(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

}  // namespace

std::string prom_labels(const std::vector<std::pair<std::string, std::string>>& kv) {
  std::string out;
  for (const auto& [k, v] : kv) out += (out.empty() ? "" : ",") + k + "=\"" + escape(v) + "\"";
  return "{" + out + "}";
}

std::string prom_number(double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", value);
  std::string out = buf;
  out.erase(out.find_last_not_of('0') + 1);
  if (out.back() == '.') out.pop_back();
  return out;
}

std::string prom_metric_text(const PromMetric& m) {
  if (m.samples.empty()) return "";
  std::string out = "# HELP " + m.name + " " + m.help + "\n# TYPE " + m.name + " gauge\n";
  for (const auto& s : m.samples) out += m.name + s + "\n";
  return out;
}

}  // namespace hwaccel
