// Emitting one YAML scalar so that any yaml parser reads back the same bytes:
// plain when that is unambiguous, a literal block for readable multi-line text,
// double-quoted with escapes otherwise. Callers route non-UTF-8 bytes to base64.
#pragma once

#include <string>
#include <string_view>

namespace hwaccel::yaml_out {

// A scalar in block context, e.g. after "key: ". `indent` is the column where a
// literal block's lines start. The result has no trailing newline except for
// block scalars, whose last line ends in one.
std::string block_value(std::string_view text, int indent);

// A scalar inside a flow sequence ("[a, b]"): plain or double-quoted.
std::string flow_value(std::string_view text);

std::string double_quoted(std::string_view text);
bool is_plain_safe(std::string_view text);

}  // namespace hwaccel::yaml_out
