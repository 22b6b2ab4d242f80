#include "sim/emulate/emulator_plan.h"

#include "sim/emulate/tool_emulator.h"
#include "sim/shim_script.h"

namespace hwaccel::sim {

bool has_emulated_tools(const Snapshot& snapshot) {
  for (const auto& [argv, tool] : snapshot.tools)
    if (!argv.empty() && find_tool_emulator(argv[0]) && tool.run.outcome != ToolOutcome::not_found)
      return true;
  return false;
}

void plan_emulator(TreePlan& plan, const std::string& program, bool link) {
  if (program.empty()) return;
  if (link)
    plan.entries.push_back({PlannedEntry::Kind::link, kEmulatorFile, "", program, 0777});
  else
    // Not executable: where nothing is bound over it (no namespace), the shims
    // see no emulator and fail loudly instead of running an empty file.
    plan.entries.push_back({PlannedEntry::Kind::file, kEmulatorFile, "", "", 0644});
  plan.entries.push_back({PlannedEntry::Kind::file, kSynthesisedLog, "", "", 0644});
}

std::vector<std::string> synthesised_lines(const std::string& log) {
  std::vector<std::string> lines;
  std::size_t at = 0;
  while (at < log.size() && lines.size() < 1000) {
    auto nl = log.find('\n', at);
    std::string line = log.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    if (!line.empty()) lines.push_back(line);
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  return lines;
}

}  // namespace hwaccel::sim
