#include "src/plan/calibration_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "src/plan/runtime.h"

namespace hwaccel::plan {

namespace {

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string pct(double e) {
  return fmt("%+.1f%%", e * 100);
}

struct Stats {
  std::vector<double> abs;
  void add(double e) { abs.push_back(std::fabs(e)); }
  double median() const {
    if (abs.empty()) return 0;
    auto v = abs;
    std::sort(v.begin(), v.end());
    std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
  double worst() const { return abs.empty() ? 0 : *std::max_element(abs.begin(), abs.end()); }
  std::string line() const {
    if (abs.empty()) return "- | -";
    return fmt("%.1f%%", median() * 100) + " | " + fmt("%.1f%%", worst() * 100);
  }
};

}  // namespace

std::string calibration_markdown(const std::vector<CalibrationRow>& rows, const Catalogue& cat,
                                 bool with_loo) {
  auto loo = with_loo ? leave_one_out(rows, cat) : std::vector<std::optional<double>>(rows.size());
  std::string o =
      "| id | device | runtime | model | quant | batch | prompt/gen | metric | measured | "
      "estimate | error | leave-one-out | source |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  Stats all, all_loo;
  std::map<std::string, std::pair<Stats, Stats>> per;  // "runtime on class" -> in-sample, LOO
  std::string left_out;  // rows above_peak: in the table, out of the fit and the summary
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    const Sku* sku = cat.find(r.device);
    std::string key = r.runtime + " on " + (sku ? sku->perf_class : "?") + ", " + r.metric;
    auto est = calibration_estimate(r, cat);
    auto why = above_peak(r, cat);
    std::string e = "-", err = "-", l = why ? "left out" : "-";
    if (why) left_out += "- `" + r.id + "`: " + *why + "\n";
    if (est) {
      double x = (*est - r.measured) / r.measured;
      e = fmt("%.2f", *est), err = pct(x);
      if (!why) all.add(x), per[key].first.add(x);
    }
    if (loo[i]) {
      double x = (*loo[i] - r.measured) / r.measured;
      l = pct(x);
      all_loo.add(x), per[key].second.add(x);
    }
    const std::string device =
        r.devices > 1 ? r.device + " x" + std::to_string(r.devices) : r.device;
    o += "| " + r.id + " | " + device + " | " + r.runtime + " | " + r.model + " | " + r.quant +
         " | " + std::to_string(r.batch) + " | " + std::to_string(r.prompt) + "/" +
         std::to_string(r.gen) + " | " + r.metric + " | " + fmt("%.2f", r.measured) + " | " + e +
         " | " + err + " | " + l + " | " + r.source + " |\n";
  }
  o += "\n| profile, metric | rows | median abs. error | worst | leave-one-out median | worst |\n"
       "|---|---|---|---|---|---|\n";
  for (const auto& [key, s] : per)
    o += "| " + key + " | " + std::to_string(s.first.abs.size()) + " | " + s.first.line() + " | " +
         s.second.line() + " |\n";
  o += "| **all** | " + std::to_string(all.abs.size()) + " | " + all.line() + " | " +
       all_loo.line() + " |\n";
  if (!left_out.empty())
    o += "\nLeft out of the fit, the leave-one-out and the summary (faster than the FLOPs at "
         "the devices' dense peak plus the tensor-parallel all-reduces at the link's rate: not "
         "a plain prefill):\n\n" +
         left_out;
  return o;
}

}  // namespace hwaccel::plan
