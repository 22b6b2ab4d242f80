#include "src/registry/probe_gate.h"

#include "src/host/process_runner.h"

namespace hwaccel {

ToolRun ProbeGate::run(const std::vector<std::string>& argv, Timeout timeout) {
  if (live_ && !argv.empty() && !tool_could_start(argv[0])) return inner_.run(argv, timeout);
  wanted_a_tool_ = true;
  throw ProbeWantsATool{};
}

}  // namespace hwaccel
