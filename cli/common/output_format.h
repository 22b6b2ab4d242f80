// The conventions every reporting command shares: --json / --format
// text|json|yaml, -q, colour only on a terminal without NO_COLOR, and one
// document per invocation on stdout (diagnostics go to stderr).
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>

namespace hwaccel::cli {

enum class Format { text, json, yaml };

struct OutputArgs {
  bool json = false;
  std::string format;  // empty: text, or json with --json
  bool quiet = false;  // -q: no warnings or notes on stderr (errors are still printed)
};

// Adds --json, --format (text|json|yaml) and -q,--quiet to `command`.
void add_output_flags(CLI::App& command, OutputArgs& args);
Format output_format(const OutputArgs& args);

// Prints a document in the format asked for: JSON (two-space indent, sorted
// keys, one trailing newline) or YAML.
void print_document(const nlohmann::json& document, Format format);
// Prints a text report, coloured when stdout is a terminal and NO_COLOR is unset.
void print_text(const std::string& text);

// A warning or note on stderr, unless -q.
void print_note(const OutputArgs& args, const std::string& message);

// While it lives, std::cerr's lines are held in stderr's buffer and written
// together at flush() and at its end, not one write(2) a piece (`hwsim run`
// says a dozen lines in 20 pieces before its command starts: 40 us). Flush
// before anything else writes to the same stderr (a child process).
class HeldStderr {
 public:
  HeldStderr();
  ~HeldStderr();
  HeldStderr(const HeldStderr&) = delete;
  HeldStderr& operator=(const HeldStderr&) = delete;
  void flush();

 private:
  char buffer_[8192];
  bool unit_ = true;
};

}  // namespace hwaccel::cli
