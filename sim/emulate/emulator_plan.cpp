#include "sim/emulate/emulator_plan.h"

#include <string_view>

#include "sim/emulate/tool_emulator.h"
#include "sim/shim_script.h"
#include "src/host/snapshot_host.h"
#include "src/registry/detection.h"

namespace hwaccel::sim {

namespace {

// The backend whose devices mean the vendor's tool is installed with its driver.
std::string_view tool_backend(std::string_view tool) {
  if (tool == "nvidia-smi") return "cuda";
  if (tool == "rocm-smi" || tool == "amd-smi" || tool == "rocminfo") return "rocm";
  if (tool == "hl-smi") return "gaudi";
  if (tool == "neuron-ls") return "neuron";
  if (tool == "xpu-smi") return "oneapi";
  if (tool == "vulkaninfo") return "vulkan";
  if (tool == "system_profiler" || tool == "sysctl") return "apple";  // macOS ships them
  return "";
}

// Tools every Linux host has, answered from the snapshot wherever it did not
// record them: what they would otherwise ask is this machine (the CPU's CPUID).
bool on_every_linux_host(std::string_view tool) {
  return tool == "systemd-detect-virt";
}

std::string_view last_component(std::string_view path) {
  auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::set<std::string> unrecorded_emulated_tools(const Snapshot& snapshot) {
  std::set<std::string> recorded;
  for (const auto& [argv, tool] : snapshot.tools)
    if (!argv.empty()) recorded.insert(std::string(last_component(argv[0])));
  std::set<std::string> tools;
  if (snapshot.facts.os != "darwin")
    for (const auto& name : emulated_tool_names())
      if (on_every_linux_host(name) && !recorded.count(name)) tools.insert(name);
  std::vector<std::string> backends;
  for (const auto& name : emulated_tool_names())
    if (!recorded.count(name) && !tool_backend(name).empty())
      backends.emplace_back(tool_backend(name));
  if (backends.empty()) return tools;
  SnapshotHost host(snapshot, SnapshotHost::Lent{});  // no copy: it outlives the detection
  DetectOptions options;
  options.only = backends;
  const Detection detection = detect(host, options);
  for (const auto& name : emulated_tool_names()) {
    if (recorded.count(name)) continue;
    for (const auto& entry : detection.entries)
      if (entry.backend == tool_backend(name)) tools.insert(name);
  }
  return tools;
}

bool has_emulated_tools(const Snapshot& snapshot) {
  for (const auto& [argv, tool] : snapshot.tools)
    if (!argv.empty() && find_tool_emulator(argv[0]) && tool.run.outcome != ToolOutcome::not_found)
      return true;
  return !unrecorded_emulated_tools(snapshot).empty();
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
