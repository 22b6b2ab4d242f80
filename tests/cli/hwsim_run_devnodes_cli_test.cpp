// Issue 31: a snapshot's device nodes reach no driver of this machine. For every
// fixture host, every character device the simulated /dev holds is opened inside
// `hwsim run`: each is a character device (programs that check the type still see
// one) whose numbers are /dev/null's, reads end at once and writes go nowhere.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
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
