// Colour for text reports on a terminal: status words green (ready) or red
// (unavailable), "warning:" yellow, "error:" red. Only the caller knows whether
// colour is wanted (a terminal, NO_COLOR unset); these functions just paint.
#pragma once

#include <optional>
#include <string>

namespace hwaccel {

// Paints the STATUS column (the second column of a table row) and warning
// lines. The text is otherwise unchanged, so stripping the escapes gives back
// the uncoloured report byte for byte.
std::string colourise_report(const std::string& text);

// https://no-color.org: colour on a terminal unless NO_COLOR is set to a
// non-empty value.
bool colour_wanted(bool stdout_is_terminal, const std::optional<std::string>& no_color);

}  // namespace hwaccel
