#include "tests/support/run_command.h"

#include <stdlib.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>

#include "tests/support/test_support.h"

namespace hwaccel::testing {

std::string make_temp_dir() {
  char pattern[] = "/tmp/hwaccel-test-XXXXXX";
  char* dir = ::mkdtemp(pattern);
  return dir ? dir : "/tmp";
}

std::string bin(const std::string& name) {
  return std::string(HWACCEL_BIN_DIR) + "/" + name;
}

CommandResult run_command(const std::string& command_line) {
  std::string dir = make_temp_dir();
  std::string out = dir + "/out", err = dir + "/err";
  auto start = std::chrono::steady_clock::now();
  int status = std::system((command_line + " >" + out + " 2>" + err + " </dev/null").c_str());
  CommandResult r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out).value_or("");
  r.err = slurp(err).value_or("");
  std::system(("rm -rf " + dir).c_str());
  return r;
}

}  // namespace hwaccel::testing
