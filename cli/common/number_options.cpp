#include "cli/common/number_options.h"

#include <sstream>

#include "src/model/number_text.h"

namespace hwaccel::cli {

namespace {

std::string shown(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

}  // namespace

CLI::Validator finite_number(double lo, double hi, const std::string& what) {
  const std::string range =
      "from " + shown(lo) + " to " + shown(hi) + (what.empty() ? "" : " ") + what;
  return CLI::Validator(
      [lo, hi, range](std::string& text) -> std::string {
        if (parse_finite_in(text, lo, hi)) return "";
        std::string got = text.size() > 40 ? text.substr(0, 37) + "..." : text;
        return "expected a number " + range + ", got \"" + got + "\"";
      },
      "NUMBER in [" + shown(lo) + ", " + shown(hi) + "]");
}

CLI::Validator timeout_seconds() {
  return finite_number(kMinTimeoutSeconds, kMaxTimeoutSeconds, "seconds (1 ms to one day)");
}

}  // namespace hwaccel::cli
