// TOML allows non-ASCII characters only inside strings and comments. toml++
// 3.3.0 (Debian 12's) reaches __builtin_unreachable on some of them in a bare
// key ("[aé]": docs/reliability.md, finding 8), undefined behaviour inside the
// library. parse_toml refuses such text first, with its own located error.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace hwaccel::plan {

struct TextPosition {
  int line = 1;
  int column = 1;  // in characters (UTF-8 code points), as toml++ counts
};

// Where the first byte at or above 0x80 outside a string or comment is, if any.
// Strings: "...", '...', """...""", '''...''' (backslash escapes in the basic
// ones); comments run from # to the end of the line. An unterminated string
// ends the scan: the TOML parser reports that itself.
std::optional<TextPosition> first_non_ascii_outside_strings(std::string_view text);

}  // namespace hwaccel::plan
