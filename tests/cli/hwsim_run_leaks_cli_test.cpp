// End-to-end: under `hwsim run`, what tells a program where it runs describes the
// simulated host, not this machine (docs/hwsim.md, "What is not covered"): PID 1 is a
// plain init, cgroups sit at the namespace's root, the command's signal still decides
// hwsim's status. The conformance matrix (tests/conformance/) checks the mount tables
// and systemd-detect-virt on every host; this checks the process side on one.
#include <gtest/gtest.h>

#include "src/host/sandbox_runner.h"
#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

std::string hwsim_run(const std::string& command) {
  // A variable of this machine's environment, to look for where it must not be.
  return "HWSIM_LEAK_PROBE=here " + bin("hwsim") + " run " +
         source_path("fixtures/hosts/gx10.yaml") + " -- " + command;
}

TEST(HwsimRunLeaks, PidOneIsAPlainInitAndCgroupsAreAtTheRoot) {
  if (!private_mounts_available()) GTEST_SKIP() << "no private mount namespace here";
  auto r =
      run_command(hwsim_run("sh -c 'tr -d \"\\\\0\" </proc/1/cmdline; echo; cat /proc/1/comm; "
                            "grep -c HWSIM_LEAK_PROBE /proc/1/environ; echo $$; "
                            "cut -d: -f3 /proc/self/cgroup | sort -u'"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  if (r.err.find("not covered: /proc/PID, /proc/1") != std::string::npos)
    GTEST_SKIP() << "no PID namespace here: " << r.err;
  // The command is PID 2; PID 1's command line, name and environment are an init's.
  EXPECT_EQ(r.out, "/sbin/init\ninit\n0\n2\n/\n") << r.err;
}

TEST(HwsimRunLeaks, TheCommandsSignalIsHwsimsStatus) {
  if (!private_mounts_available()) GTEST_SKIP() << "no private mount namespace here";
  auto r = run_command(hwsim_run("sh -c 'kill -HUP $$'"));
  EXPECT_EQ(r.exit_code, 128 + 1) << r.err;
  EXPECT_EQ(run_command(hwsim_run("sh -c 'exit 4'")).exit_code, 4);
}

}  // namespace
}  // namespace hwaccel::testing
