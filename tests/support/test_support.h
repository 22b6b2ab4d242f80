// Helpers for tests: an in-memory Host, and reading files of the repo and of
// fixtures/real (the real captures, in the repo). Tests may touch the disk;
// src/ may not; no test reads outside the repository.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/host/host.h"

namespace hwaccel::testing {

// Reads a whole file; nullopt when it cannot be read.
std::optional<std::string> slurp(const std::string& path);
std::string source_path(const std::string& relative);    // under the repo root
std::string real_capture_path(const std::string& name);  // under fixtures/real

// The names (stems) of fixtures/hosts/*.yaml, sorted: every test that runs
// over all fixture hosts uses this one list.
std::vector<std::string> fixture_host_names();

// `text` as a gtest parameter name: every character that is not a letter or a
// digit becomes '_' ("h200-firecracker" -> "h200_firecracker").
std::string test_name(std::string text);

// Goldens are rewritten only when HWACCEL_REGENERATE_GOLDEN=1, never by default.
bool regenerating_goldens();

// Compares `actual` with the reviewed file `golden` (a failure names `what`), or
// rewrites the file when regenerating.
void compare_or_regenerate(const std::filesystem::path& golden, const std::string& actual,
                           const std::string& what);

// Pulls one section out of a nvidia_gpu_exporter capture: the text under the
// banner whose "# $ ..." line starts with `command_prefix`, up to the next banner.
std::optional<std::string> capture_section(const std::string& capture_text,
                                           const std::string& command_prefix);

// A Host whose answers are set by the test. Unknown paths are ENOENT, unknown
// tools are not-found. Like a snapshot, it knows() only the paths it holds (in
// `files` or `errors`, or below them) unless `knows_everything` is set, as a
// real machine does.
class FakeHost : public Host {
 public:
  std::map<std::string, std::string> files;
  std::map<std::string, int> errors;  // path -> errno
  std::map<std::vector<std::string>, ToolRun> tools;
  std::map<std::string, std::string> environment;
  Facts host_facts{"linux", "x86_64", "6.1.0", 4096, 4, "fake"};
  std::vector<std::vector<std::string>> runs;  // every argv run, in order
  bool knows_everything = false;

  Result<std::string> read(std::string_view path) override;
  Result<std::vector<std::string>> list(std::string_view dir) override;
  Result<std::string> readlink(std::string_view path) override;
  Result<FileKind> stat(std::string_view path) override;
  ToolRun run(const std::vector<std::string>& argv, Timeout timeout) override;
  // In order, as a snapshot answers: `runs` is then deterministic.
  std::vector<ToolRun> run_many(const std::vector<std::vector<std::string>>& argvs,
                                Timeout timeout) override {
    std::vector<ToolRun> out;
    for (const auto& argv : argvs) out.push_back(run(argv, timeout));
    return out;
  }
  // Like a snapshot: only the runs it holds (unless knows_everything).
  bool knows_run(const std::vector<std::string>& argv) override {
    return knows_everything || tools.count(argv) > 0;
  }
  std::optional<std::string> env(std::string_view name) override;
  const Facts& facts() override { return host_facts; }
  std::string now() override { return ""; }
  bool knows(std::string_view path) override;
};

}  // namespace hwaccel::testing
