// Small text helpers shared by the probes' parsers. All are pure and total:
// any input, however odd, gives an answer (an empty one at worst), never a throw.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel {

// Without leading and trailing spaces, tabs, CR and LF.
std::string_view trim(std::string_view text);

// Splits on `separator`; n separators give n+1 pieces (empty pieces kept).
std::vector<std::string_view> split(std::string_view text, char separator);

// Splits into lines on '\n', dropping a trailing '\r' from each (CRLF output).
// A final line without '\n' counts; the empty piece after a final '\n' does not.
std::vector<std::string_view> split_lines(std::string_view text);

// The same lines one at a time, no vector: for a reader that stops early or
// skips most lines (a 7,000-line /proc/cpuinfo).
//   for (std::size_t pos = 0; auto line = next_line(text, pos);) ...
std::optional<std::string_view> next_line(std::string_view text, std::size_t& pos);

// "key<spaces/tabs>: value" -> {trimmed key, trimmed value}; nullopt without a colon.
struct KeyValue {
  std::string_view key;
  std::string_view value;
};
std::optional<KeyValue> split_key_value(std::string_view line);

// A whole decimal number (no sign, no spaces, no suffix); nullopt on overflow.
std::optional<std::uint64_t> parse_u64(std::string_view text);

// A whole hexadecimal number, "0x" prefix optional; nullopt on overflow.
std::optional<std::uint64_t> parse_hex(std::string_view text);

// a * b, or nullopt when it does not fit.
std::optional<std::uint64_t> checked_multiply(std::uint64_t a, std::uint64_t b);

std::string to_lower(std::string_view text);
bool contains_ignoring_case(std::string_view text, std::string_view needle);

// Removes ANSI escape sequences (CSI "ESC [ ... final", OSC "ESC ] ... BEL/ST",
// and two-byte escapes), as terminal-minded tools print them.
std::string strip_ansi(std::string_view text);

// One line fit for a report: ANSI stripped, other control characters turned
// into spaces, runs of spaces collapsed, trimmed, bytes that are not valid
// UTF-8 replaced by '?', and cut to at most `max_bytes` on a character boundary.
std::string printable_line(std::string_view text, std::size_t max_bytes = 200);

// The first line that still says something once made printable; "" if none.
std::string first_meaningful_line(std::string_view text, std::size_t max_bytes = 200);

}  // namespace hwaccel
