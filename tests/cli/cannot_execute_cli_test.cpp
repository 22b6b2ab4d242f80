// A vendor tool on PATH that cannot run (no execute permission, a loader or
// interpreter that is not there: a glibc nvidia-smi in an image without glibc) is
// reported as found and unable to execute, never as "not found on PATH".
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <iterator>
#include <string>

#include "src/host/exec_diagnosis.h"
#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

// The `cuda` line of `hwaccel detect` with only `dir` on PATH.
std::string cuda_line(const std::string& dir) {
  auto r = run_command("env PATH=" + dir + " " + bin("hwaccel") + " detect");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto at = r.out.find("\ncuda ");
  if (at == std::string::npos) return r.out;
  return r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1);
}

void put(const std::string& path, const std::string& bytes, mode_t mode) {
  std::ofstream(path, std::ios::binary) << bytes;
  ::chmod(path.c_str(), mode);
}

TEST(CannotExecuteCli, ANonExecutableNvidiaSmiIsFoundAndCannotExecute) {
  std::string dir = make_temp_dir();
  put(dir + "/nvidia-smi", "#!/bin/sh\necho hi\n", 0644);
  std::string line = cuda_line(dir);
  EXPECT_NE(line.find("permission-denied: nvidia-smi found at " + dir +
                      "/nvidia-smi and cannot execute: Permission denied"),
            std::string::npos)
      << line;
  EXPECT_EQ(line.find("not found"), std::string::npos) << line;
}

TEST(CannotExecuteCli, AScriptNvidiaSmiWithoutItsInterpreterIsFoundAndCannotExecute) {
  std::string dir = make_temp_dir();
  put(dir + "/nvidia-smi", "#!/nonexistent/bash\necho hi\n", 0755);
  std::string line = cuda_line(dir);
  EXPECT_NE(line.find("nvidia-smi found at " + dir +
                      "/nvidia-smi and cannot execute: No such file or directory (its "
                      "interpreter /nonexistent/bash is missing)"),
            std::string::npos)
      << line;
}

// What the NVIDIA container toolkit's glibc nvidia-smi is in an image without glibc:
// an ELF whose dynamic loader is not there (execve says ENOENT for it).
TEST(CannotExecuteCli, AnElfNvidiaSmiWithoutItsLoaderIsFoundAndCannotExecute) {
  const std::string program = bin("host_reader");  // a dynamic ELF (hwaccel may be static)
  auto loader = named_interpreter(program);
  if (!loader) GTEST_SKIP() << "a static build has no loader to take away";
  std::ifstream in(program, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto at = bytes.find(*loader + '\0');
  ASSERT_NE(at, std::string::npos);
  std::string missing = "/nonexistent-glibc-loader";
  missing.resize(loader->size(), 'x');
  bytes.replace(at, missing.size(), missing);
  std::string dir = make_temp_dir();
  put(dir + "/nvidia-smi", bytes, 0755);
  std::string line = cuda_line(dir);
  EXPECT_NE(line.find("nvidia-smi found at " + dir +
                      "/nvidia-smi and cannot execute: No such file or directory (its "
                      "interpreter " +
                      missing + " is missing)"),
            std::string::npos)
      << line;
  EXPECT_EQ(line.find("not found on PATH"), std::string::npos) << line;
}

}  // namespace
}  // namespace hwaccel::testing
