// Issue 18, items 1-7, end to end: hostile snapshots given to `hwsim run` and
// `hwsim materialize`. Each asserts the exit code, the message that says what was
// refused or left out, and that a canary folder the snapshot names stays empty
// (no command from snapshot text ran, nothing was written outside the tree).
#include <gtest/gtest.h>

#include <filesystem>

#include "src/host/sandbox_runner.h"
#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

namespace fs = std::filesystem;

#define REQUIRE_NAMESPACE()        \
  if (!private_mounts_available()) \
  GTEST_SKIP() << "no private mount namespace here: `hwsim run` only reports what it cannot cover"

class HwsimHostile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = make_temp_dir();
    canary_ = dir_ + "/canary";
    fs::create_directory(canary_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A snapshot with `env` (YAML flow mapping body), `files` and `tools` (YAML lines).
  std::string snapshot(const std::string& env, const std::string& files, const std::string& tools) {
    const std::string path = dir_ + "/host.yaml";
    write_text(path,
               "schema: hwaccel-snapshot/1\nhost: {label: t, origin: hand-written}\n"
               "facts: {os: linux, arch: x86_64, kernel: \"6.8.0\", page_size: 4096, cpus: 2, "
               "hostname: t}\nenv: {PATH: \"/usr/bin:/bin\"" +
                   env + "}\nfiles:" + (files.empty() ? " {}\n" : "\n" + files) +
                   "tools:" + (tools.empty() ? " []\n" : "\n" + tools));
    return path;
  }
  bool canary_untouched() const { return fs::is_empty(canary_); }
  std::string dir_, canary_;
};

// Item 1: a newline in an argv word ended the shim's `# ARGV` comment and the
// rest ran as shell on every call of the tool.
TEST_F(HwsimHostile, ANewlineInAToolArgumentRunsNothing) {
  const std::string host =
      snapshot("", "",
               "  - argv: [nvidia-smi, \"-L\\ntouch " + canary_ +
                   "/x #\"]\n    stdout: \"exact\\n\"\n"
                   "  - argv: [nvidia-smi, \"-L\"]\n    stdout: \"plain\\n\"\n");
  // The exact recorded word, newline and all, passed by a script.
  write_text(dir_ + "/call.sh", "nvidia-smi '-L\ntouch " + canary_ + "/x #'\nnvidia-smi -L\n");
  for (const std::string flags : {" --no-namespace", ""}) {
    if (flags.empty() && !private_mounts_available()) continue;
    auto r =
        run_command(bin("hwsim") + " run" + flags + " " + host + " -- sh " + dir_ + "/call.sh");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "exact\nplain\n") << r.err;
    // Not recorded: the emulator answers from the device model (no GPU here: the
    // tool's own "No devices were found", status 6), running nothing it was given.
    auto miss =
        run_command(bin("hwsim") + " run" + flags + " " + host + " -- sh -c 'nvidia-smi -q'");
    EXPECT_EQ(miss.exit_code, 6) << miss.err;
    EXPECT_EQ(miss.out, "No devices were found\n") << miss.err;
    EXPECT_TRUE(canary_untouched()) << flags;
  }
}

// Item 1, the header: a tool run by an absolute path with a newline in it.
TEST_F(HwsimHostile, ANewlineInAnAbsoluteToolPathRunsNothing) {
  const std::string tool = "/opt/x\ntouch " + canary_ + "/y #";
  std::string yaml_tool = "/opt/x\\ntouch " + canary_ + "/y #";
  const std::string host =
      snapshot("", "", "  - argv: [\"" + yaml_tool + "\", \"-L\"]\n    stdout: \"answer\\n\"\n");
  const std::string tree = dir_ + "/tree";
  auto m = run_command(bin("hwsim") + " materialize " + host + " " + tree);
  ASSERT_EQ(m.exit_code, 0) << m.err;
  write_text(dir_ + "/call.sh", "'" + tree + tool + "' -L\n'" + tree + tool + "' -q\necho $?\n");
  auto r = run_command("sh " + dir_ + "/call.sh");
  EXPECT_EQ(r.out, "answer\n127\n") << r.err;
  auto run = run_command(bin("hwsim") + " run --no-namespace " + host + " -- true");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(canary_untouched());
}

