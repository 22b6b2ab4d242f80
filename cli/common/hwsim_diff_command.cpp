#include "cli/common/hwsim_diff_command.h"

#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/common/exit_codes.h"
#include "sim/report_diff.h"
#include "sim/snapshot_diff.h"
#include "src/host/snapshot_host.h"
#include "src/host/text_file.h"
#include "src/snapshot/limits.h"

namespace hwaccel::cli {

struct DiffArgs {
  std::string a, b;
};

namespace {

struct Input {
  enum class Kind { snapshot, report } kind = Kind::snapshot;
  Snapshot snapshot;
  nlohmann::json report;
};

// A detect.json nests a handful of levels; the report differ recurses once per
// level, so a report nested 200,000 deep crashed `hwsim diff` (stack overflow).
constexpr int kMaxReportDepth = 64;
struct TooDeep {};

// A file whose first non-blank byte is '{' is a JSON report; anything else a snapshot.
bool load(const std::string& path, Input& out) {
  auto text = read_text_file(path, kMaxSnapshotBytes);
  if (!text.ok()) {
    std::cerr << "error: " << text.error().message << "\n";
    return false;
  }
  std::size_t first = text->find_first_not_of(" \t\r\n");
  if (first != std::string::npos && (*text)[first] == '{') {
    out.kind = Input::Kind::report;
    try {
      out.report = nlohmann::json::parse(
          *text, [](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
            if (depth > kMaxReportDepth) throw TooDeep{};
            return true;
          });
    } catch (const nlohmann::json::exception& e) {  // parse_error, or a number beyond a double
      std::cerr << "error: " << path << ": not valid JSON: " << e.what() << "\n";
      return false;
    } catch (const TooDeep&) {
      std::cerr << "error: " << path << ": JSON nested more than " << kMaxReportDepth
                << " deep; not a detect.json report\n";
      return false;
    }
    return true;
  }
  auto loaded = load_snapshot_file(path);
  if (!loaded.snapshot) {
    std::cerr << "error: " << (loaded.error ? loaded.error->to_string() : path) << "\n";
    return false;
  }
  out.snapshot = std::move(*loaded.snapshot);
  return true;
}

}  // namespace

DiffCommand add_diff_command(CLI::App& app) {
  auto args = std::make_shared<DiffArgs>();
  auto* cmd = app.add_subcommand(
      "diff", "What differs between two snapshots or two JSON reports (exit 0 same, 1 different)");
  cmd->add_option("a", args->a, "The first snapshot or report")->required();
  cmd->add_option("b", args->b, "The second")->required();
  return {cmd, args};
}

int DiffCommand::run() const {
  Input a, b;
  if (!load(args->a, a) || !load(args->b, b)) return kExitBadInput;
  if (a.kind != b.kind) {
    std::cerr << "error: cannot compare a "
              << (a.kind == Input::Kind::report ? "report" : "snapshot") << " (" << args->a
              << ") with a " << (b.kind == Input::Kind::report ? "report" : "snapshot") << " ("
              << args->b << ")\n";
    return kExitUsage;
  }
  auto lines = a.kind == Input::Kind::report ? sim::diff_reports(a.report, b.report)
                                             : sim::diff_snapshots(a.snapshot, b.snapshot);
  if (lines.empty()) {
    std::cout << "no differences\n";
    return kExitOk;
  }
  std::cout << "--- " << args->a << "\n+++ " << args->b << "\n";
  for (const auto& line : lines) std::cout << line << "\n";
  std::cout << lines.size() << (lines.size() == 1 ? " difference\n" : " differences\n");
  return kExitDifferent;
}

}  // namespace hwaccel::cli
