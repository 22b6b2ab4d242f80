// A tool that is there and cannot run is "found and cannot execute", with why;
// only a file that is not there is "not found".
#include "src/host/exec_diagnosis.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "src/host/process_runner.h"

namespace hwaccel {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "hwaccel-exec-XXXXXX").string();
    if (::mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  std::string write(const std::string& name, const std::string& bytes, fs::perms perms) const {
    fs::path file = fs::path(path_) / name;
    std::ofstream(file, std::ios::binary) << bytes;
    fs::permissions(file, perms);
    return file.string();
  }

 private:
  std::string path_;
};

constexpr auto kExec = fs::perms::owner_all;
constexpr auto kNoExec = fs::perms::owner_read | fs::perms::owner_write;

// A small dynamically linked program of this machine's (this test program is
// hundreds of MiB in the sanitizer build, and copying it took minutes there).
std::string small_dynamic_program() {
  for (const char* candidate : {"/usr/bin/true", "/bin/true", "/proc/self/exe"})
    if (named_interpreter(candidate)) return candidate;
  return "";
}

// A dynamically linked program with its loader renamed to a path that does not
// exist: what a glibc nvidia-smi is in an image without glibc. "" when this
// machine has no dynamically linked program to copy.
std::string without_its_loader(const TempDir& dir, std::string* loader_out = nullptr) {
  std::string program = small_dynamic_program();
  if (program.empty()) return "";
  auto loader = named_interpreter(program);
  std::ifstream in(program, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string missing = "/nonexistent-hwaccel-loader";
  missing.resize(loader->size(), 'x');
  auto at = bytes.find(*loader + '\0');
  if (at == std::string::npos) return "";
  bytes.replace(at, missing.size(), missing);
  if (loader_out) *loader_out = missing;
  return dir.write("nvidia-smi", bytes, kExec);
}

TEST(ExecDiagnosis, NamesAScriptsInterpreter) {
  TempDir dir;
  EXPECT_EQ(named_interpreter(dir.write("s", "#! /opt/x/python3 -u\nprint()\n", kExec)),
            "/opt/x/python3");
  EXPECT_EQ(named_interpreter(dir.write("t", "#!\n", kExec)), std::nullopt);
  EXPECT_EQ(named_interpreter(dir.write("u", "plain text\n", kExec)), std::nullopt);
  EXPECT_EQ(named_interpreter(dir.write("v",
                                        std::string("\x7f"
                                                    "ELF\x02\x01",
                                                    6),
                                        kExec)),
            std::nullopt)
      << "a cut ELF header names nothing";
}

TEST(ExecDiagnosis, NamesAnElfsLoader) {
  auto loader = named_interpreter("/proc/self/exe");
  if (!loader) GTEST_SKIP() << "a static build has no loader";
  EXPECT_EQ(loader->front(), '/');
  EXPECT_TRUE(fs::exists(*loader)) << *loader;
}

TEST(ExecDiagnosis, AFileThatIsNotThereIsNotFound) {
  EXPECT_EQ(cannot_execute_detail("/nonexistent/hwaccel-tool", ENOENT), std::nullopt);
}

TEST(ProcessRunner, AFileWithoutExecutePermissionIsFoundAndCannotExecute) {
  TempDir dir;
  std::string tool = dir.write("nvidia-smi", "#!/bin/sh\necho hi\n", kNoExec);
  ToolRun run = run_process({tool}, {});
  EXPECT_EQ(run.outcome, ToolOutcome::permission_denied);
  EXPECT_EQ(run.err, "found at " + tool + " and cannot execute: Permission denied");
}

TEST(ProcessRunner, AScriptWhoseInterpreterIsMissingIsFoundAndCannotExecute) {
  TempDir dir;
  std::string tool = dir.write("nvidia-smi", "#!/nonexistent/sh\necho hi\n", kExec);
  ToolRun run = run_process({tool}, {});
  EXPECT_EQ(run.outcome, ToolOutcome::exited) << to_string(run.outcome);
  EXPECT_EQ(run.exit_code, 126);
  EXPECT_EQ(run.err, "found at " + tool +
                         " and cannot execute: No such file or directory (its interpreter "
                         "/nonexistent/sh is missing)");
}

TEST(ProcessRunner, AnElfWhoseLoaderIsMissingIsFoundAndCannotExecute) {
  TempDir dir;
  std::string loader;
  std::string tool = without_its_loader(dir, &loader);
  if (tool.empty()) GTEST_SKIP() << "no dynamically linked program to copy";
  ToolRun run = run_process({tool, "--version"}, {});
  EXPECT_EQ(run.outcome, ToolOutcome::exited) << to_string(run.outcome) << run.err;
  EXPECT_EQ(run.exit_code, 126);
  EXPECT_EQ(run.err, "found at " + tool +
                         " and cannot execute: No such file or directory (its "
                         "interpreter " +
                         loader + " is missing)");
}

TEST(ProcessRunner, AScriptWhoseInterpretersLoaderIsMissingSaysSo) {
  TempDir dir;
  std::string loader;
  std::string interpreter = without_its_loader(dir, &loader);
  if (interpreter.empty()) GTEST_SKIP() << "no dynamically linked program to copy";
  std::string tool = dir.write("tool", "#!" + interpreter + "\n", kExec);
  ToolRun run = run_process({tool}, {});
  EXPECT_EQ(run.exit_code, 126);
  EXPECT_EQ(run.err, "found at " + tool +
                         " and cannot execute: No such file or directory (its "
                         "interpreter " +
                         interpreter + " needs " + loader + ", which is missing)");
}

TEST(ProcessRunner, AFormatThisMachineDoesNotRunIsFoundAndCannotExecute) {
  TempDir dir;
  std::string tool = dir.write("nvidia-smi", "\x01\x02 not a program\n", kExec);
  ToolRun run = run_process({tool}, {});
  EXPECT_EQ(run.outcome, ToolOutcome::exited);
  EXPECT_EQ(run.exit_code, 126);
  EXPECT_EQ(run.err, "found at " + tool +
                         " and cannot execute: Exec format error (not a program this machine "
                         "runs)");
}

}  // namespace
}  // namespace hwaccel
