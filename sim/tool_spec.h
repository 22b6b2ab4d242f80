// `hwsim import --tool 'ARGV=FILE'`: which recorded argv a captured output belongs
// to. ARGV is split into words like a POSIX shell does (blanks separate words,
// '...' is literal, "..." keeps blanks and takes \" \\ \$ \` escapes, a backslash
// outside quotes escapes the next character); the value after the LAST '=' that
// is outside quotes is the file (argv words often hold '=' themselves:
// `--format=csv`). No expansion of any kind ($VAR, globs, ~) happens.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hwaccel::sim {

struct ToolSpec {
  std::vector<std::string> argv;
  std::string value;  // the file name (or, for --tool-exit, the number)
  std::string error;  // non-empty: what is wrong with the spec
};

ToolSpec parse_tool_spec(std::string_view spec);

// Splits a command line into words with the quoting rules above; `error` says
// what is wrong (an unterminated quote).
std::vector<std::string> split_words(std::string_view text, std::string& error);

// The inverse, for messages and shims: words that need it are single-quoted.
std::string shell_quote(std::string_view word);
std::string shell_join(const std::vector<std::string>& argv);

// For messages about hostile text: shell_quote() when the word has no control
// byte (and no byte of 0x7f), else a double-quoted C-style form ("a\nb", "\x1b"),
// so that a note never carries a newline or a terminal escape from a snapshot.
std::string display_quote(std::string_view word);
std::string display_join(const std::vector<std::string>& argv);

}  // namespace hwaccel::sim
