// `hwsim check DIR` passes for any spelling of DIR (the goldens name the
// snapshot by the folder's last two names), and `--update` writes only inside
// DIR: a NAME.expected or a golden that is a link is refused, not written through.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

namespace fs = std::filesystem;

TEST(CheckPathsCli, TheFixturesPassFromAnywhereUnderAnySpelling) {
  // The whole corpus, by its absolute name, from another working folder.
  auto all = run_command("cd / && " + bin("hwsim") + " check --jobs 2 " +
                         source_path("fixtures/hosts") + "/");
  EXPECT_EQ(all.exit_code, 0) << all.out;
  EXPECT_NE(all.out.find(" passed, 0 failed\n"), std::string::npos) << all.out;

  // One fixture in a copy elsewhere, named in every way.
  const std::string copy = make_temp_dir();
  const std::string hosts = copy + "/fixtures/hosts";
  fs::create_directories(hosts);
  fs::copy(source_path("fixtures/hosts/cpu-only.yaml"), hosts + "/cpu-only.yaml");
  fs::copy(source_path("fixtures/hosts/cpu-only.expected"), hosts + "/cpu-only.expected",
           fs::copy_options::recursive);
  for (const std::string& spelled : {
           "cd " + copy + " && " + bin("hwsim") + " check fixtures/hosts",
           "cd " + copy + " && " + bin("hwsim") + " check ./fixtures/hosts/",
           "cd " + copy + "/fixtures && " + bin("hwsim") + " check hosts",
           "cd " + hosts + " && " + bin("hwsim") + " check .",
           "cd " + hosts + " && " + bin("hwsim") + " check ../hosts//",
           "cd / && " + bin("hwsim") + " check " + hosts,
           "cd / && " + bin("hwsim") + " check " + copy + "/fixtures/../fixtures/./hosts",
       }) {
    auto r = run_command(spelled);
    EXPECT_EQ(r.exit_code, 0) << spelled << "\n" << r.out;
    EXPECT_NE(r.out.find("1 passed, 0 failed\n"), std::string::npos) << spelled << "\n" << r.out;
  }
}

TEST(CheckPathsCli, UpdateDoesNotWriteThroughLinks) {
  const std::string dir = make_temp_dir(), canary = make_temp_dir();
  write_text(canary + "/detect.txt", "the canary's own file\n");
  ASSERT_EQ(run_command(bin("hwsim") + " synth --preset cpu-only -o " + dir + "/a.yaml").exit_code,
            0);
  ASSERT_EQ(run_command(bin("hwsim") + " synth --preset gx10 -o " + dir + "/b.yaml").exit_code, 0);
  // a.expected is a link to a folder outside DIR; b.expected/detect.txt a link to a file there.
  ASSERT_EQ(::symlink(canary.c_str(), (dir + "/a.expected").c_str()), 0);
  ::mkdir((dir + "/b.expected").c_str(), 0755);
  ASSERT_EQ(::symlink((canary + "/detect.txt").c_str(), (dir + "/b.expected/detect.txt").c_str()),
            0);

  auto r = run_command(bin("hwsim") + " check --update " + dir);
  EXPECT_EQ(r.exit_code, 10) << r.out;
  EXPECT_NE(r.out.find("FAIL a: cannot update " + dir + "/a.expected/"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(dir + "/a.expected is a symbolic link"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(dir + "/b.expected/detect.txt is a symbolic link"), std::string::npos)
      << r.out;
  // Outside DIR nothing changed and nothing was added.
  EXPECT_EQ(slurp(canary + "/detect.txt").value_or(""), "the canary's own file\n");
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(canary)) ++entries;
  EXPECT_EQ(entries, 1) << "files were written into the folder the link points at";
  EXPECT_TRUE(fs::is_symlink(dir + "/a.expected"));
  EXPECT_TRUE(fs::is_symlink(dir + "/b.expected/detect.txt"));
  // b's other goldens, real files inside DIR, were written.
  EXPECT_TRUE(fs::is_regular_file(dir + "/b.expected/devices.txt"));
}

}  // namespace
}  // namespace hwaccel::testing
