// The exposition format's pieces: escaped label sets, numbers, one metric's
// HELP/TYPE/samples.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace hwaccel {

struct PromMetric {
  std::string name, help;
  std::vector<std::string> samples;  // what follows the name: "{a=\"b\"} 1" or " 1"
};

std::string prom_labels(const std::vector<std::pair<std::string, std::string>>& kv);
std::string prom_number(double value);  // fixed point, 6 decimals at most, no trailing zeros
std::string prom_metric_text(const PromMetric& metric);  // "" without samples

}  // namespace hwaccel
