// `hwsim run` shares the CPU topology between trees (src/host/tree_layers.h): two
// snapshots of one machine that differ in a file store one layer, each command
// sees its own file, and what a command sees of the layer (link counts, modes,
// bytes, writes that stay its own) is what a tree written whole shows.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "src/host/sandbox_runner.h"
#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

namespace fs = std::filesystem;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(HwsimRunLayers, TwoVariantsShareOneCpuLayerAndEachSeesItsOwnFile) {
  if (!private_mounts_available()) GTEST_SKIP() << "no private mount namespace here";
  const std::string cache = fs::is_directory("/dev/shm")
                                ? "/dev/shm/hwsim-run-layers-test-" + std::to_string(::getpid())
                                : make_temp_dir() + "/cache";
  const std::string dir = make_temp_dir();
  // A second DGX H100 whose driver version file alone differs.
  std::string yaml = slurp(source_path("fixtures/hosts/dgx-h100.yaml"));
  const std::string line =
      "/proc/driver/nvidia/version: \"NVRM version: NVIDIA UNIX x86_64 Kernel Module  ";
  const auto at = yaml.find(line);
  ASSERT_NE(at, std::string::npos);
  ASSERT_EQ(yaml.compare(at + line.size(), 9, "550.54.15"), 0);
  std::ofstream(dir + "/a.yaml") << yaml;
  yaml.replace(at + line.size(), 9, "550.99.99");
  std::ofstream(dir + "/b.yaml") << yaml;
  // The driver's file; link counts, modes and sizes of the CPU folders and the
  // ones above them; a CPU's files; a write into the layer (the run's own).
  const std::string reader =
      "sh -c 'head -c 60 /proc/driver/nvidia/version; echo; "
      "stat -c \"%n %h %a %F\" /sys /sys/devices /sys/devices/system /sys/devices/system/cpu "
      "/sys/devices/system/cpu/cpu7 /sys/devices/system/cpu/cpu7/cache; "
      "ls -l /sys/devices/system/cpu | wc -l; cat /sys/devices/system/cpu/online; "
      "find /sys/devices/system/cpu/cpu7 | sort | head -20; "
      "echo 0 > /sys/devices/system/cpu/cpu7/online && cat /sys/devices/system/cpu/cpu7/online'";
  auto run = [&](const std::string& host, const std::string& where) {
    return run_command("HWSIM_TREE_CACHE=" + where + " " + bin("hwsim") + " run " + dir + "/" +
                       host + " -- " + reader);
  };
  auto whole = run("a.yaml", "off");
  auto a = run("a.yaml", cache);
  auto b = run("b.yaml", cache);
  auto a_warm = run("a.yaml", cache);
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(a.out, whole.out);
  EXPECT_EQ(a_warm.out, whole.out) << "the write stayed in the run that made it";
  EXPECT_NE(a.out.find("550.54.15"), std::string::npos) << a.out;
  EXPECT_NE(b.out.find("550.99.99"), std::string::npos) << b.out;
  EXPECT_EQ(b.out.substr(b.out.find('\n')), a.out.substr(a.out.find('\n')));

  // Three entries: the two trees and the one layer both their seals name.
  const std::string trees = cache + "/hwsim/trees";
  std::set<std::string> entries, named;
  for (const auto& e : fs::directory_iterator(trees)) {
    const std::string name = e.path().filename();
    if (name[0] == '.') continue;
    if (e.is_directory()) entries.insert(name);
    if (name.size() > 5 && name.substr(name.size() - 5) == ".seal") {
      std::istringstream seal(slurp(e.path()));
      for (std::string l; std::getline(seal, l);)
        if (l.rfind("layer ", 0) == 0) named.insert(l.substr(6, 64));
    }
  }
  EXPECT_EQ(entries.size(), 3u);
  ASSERT_EQ(named.size(), 1u);
  const std::string layer = trees + "/" + *named.begin();
  EXPECT_TRUE(fs::is_directory(layer + "/tree/cpu7"));
  EXPECT_EQ(slurp(layer + "/tree/cpu7/online"), "1\n") << "never written through";
  fs::remove_all(cache);
}

}  // namespace
}  // namespace hwaccel::testing
