#include "src/registry/probe_gate.h"

#include "src/host/process_runner.h"

namespace hwaccel {

ToolRun ProbeGate::run(const std::vector<std::string>& argv, Timeout) {
  // The live host would search PATH again only to say the same.
  if (live_ && !argv.empty() && !tool_could_start(argv[0])) return not_on_path(argv[0]);
  wanted_a_tool_ = true;
  throw ProbeWantsATool{};
}

}  // namespace hwaccel
