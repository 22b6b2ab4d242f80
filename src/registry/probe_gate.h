// Running a probe on the calling thread until it asks to run a tool.
//
// Most probes only read sysfs/proc, and on a machine without an accelerator the
// tool-running ones find nothing on the PCI bus or in the driver tables and never
// start a tool. Those need no thread of their own. A probe is first run through a
// ProbeGate: reads pass through to the real host; the first run() stops the probe
// (a tool could hang, and only a thread of its own bounds what a hang costs) and
// the caller re-runs the probe on a thread. Reads are repeatable, so the
// re-run sees what the first attempt saw. The runs asked for are started
// before the stop, on the calling thread (spawning there, while no thread of
// ours competes for a CPU, is quicker than on a new thread), and the re-run
// waits for them instead of starting them again (HeadStartHost).
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "src/host/host.h"

namespace hwaccel {

// A run a gate started, with what it was asked as.
struct StartedTool {
  std::vector<std::string> argv;
  std::unique_ptr<StartedRun> run;
};

class ProbeGate : public Host {
 public:
  explicit ProbeGate(Host& inner) : inner_(inner) {}

  // True once the probe asked to run a tool: its result must be thrown away.
  bool wanted_a_tool() const { return wanted_a_tool_; }
  // The runs it asked for, started: for the probe's re-run.
  std::vector<StartedTool> take_started() { return std::move(started_); }

  Result<std::string> read(std::string_view path) override { return inner_.read(path); }
  Result<FileText> read_text(std::string_view path) override { return inner_.read_text(path); }
  Result<std::vector<std::string>> list(std::string_view dir) override { return inner_.list(dir); }
  Result<std::string> readlink(std::string_view path) override { return inner_.readlink(path); }
  Result<FileKind> stat(std::string_view path) override { return inner_.stat(path); }
  ToolRun run(const std::vector<std::string>& argv, Timeout timeout = {}) override;
  std::unique_ptr<StartedRun> start(const std::vector<std::string>& argv,
                                    Timeout timeout = {}) override;
  // Every run that could start is started, then the probe stops.
  std::vector<ToolRun> run_many(const std::vector<std::vector<std::string>>& argvs,
                                Timeout timeout = {}) override;
  bool knows_run(const std::vector<std::string>& argv) override { return inner_.knows_run(argv); }
  std::optional<std::string> env(std::string_view name) override { return inner_.env(name); }
  const Facts& facts() override { return inner_.facts(); }
  std::string now() override { return inner_.now(); }
  bool knows(std::string_view path) override { return inner_.knows(path); }

 private:
  // The answer when `argv` could not start (a tool on no folder of PATH: it
  // needs no thread); else none, and the run is started and kept.
  std::optional<ToolRun> start_or_answer(const std::vector<std::string>& argv, Timeout timeout);

  Host& inner_;
  bool wanted_a_tool_ = false;
  std::vector<StartedTool> started_;
};

// The host of a probe's re-run after a ProbeGate stopped it: a run the gate
// started (same argv, each once) is waited for; everything else passes through.
class HeadStartHost : public Host {
 public:
  HeadStartHost(Host& inner, std::vector<StartedTool> started)
      : inner_(inner), started_(std::move(started)) {}

  Result<std::string> read(std::string_view path) override { return inner_.read(path); }
  Result<FileText> read_text(std::string_view path) override { return inner_.read_text(path); }
  Result<std::string> read_head(std::string_view path, std::size_t max_bytes) override {
    return inner_.read_head(path, max_bytes);
  }
  Result<std::vector<std::string>> list(std::string_view dir) override { return inner_.list(dir); }
  Result<std::string> readlink(std::string_view path) override { return inner_.readlink(path); }
  Result<FileKind> stat(std::string_view path) override { return inner_.stat(path); }
  ToolRun run(const std::vector<std::string>& argv, Timeout timeout = {}) override {
    if (auto started = take(argv)) return started->finish();
    return inner_.run(argv, timeout);
  }
  std::unique_ptr<StartedRun> start(const std::vector<std::string>& argv,
                                    Timeout timeout = {}) override {
    if (auto started = take(argv)) return started;
    return inner_.start(argv, timeout);
  }
  // The gate's runs among them are waited for, the others started beside them.
  std::vector<ToolRun> run_many(const std::vector<std::vector<std::string>>& argvs,
                                Timeout timeout = {}) override;
  bool knows_run(const std::vector<std::string>& argv) override { return inner_.knows_run(argv); }
  std::optional<std::string> env(std::string_view name) override { return inner_.env(name); }
  const Facts& facts() override { return inner_.facts(); }
  std::string now() override { return inner_.now(); }
  bool knows(std::string_view path) override { return inner_.knows(path); }

 private:
  std::unique_ptr<StartedRun> take(const std::vector<std::string>& argv);

  Host& inner_;
  std::mutex mutex_;
  std::vector<StartedTool> started_;  // a run never asked again is stopped with the host
};

// Thrown by ProbeGate::run to unwind the probe; never escapes detect().
struct ProbeWantsATool {};

}  // namespace hwaccel