// Item 2: env keys were written unquoted into env.sh; sourcing it ran them. Now no
// recorded key outside the device view reaches env.sh at all.
TEST_F(HwsimHostile, EnvShRunsNoKey) {
  const std::string host =
      snapshot(", \"X;touch " + canary_ + "/y;Y\": \"1\", OK: \"$(touch " + canary_ +
                   "/z)\", CUDA_VISIBLE_DEVICES: \"$(touch " + canary_ + "/w)\"",
               "", "");
  const std::string tree = dir_ + "/tree";
  auto m = run_command(bin("hwsim") + " materialize " + host + " " + tree);
  ASSERT_EQ(m.exit_code, 0) << m.err;
  EXPECT_NE(m.err.find("note: env: 2 recorded variables not passed on"), std::string::npos)
      << m.err;
  EXPECT_NE(m.err.find("note: left out: env CUDA_VISIBLE_DEVICES: "), std::string::npos) << m.err;
  auto r = run_command("sh -c '. " + tree + "/.hwsim/env.sh && echo \"[${OK-unset}]\"'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "[unset]\n");
  EXPECT_TRUE(canary_untouched());
}

// Item 3 (issue 31: by allow-list): LD_PRELOAD and the like from a snapshot never
// reach the command; the command's own environment is this machine's.
TEST_F(HwsimHostile, LoaderVariablesNeverReachTheCommand) {
  const std::string host = snapshot(
      ", LD_PRELOAD: /sys/evil.so, DYLD_INSERT_LIBRARIES: /sys/x, BASH_ENV: /sys/env, OK: \"1\", "
      "CUDA_VISIBLE_DEVICES: \"1,0\"",
      "  /sys/evil.so: \"not a library\\n\"\n", "");
  auto r = run_command("env OK=mine " + bin("hwsim") + " run --no-namespace " + host +
                       " -- sh -c 'echo \"[$LD_PRELOAD][$DYLD_INSERT_LIBRARIES][$BASH_ENV][$OK]["
                       "$CUDA_VISIBLE_DEVICES]\"'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "[][][][mine][1,0]\n");
  EXPECT_NE(r.err.find("hwsim run: note: env: 4 recorded variables not passed on"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("ERROR: ld.so"), std::string::npos) << r.err;
}

// Item 4: a tool recorded under /etc made `hwsim run` lay the tree's whole /etc
// over the real one, the snapshot's /etc/ld.so.preload with it.
TEST_F(HwsimHostile, EtcAndUsrAreNeverLaidOver) {
  REQUIRE_NAMESPACE();
  const std::string host =
      snapshot("",
               "  /etc/ld.so.preload: \"" + canary_ +
                   "/evil.so\\n\"\n"
                   "  /etc/hwsim-marker: \"from the snapshot\\n\"\n",
               "  - argv: [/etc/hwsim-tool/x, \"-L\"]\n    stdout: \"GPU\\n\"\n"
               "  - argv: [/usr/bin/hwsim-new-tool, \"-L\"]\n    stdout: \"GPU\\n\"\n");
  auto r =
      run_command(bin("hwsim") + " run " + host +
                  " -- sh -c 'cat /etc/hwsim-marker 2>/dev/null; test -e /etc/hwsim-tool/x && "
                  "echo etc-tool; test -e /usr/bin/hwsim-new-tool && echo usr-tool; echo done'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "done\n") << r.err;
  EXPECT_EQ(r.err.find("ERROR: ld.so"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("hwsim run: not presented: /etc/ld.so.preload (recorded outside /sys, "
                       "/proc and /dev: the command sees this machine's)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("hwsim run: not covered: /etc/hwsim-tool/x (tool shim, not presented): "),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("/usr/bin/hwsim-new-tool (tool shim, not presented)"), std::string::npos);
}

// Item 5: `/proc/sys: {link: CANARY}` plus a file below it made `hwsim run` mkdir
// through the link onto the real disk.
TEST_F(HwsimHostile, AProcLinkInTheTreeIsNeverFollowed) {
  REQUIRE_NAMESPACE();
  const std::string host = snapshot("",
                                    "  /proc/sys: {link: " + canary_ +
                                        "}\n  /proc/sys/kernel/hwsim-x: \"1\\n\"\n"
                                        "  /proc/sys/kernel/hostname: \"evil\\n\"\n",
                                    "");
  auto r = run_command(bin("hwsim") + " run " + host + " -- true");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // The link leads out of the simulated trees: it is not laid, so nothing below
  // it is written through it (sim/tree_links.h).
  EXPECT_NE(r.err.find("hwsim run: left out: /proc/sys: a link that leads to "), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("not laid (never followed)"), std::string::npos) << r.err;
  EXPECT_TRUE(canary_untouched());
}

// Item 6: a target that is a link (or another user's folder) is refused.
TEST_F(HwsimHostile, MaterializeRefusesATargetThatIsALink) {
  const std::string host = snapshot("", "  /sys/a: \"1\\n\"\n", "");
  fs::create_directory_symlink(canary_, dir_ + "/link");
  auto r = run_command(bin("hwsim") + " materialize " + host + " " + dir_ + "/link");
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_NE(r.err.find("/link: not a folder (a symbolic link or a file; never followed)"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(canary_untouched());
}

// Item 7: bad tool names failed late, with no location, leaving a partial tree.
TEST_F(HwsimHostile, BadToolNamesAreRefusedBeforeAnythingIsWritten) {
  for (const std::string name : {"..", ".", "", "bin/x"}) {
    const std::string host = snapshot(
        "", "  /sys/a: \"1\\n\"\n", "  - argv: [\"" + name + "\", \"-L\"]\n    stdout: \"x\\n\"\n");
    auto m = run_command(bin("hwsim") + " materialize " + host + " " + dir_ + "/tree");
    EXPECT_EQ(m.exit_code, 4) << name << ": " << m.err;
    EXPECT_NE(m.err.find("error: " + host + ": tools: the run of `"), std::string::npos) << m.err;
    EXPECT_NE(m.err.find(") is not a tool name"), std::string::npos) << m.err;
    EXPECT_FALSE(fs::exists(dir_ + "/tree")) << name;
    const std::string tmp = dir_ + "/tmp";
    fs::create_directory(tmp);
    auto r = run_command("TMPDIR=" + tmp + " " + bin("hwsim") + " run --no-namespace " + host +
                         " -- true");
    EXPECT_EQ(r.exit_code, 4) << name << ": " << r.err;
    EXPECT_TRUE(fs::is_empty(tmp)) << name;
  }
}

}  // namespace
}  // namespace hwaccel::testing
