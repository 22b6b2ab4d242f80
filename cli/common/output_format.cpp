#include "cli/common/output_format.h"

#include <cstdio>
#include <iostream>

#include "src/host/live_host.h"
#include "src/host/terminal.h"
#include "src/report/colour.h"
#include "src/report/json_yaml.h"

namespace hwaccel::cli {

void add_output_flags(CLI::App& cmd, OutputArgs& args) {
  auto* json = cmd.add_flag("--json", args.json, "Print the versioned JSON document");
  cmd.add_option("--format", args.format, "Output format: text (default), json or yaml")
      ->check(CLI::IsMember({"text", "json", "yaml"}))
      ->excludes(json);
  cmd.add_flag("-q,--quiet", args.quiet, "Print no warnings or notes on stderr (errors still are)");
}

Format output_format(const OutputArgs& args) {
  if (args.json || args.format == "json") return Format::json;
  if (args.format == "yaml") return Format::yaml;
  return Format::text;
}

void print_document(const nlohmann::json& document, Format format) {
  if (format == Format::yaml)
    std::cout << json_to_yaml(document);
  else
    std::cout << document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

void print_text(const std::string& text) {
  // The environment of this process, not of a snapshot being replayed.
  LiveHost self;
  std::cout << (colour_wanted(is_terminal(1), self.env("NO_COLOR")) ? colourise_report(text)
                                                                    : text);
}

void print_note(const OutputArgs& args, const std::string& message) {
  if (!args.quiet) std::cerr << "warning: " << message << "\n";
}

HeldStderr::HeldStderr() : unit_((std::cerr.flags() & std::ios_base::unitbuf) != 0) {
  std::cerr.flush();
  std::fflush(stderr);
  std::setvbuf(stderr, buffer_, _IOFBF, sizeof buffer_);
  std::cerr.unsetf(std::ios_base::unitbuf);
}

void HeldStderr::flush() {
  std::cerr.flush();
  std::fflush(stderr);
}

HeldStderr::~HeldStderr() {
  flush();
  std::setvbuf(stderr, nullptr, _IONBF, 0);
  if (unit_) std::cerr.setf(std::ios_base::unitbuf);
}

}  // namespace hwaccel::cli
