// Calibration of the runtime profiles: for each row of data/calibration.toml
// the estimate the catalogue gives, the error, the leave-one-out estimate, and
// per profile the figures a refit on its rows gives (what data/devices.toml's
// [runtime.*.*] should hold). Prints the markdown of docs/planning.md's
// "Calibration" section.
//
//   build/tests/bench_estimates [data/calibration.toml [--before]]
//   build/tests/bench_estimates data/calibration_check.toml --check   (a table, not a timed test)
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "src/plan/calibration.h"
#include "src/plan/calibration_report.h"
#include "src/plan/runtime.h"

using namespace hwaccel::plan;

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "data/calibration.toml";
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  auto parsed = parse_calibration(text.str(), path);
  if (!parsed.error.empty() || parsed.rows.empty()) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), parsed.error.c_str());
    return 1;
  }
  // --before: every runtime priced with its perf class's figures (the
  // catalogue without [runtime.*] profiles), for the before/after comparison.
  Catalogue cat = builtin_catalogue();
  if (argc > 2 && std::string(argv[2]) == "--before") cat.runtimes.clear();
  // --check: a table of rows never fitted on (data/calibration_check.toml).
  const bool check = argc > 2 && std::string(argv[2]) == "--check";
  std::fputs(calibration_markdown(parsed.rows, cat, !check).c_str(), stdout);
  if (check) return 0;
  std::printf("\nrefit on all rows (copy into data/devices.toml):\n");
  for (const auto& [rt, classes] : cat.runtimes)
    for (const auto& [cls, p] : classes) {
      RuntimeProfile f = fit_profile(p, parsed.rows, cat);
      std::string ids;
      for (const auto& r : parsed.rows) {
        const Sku* s = cat.find(r.device);
        if (s && r.runtime == rt && s->perf_class == cls && !above_peak(r, cat))
          ids += (ids.empty() ? "" : ", ") + r.id;
      }
      std::printf(
          "  %s on %s: decode_efficiency %.3f per_token_us %.0f moe_layer_us %.0f "
          "prefill_efficiency %.3f prefill_efficiency_8bit %.3f prefill_fixed_us %.0f  [%s]\n",
          rt.c_str(), cls.c_str(), f.decode_efficiency, f.per_token_us, f.moe_layer_us,
          f.prefill_efficiency, f.prefill_efficiency_8bit, f.prefill_fixed_us, ids.c_str());
    }
  return 0;
}
