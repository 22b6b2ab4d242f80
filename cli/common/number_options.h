// Checks for the command line's number options. CLI::Range and
// CLI::PositiveNumber compare with < and >, which nan passes (--fault-rate nan
// became 0, --timeout nan reached a float-to-integer cast: undefined
// behaviour); these accept only a finite number in a documented range.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace hwaccel::cli {

// A finite decimal number from lo to hi inclusive; anything else is a usage
// error "--NAME: expected a number from LO to HI (WHAT), got \"TEXT\"".
CLI::Validator finite_number(double lo, double hi, const std::string& what = "");

// The range --timeout accepts, in seconds: 1 ms to one day. Below 1 ms a tool
// cannot even start; past a day a detection is not a detection any more (and
// 1e300 seconds does not fit a std::chrono::milliseconds).
inline constexpr double kMinTimeoutSeconds = 0.001;
inline constexpr double kMaxTimeoutSeconds = 86400;

// --timeout SECONDS for the commands that run tools.
CLI::Validator timeout_seconds();

}  // namespace hwaccel::cli
