#include "src/registry/probe_gate.h"

#include <utility>

namespace hwaccel {

std::optional<ToolRun> ProbeGate::start_or_answer(const std::vector<std::string>& argv,
                                                  Timeout timeout) {
  auto run = inner_.start(argv, timeout);
  if (run->answered()) return run->finish();
  // A host that answers only at finish() (a test's double) is asked again by the
  // re-run, as it would be without a gate.
  if (run->under_way()) started_.push_back({argv, std::move(run)});
  wanted_a_tool_ = true;
  return std::nullopt;
}

ToolRun ProbeGate::run(const std::vector<std::string>& argv, Timeout timeout) {
  if (auto answer = start_or_answer(argv, timeout)) return std::move(*answer);
  throw ProbeWantsATool{};
}

std::unique_ptr<StartedRun> ProbeGate::start(const std::vector<std::string>& argv,
                                             Timeout timeout) {
  if (auto answer = start_or_answer(argv, timeout)) return finished_run(std::move(*answer));
  throw ProbeWantsATool{};
}

std::vector<ToolRun> ProbeGate::run_many(const std::vector<std::vector<std::string>>& argvs,
                                         Timeout timeout) {
  std::vector<ToolRun> answers;
  for (const auto& argv : argvs)
    if (auto answer = start_or_answer(argv, timeout)) answers.push_back(std::move(*answer));
  if (wanted_a_tool_) throw ProbeWantsATool{};
  return answers;
}

std::vector<ToolRun> HeadStartHost::run_many(const std::vector<std::vector<std::string>>& argvs,
                                             Timeout timeout) {
  std::vector<std::unique_ptr<StartedRun>> runs;
  bool any_started = false;
  for (const auto& argv : argvs) {
    runs.push_back(take(argv));
    any_started |= runs.back() != nullptr;
  }
  if (!any_started) return inner_.run_many(argvs, timeout);
  for (std::size_t i = 0; i < argvs.size(); ++i)
    if (!runs[i]) runs[i] = inner_.start(argvs[i], timeout);
  return finish_together(std::move(runs));
}

std::unique_ptr<StartedRun> HeadStartHost::take(const std::vector<std::string>& argv) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& tool : started_)
    if (tool.run && tool.argv == argv) return std::move(tool.run);
  return nullptr;
}

}  // namespace hwaccel
