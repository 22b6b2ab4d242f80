#include "src/snapshot/recorded_time.h"

#include <cstdio>
#include <vector>

namespace hwaccel {
namespace {

// Days since 1970-01-01 of a civil date (Howard Hinnant's days_from_civil).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

std::optional<std::int64_t> seconds_of(int y, int mo, int d, int h, int mi, int s) {
  if (y < 1970 || y > 9999 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 ||
      mi > 59 || s < 0 || s > 60)
    return std::nullopt;
  return days_from_civil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d)) * 86400 +
         h * 3600 + mi * 60 + s;
}

bool digits_at(std::string_view t, std::size_t at, std::size_t n) {
  if (t.size() < at + n) return false;
  for (std::size_t i = at; i < at + n; ++i)
    if (t[i] < '0' || t[i] > '9') return false;
  return true;
}
int number_at(std::string_view t, std::size_t at, std::size_t n) {
  int v = 0;
  for (std::size_t i = at; i < at + n; ++i) v = v * 10 + (t[i] - '0');
  return v;
}

// "YYYY-MM-DD?HH:MM:SS" with `date_sep` and `mid` at their places.
std::optional<std::int64_t> numeric(std::string_view t, char date_sep, char mid) {
  if (t.size() < 19 || !digits_at(t, 0, 4) || t[4] != date_sep || !digits_at(t, 5, 2) ||
      t[7] != date_sep || !digits_at(t, 8, 2) || t[10] != mid || !digits_at(t, 11, 2) ||
      t[13] != ':' || !digits_at(t, 14, 2) || t[16] != ':' || !digits_at(t, 17, 2))
    return std::nullopt;
  return seconds_of(number_at(t, 0, 4), number_at(t, 5, 2), number_at(t, 8, 2), number_at(t, 11, 2),
                    number_at(t, 14, 2), number_at(t, 17, 2));
}

// "Fri Jul  3 22:10:45 2026" (ctime's layout, the day space-padded).
std::optional<std::int64_t> ctime_like(std::string_view t) {
  static const char* months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  if (t.size() < 24 || t[3] != ' ' || t[7] != ' ' || t[10] != ' ' || t[19] != ' ') return {};
  int month = 0;
  for (int i = 0; i < 12; ++i)
    if (t.substr(4, 3) == months[i]) month = i + 1;
  const bool day_ok = (t[8] == ' ' || digits_at(t, 8, 1)) && digits_at(t, 9, 1);
  if (!month || !day_ok || !digits_at(t, 11, 2) || t[13] != ':' || !digits_at(t, 14, 2) ||
      t[16] != ':' || !digits_at(t, 17, 2) || !digits_at(t, 20, 4))
    return std::nullopt;
  const int day = (t[8] == ' ' ? 0 : t[8] - '0') * 10 + (t[9] - '0');
  return seconds_of(number_at(t, 20, 4), month, day, number_at(t, 11, 2), number_at(t, 14, 2),
                    number_at(t, 17, 2));
}

bool is_nvidia_smi(const std::vector<std::string>& argv) {
  if (argv.empty()) return false;
  const std::string& n = argv[0];
  const auto slash = n.rfind('/');
  return (slash == std::string::npos ? n : n.substr(slash + 1)) == "nvidia-smi";
}

// The first time in a recorded nvidia-smi output: -q's "Timestamp : ...", the
// table's first line, or a CSV row starting with a timestamp cell.
std::optional<std::int64_t> time_in_output(std::string_view out) {
  out = out.substr(0, 1 << 16);
  std::size_t at = 0;
  for (int line = 0; at < out.size() && line < 64; ++line) {
    auto end = out.find('\n', at);
    std::string_view l = out.substr(at, end == std::string_view::npos ? out.size() - at : end - at);
    at = end == std::string_view::npos ? out.size() : end + 1;
    if (l.rfind("Timestamp", 0) == 0) {
      auto colon = l.find(": ");
      if (colon != std::string_view::npos)
        if (auto t = ctime_like(l.substr(colon + 2))) return t;
    }
    if (auto t = ctime_like(l)) return t;
    if (auto t = numeric(l, '/', ' ')) return t;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::int64_t> parse_recorded_time(std::string_view text) {
  if (auto t = numeric(text, '-', 'T')) return t;
  if (auto t = numeric(text, '/', ' ')) return t;
  return ctime_like(text);
}

std::string iso_time_of(std::int64_t seconds) {
  // civil_from_days (Howard Hinnant).
  std::int64_t z = seconds / 86400 + 719468;
  const std::int64_t sod = seconds % 86400;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  const std::int64_t y = static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02uT%02lld:%02lld:%02lldZ",
                static_cast<long long>(y), m, d, static_cast<long long>(sod / 3600),
                static_cast<long long>(sod / 60 % 60), static_cast<long long>(sod % 60));
  return buf;
}

std::string recorded_time_of(const Snapshot& snapshot) {
  if (auto t = parse_recorded_time(snapshot.host.recorded_at)) return iso_time_of(*t);
  for (const auto& [argv, tool] : snapshot.tools)
    if (is_nvidia_smi(argv))
      if (auto t = time_in_output(tool.run.out)) return iso_time_of(*t);
  return "";
}

}  // namespace hwaccel
