#include "src/report/timings_report.h"

#include <cmath>
#include <cstdio>

#include "src/report/table.h"

namespace hwaccel {

namespace {

std::string ms(double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", value);
  return buf;
}

double rounded(double value) {
  return std::round(value * 100.0) / 100.0;
}

}  // namespace

std::string render_timings_text(const Detection& d) {
  std::vector<std::vector<std::string>> rows = {{"BACKEND", "MS"}};
  for (const auto& t : d.timings) rows.push_back({t.backend, ms(t.milliseconds)});
  rows.push_back({"total", ms(d.total_milliseconds)});
  return "\n" + render_table(rows);
}

nlohmann::json timings_json(const Detection& d) {
  nlohmann::json backends = nlohmann::json::object();
  for (const auto& t : d.timings) backends[t.backend] = rounded(t.milliseconds);
  return {{"backends", backends}, {"total_ms", rounded(d.total_milliseconds)}};
}

}  // namespace hwaccel
