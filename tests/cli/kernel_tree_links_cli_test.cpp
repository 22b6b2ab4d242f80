// `plan --kernels DIR --record-tree FILE` reads DIR and nothing else: a link in
// the tree to a folder (or a file) elsewhere is not followed, so nothing of
// the user's (~/credentials.toml) reaches the snapshot that is shared.
#include <gtest/gtest.h>
#include <unistd.h>

#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

constexpr const char* kToken = "hwaccel-canary-token-7c1e99";

TEST(KernelTreeLinksCli, RecordTreeNeverLeavesTheTree) {
  const std::string work = make_temp_dir();
  const std::string tree = work + "/kernels", canary = work + "/home";
  ASSERT_EQ(run_command("cp -r " + source_path("fixtures/kernels") + " " + tree).exit_code, 0);
  ::mkdir(canary.c_str(), 0700);
  write_text(canary + "/credentials.toml", std::string("token = \"") + kToken + "\"\n");
  // A folder link at the top and in a subfolder, and a file link.
  ASSERT_EQ(::symlink(canary.c_str(), (tree + "/home").c_str()), 0);
  ASSERT_EQ(::symlink("../../home", (tree + "/sm90/up").c_str()), 0);
  ASSERT_EQ(::symlink((canary + "/credentials.toml").c_str(), (tree + "/sm90/creds.toml").c_str()),
            0);
  const std::string snap = work + "/tree.yaml";
  const std::string args = " --kernels " + tree + " --hardware h100-sxm --model Llama-3.1-8B";
  auto r = run_command(bin("hwaccel") + " plan" + args + " --record-tree " + snap);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto text = slurp(snap);
  ASSERT_TRUE(text) << r.err;
  EXPECT_EQ(text->find(kToken), std::string::npos) << "the canary's token is in the snapshot";
  EXPECT_EQ(text->find("credentials.toml"), std::string::npos);
  EXPECT_NE(text->find("sm90/HARDWARE.toml"), std::string::npos) << "the tree itself is recorded";
  for (const std::string& link : {tree + "/home", tree + "/sm90/up", tree + "/sm90/creds.toml"})
    EXPECT_NE(r.err.find("note: --kernels " + link + ": a symbolic link, not followed"),
              std::string::npos)
        << r.err;
  // The plan from the recording is the plan of the tree, links left out alike.
  auto live = run_command(bin("hwaccel") + " plan" + args);
  auto replay = run_command(bin("hwaccel") + " plan --host " + snap + args);
  EXPECT_EQ(replay.exit_code, live.exit_code) << replay.err;
  EXPECT_EQ(replay.out, live.out);
}

}  // namespace
}  // namespace hwaccel::testing
