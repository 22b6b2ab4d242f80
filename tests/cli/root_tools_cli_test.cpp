// `--root DIR` means "this tree is the machine" (issue 35): a tool runs only
// where the tree has it (its program in the tree's PATH folders), or with
// --root-tools; otherwise the report says why it was not run. A live run skips
// vulkaninfo where no Vulkan driver manifest is; under --root the tree's
// manifests decide. A fake vulkaninfo and nvidia-smi on PATH leave a mark if run.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class RootTools : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = make_temp_dir();
    bin_ = dir_ + "/bin";
    mark_ = dir_ + "/ran";
    fs::create_directories(bin_);
    for (const char* tool : {"vulkaninfo", "nvidia-smi"}) {
      write_text(bin_ + "/" + tool,
                 "#!/bin/sh\necho " + std::string(tool) + " >> " + mark_ + "\nexit 1\n");
      ::chmod((bin_ + "/" + tool).c_str(), 0755);
    }
    tree_ = dir_ + "/tree";
    fs::create_directories(tree_ + "/proc");
    write_text(tree_ + "/proc/meminfo", "MemTotal:       16384000 kB\n");
  }
  void TearDown() override { fs::remove_all(dir_); }

  CommandResult detect(const std::string& flags) {
    return run_command("env -u VK_DRIVER_FILES -u VK_ICD_FILENAMES -u VK_ADD_DRIVER_FILES PATH=" +
                       bin_ + ":/usr/bin:/bin " + bin("hwaccel") +
                       " detect --json --only vulkan,cuda --root " + tree_ + " " + flags);
  }
  static std::string reason(const json& doc, const std::string& backend) {
    for (const auto& b : doc["backends"])
      if (b["name"] == backend && b["reason"].is_object())
        return b["reason"].value("detail", std::string());
    return "";
  }
  bool ran() const { return fs::exists(mark_); }

  std::string dir_, bin_, mark_, tree_;
};

// A gathered tree (only /proc): nothing says the machine has vulkaninfo or
// nvidia-smi, so neither of this machine's runs, and the reasons say so.
TEST_F(RootTools, ATreeWithoutTheToolsNeverRunsThisMachines) {
  auto r = detect("");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(ran()) << slurp(mark_).value_or("");
  json doc = json::parse(r.out);
  const std::string vulkan = reason(doc, "vulkan");
  EXPECT_NE(vulkan.find("vulkaninfo: not run: the tree has no vulkaninfo in its PATH folders"),
            std::string::npos)
      << vulkan;
  EXPECT_NE(vulkan.find("--root-tools"), std::string::npos) << vulkan;
}

// A tree with /usr and /etc but no Vulkan driver manifest: the tree says there
// is no driver, as a live run on that machine would (vulkaninfo not run), even
// with --root-tools (which may run this machine's nvidia-smi, never vulkaninfo).
TEST_F(RootTools, ATreeWithoutAVulkanManifestSaysSoAndRunsNothing) {
  fs::create_directories(tree_ + "/usr/share");
  fs::create_directories(tree_ + "/etc");
  for (const char* flags : {"", "--root-tools"}) {
    SCOPED_TRACE(flags);
    auto r = detect(flags);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    json doc = json::parse(r.out);
    const std::string vulkan = reason(doc, "vulkan");
    EXPECT_NE(vulkan.find("no Vulkan driver manifest"), std::string::npos) << vulkan;
    EXPECT_NE(vulkan.find("vulkaninfo not run"), std::string::npos) << vulkan;
  }
  EXPECT_EQ(slurp(mark_).value_or("").find("vulkaninfo"), std::string::npos);
}

// The tree has the program (a manifest and vulkaninfo in its /usr/bin): then
// it runs (this machine's, from PATH). --root-tools runs this machine's tools
// on a tree that has none.
TEST_F(RootTools, TheTreesOwnToolOrTheFlagRunsIt) {
  fs::create_directories(tree_ + "/usr/bin");
  fs::create_directories(tree_ + "/usr/share/vulkan/icd.d");
  write_text(tree_ + "/usr/share/vulkan/icd.d/nvidia_icd.json",
             "{\"file_format_version\": \"1.0.0\", \"ICD\": {\"library_path\": "
             "\"libGLX_nvidia.so.0\", \"api_version\": \"1.3.277\"}}");
  write_text(tree_ + "/usr/bin/vulkaninfo", "");
  auto r = detect("");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(slurp(mark_).value_or(""), "vulkaninfo\n");
  fs::remove(mark_);
  fs::remove_all(tree_ + "/usr");
  r = detect("--root-tools");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(slurp(mark_).value_or("").find("vulkaninfo"), std::string::npos);
}

TEST_F(RootTools, RootToolsNeedsRoot) {
  for (const char* command : {"detect", "devices", "export nfd", "plan --model Llama-3-8B",
                              "train --model Llama-3-8B", "io --dataset 1G"})
    EXPECT_EQ(run_command(bin("hwaccel") + " " + command + " --root-tools").exit_code, 2)
        << command;
}

// Every command that reads a --root tree keeps to it the same way: this machine's
// tools run on a tree without them only with --root-tools.
TEST_F(RootTools, EveryCommandOnATreeRunsItsToolsOnlyWithTheFlag) {
  for (const char* command :
       {"devices", "export nfd", "plan --model Llama-3-8B", "train --model Llama-3-8B"}) {
    SCOPED_TRACE(command);
    const std::string run =
        "env -u VK_DRIVER_FILES -u VK_ICD_FILENAMES -u VK_ADD_DRIVER_FILES "
        "PATH=" +
        bin_ + ":/usr/bin:/bin " + bin("hwaccel") + " " + command + " --root " + tree_;
    auto without = run_command(run);
    EXPECT_FALSE(ran()) << without.err;
    auto with = run_command(run + " --root-tools");
    EXPECT_TRUE(ran()) << with.err;
    EXPECT_EQ(with.exit_code, without.exit_code) << with.err;
    fs::remove(mark_);
  }
  // A cached detection of a run without the flag is not one with it.
  const std::string cached = "env XDG_CACHE_HOME=" + dir_ + "/cache PATH=" + bin_ +
                             ":/usr/bin:/bin " + bin("hwaccel") + " devices --cache 1h --root " +
                             tree_;
  run_command(cached);
  EXPECT_FALSE(ran());
  run_command(cached + " --root-tools");
  EXPECT_TRUE(ran()) << "--root-tools was answered from the cache of a run without it";
  auto io = run_command(bin("hwaccel") + " io --dataset 1G --root " + tree_ + " --root-tools");
  EXPECT_NE(io.exit_code, 2) << io.err;  // accepted (io runs no accelerator tool)
}

}  // namespace
}  // namespace hwaccel::testing
