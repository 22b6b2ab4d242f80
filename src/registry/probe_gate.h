// Running a probe on the calling thread until it asks to run a tool.
//
// Most probes only read sysfs/proc, and on a machine without an accelerator the
// tool-running ones find nothing on the PCI bus or in the driver tables and never
// start a tool. Those need no thread of their own. A probe is first run through a
// ProbeGate: reads pass through to the real host; the first run() stops the probe
// (a tool could hang, and only a thread of its own bounds what a hang costs) and
// the caller re-runs the probe on a thread. Reads are repeatable, so the
// re-run sees what the first attempt saw.
#pragma once

#include "src/host/host.h"

namespace hwaccel {

class ProbeGate : public Host {
 public:
  // `live`: the host runs real processes (LiveHost), so a tool that is on no
  // folder of PATH answers not_found at once and needs no thread.
  ProbeGate(Host& inner, bool live) : inner_(inner), live_(live) {}

  // True once the probe asked to run a tool: its result must be thrown away.
  bool wanted_a_tool() const { return wanted_a_tool_; }

  Result<std::string> read(std::string_view path) override { return inner_.read(path); }
  Result<std::vector<std::string>> list(std::string_view dir) override { return inner_.list(dir); }
  Result<std::string> readlink(std::string_view path) override { return inner_.readlink(path); }
  Result<FileKind> stat(std::string_view path) override { return inner_.stat(path); }
  ToolRun run(const std::vector<std::string>& argv, Timeout timeout = {}) override;
  std::vector<ToolRun> run_many(const std::vector<std::vector<std::string>>& argvs,
                                Timeout timeout = {}) override {
    std::vector<ToolRun> runs;  // in turn, on this thread: the first that could start stops it
    for (const auto& argv : argvs) runs.push_back(run(argv, timeout));
    return runs;
  }
  bool knows_run(const std::vector<std::string>& argv) override { return inner_.knows_run(argv); }
  std::optional<std::string> env(std::string_view name) override { return inner_.env(name); }
  const Facts& facts() override { return inner_.facts(); }
  std::string now() override { return inner_.now(); }
  bool knows(std::string_view path) override { return inner_.knows(path); }

 private:
  Host& inner_;
  bool live_;
  bool wanted_a_tool_ = false;
};

// Thrown by ProbeGate::run to unwind the probe; never escapes detect().
struct ProbeWantsATool {};

}  // namespace hwaccel
