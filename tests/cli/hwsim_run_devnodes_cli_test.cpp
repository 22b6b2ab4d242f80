// Issue 31: a snapshot's device nodes reach no driver of this machine. For every
// fixture host, every character device the simulated /dev holds is opened inside
// `hwsim run`: each is a character device (programs that check the type still see
// one) whose numbers are /dev/null's, reads end at once and writes go nowhere.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <set>
#include <sstream>

#include "src/host/sandbox_runner.h"
#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

namespace fs = std::filesystem;

class HwsimRunDevNodes : public ::testing::TestWithParam<std::string> {};

TEST_P(HwsimRunDevNodes, EverySimulatedNodeReachesNothing) {
  if (!private_mounts_available()) GTEST_SKIP() << "no private mount namespace here";
  const std::string host = source_path("fixtures/hosts/" + GetParam() + ".yaml");
  const std::string dir = make_temp_dir();
  // Inside the run: the recorded character devices, as the run's own tree lists
  // them ($HWSIM_ROOT/.hwsim/special, what `hwsim materialize` writes too: read
  // there, not from a second tree written to disk, which cost seconds of system
  // time per host); then each character device but the few every program needs
  // (this machine's own), not descending into /dev/shm (the tree itself may be
  // there, its /dev with it); by stat, not find's -type (readdir gives the type
  // of what a bind covers): its numbers, the bytes a read gives, and whether a
  // write is taken.
  const std::string script =
      "awk -F '\\t' '$1 ~ /^\\/dev\\// && index($2, \"char node:\") == 1 { print \"R \" $1 }' "
      "\"$HWSIM_ROOT/.hwsim/special\"; "
      "echo \"S $(wc -l <\"$HWSIM_ROOT/.hwsim/special\")\"; "
      "find /dev \\( -path /dev/shm -o -path /dev/pts \\) -prune -o -print | sort | while read -r "
      "n; do "
      "case $n in /dev/null|/dev/zero|/dev/full|/dev/random|/dev/urandom|/dev/tty) continue;; "
      "esac; "
      "if [ -L \"$n\" ] || ! [ -c \"$n\" ]; then continue; fi; "
      "printf '%s %s %s ' \"$n\" \"$(stat -L -c %t:%T \"$n\")\" \"$(head -c 64 \"$n\" | wc -c)\"; "
      "if printf x >\"$n\" 2>/dev/null; then echo w; else echo -; fi; done";
  write_text(dir + "/nodes.sh", script);
  auto r = run_command(bin("hwsim") + " run " + host + " -- sh " + dir + "/nodes.sh");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::set<std::string> seen, recorded;
  long special_lines = 0;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("R /dev/", 0) == 0) {
      recorded.insert(line.substr(2));
      continue;
    }
    if (line.rfind("S ", 0) == 0) {
      special_lines = std::atol(line.c_str() + 2);
      continue;
    }
    std::istringstream words(line);
    std::string path, numbers, bytes, wrote;
    words >> path >> numbers >> bytes >> wrote;
    seen.insert(path);
    EXPECT_EQ(numbers, "1:3") << path << ": not /dev/null's numbers (a driver's?)";
    EXPECT_EQ(bytes, "0") << path << ": a read gave bytes";
  }
  EXPECT_GT(special_lines, 0) << "the run's tree lists no special files: " << r.err;
  for (const auto& node : recorded)
    EXPECT_TRUE(seen.count(node)) << node << " is not a char device";
  fs::remove_all(dir);
}

// Both ways of making them give the command the same /dev: as root the nodes are
// made (mknodat: no mount each, none listed in mountinfo); in a user namespace
// (`unshare -U -r`: no CAP_MKNOD in the initial one) mknodat is refused and this
// machine's devices are bound in instead, as before. Each node, and the basic
// devices, has this machine's numbers and mode either way.
TEST(HwsimRunDevNodesWays, MadeAsRootBoundInAUserNamespace) {
  if (!private_mounts_available()) GTEST_SKIP() << "no private mount namespace here";
  const std::string host = source_path("fixtures/hosts/dgx-h100.yaml");
  const std::string script =
      "sh -c 'for n in /dev/nvidia0 /dev/nvidiactl /dev/nvidia-uvm /dev/null /dev/zero "
      "/dev/full /dev/random /dev/urandom /dev/tty; do stat -L -c \"%n %F %t:%T %a\" $n; done; "
      "head -c 4 /dev/zero | wc -c; head -c 4 /dev/nvidia0 | wc -c; "
      "grep -c \" /dev/nvidia0 \" /proc/self/mountinfo'";
  auto expected = [](const std::string& nodes_in_mountinfo) {
    std::string out;
    for (const char* n : {"/dev/nvidia0", "/dev/nvidiactl", "/dev/nvidia-uvm"})
      out += std::string(n) + " character special file 1:3 666\n";
    for (const char* n : {"null", "zero", "full", "random", "urandom", "tty"}) {
      struct stat st {};
      if (::stat((std::string("/dev/") + n).c_str(), &st) != 0) continue;
      char line[128];
      std::snprintf(line, sizeof line, "/dev/%s character special file %x:%x %o\n", n,
                    major(st.st_rdev), minor(st.st_rdev), st.st_mode & 07777);
      out += line;
    }
    return out + "4\n0\n" + nodes_in_mountinfo + "\n";
  };
  auto root = run_command(bin("hwsim") + " run -v " + host + " -- " + script);
  ASSERT_FALSE(root.out.empty()) << root.err;
  if (::geteuid() == 0 && root.err.find("device node(s): made (mknod)") != std::string::npos) {
    EXPECT_EQ(root.out, expected("0")) << root.err;
    EXPECT_EQ(root.err.find("bound in"), std::string::npos) << root.err;
  }
  auto user = run_command("unshare -U -r " + bin("hwsim") + " run -v " + host + " -- " + script);
  if (user.out.empty() || user.err.find("no private mount namespace") != std::string::npos)
    GTEST_SKIP() << "no user namespace with mounts here: " << user.err;
  EXPECT_EQ(user.out, expected("1")) << user.err;
  EXPECT_NE(user.err.find("16 device node(s): each this machine's /dev/null bound in (a "
                          "character device 1:3 that reaches no driver), not the driver's "
                          "numbers (not made: mknod /dev/"),
            std::string::npos)
      << user.err;
}

std::vector<std::string> fixture_names() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(source_path("fixtures/hosts")))
    if (e.path().extension() == ".yaml") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, HwsimRunDevNodes, ::testing::ValuesIn(fixture_names()),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

}  // namespace
}  // namespace hwaccel::testing
