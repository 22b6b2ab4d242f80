// `hwsim run` mounts its tree from the tree cache (src/host/tree_cache.h): a
// program sees the same host whether the tree was just written, cached, or
// written without the cache, and a cache entry changed behind hwsim's back is
// refused and written anew.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "src/host/sandbox_runner.h"
#include "tests/cli/cli_test_util.h"

namespace hwaccel::testing {
namespace {

namespace fs = std::filesystem;

TEST(HwsimRunCache, ColdWarmAndUncachedRunsSeeTheSameHost) {
  if (!private_mounts_available()) GTEST_SKIP() << "no private mount namespace here";
  // In memory where there is /dev/shm: a tree on a busy disk costs seconds to write.
  const std::string cache = fs::is_directory("/dev/shm")
                                ? "/dev/shm/hwsim-run-cache-test-" + std::to_string(::getpid())
                                : make_temp_dir() + "/cache";
  const std::string reader =
      "sh -c 'cat /sys/devices/system/cpu/online /proc/cpuinfo | head -3; "
      "ls /sys/bus/pci/devices; test -c /dev/nvidia0 && echo char; nvidia-smi -L; "
      "test -c /dev/null && echo null is a device; "
      "echo $HWSIM_ROOT | grep -c /hwsim/trees/'";
  const std::string run =
      bin("hwsim") + " run " + source_path("fixtures/hosts/gx10.yaml") + " -- " + reader;
  auto uncached = run_command("HWSIM_TREE_CACHE=off " + run);
  auto cold = run_command("HWSIM_TREE_CACHE=" + cache + " " + run);
  auto warm = run_command("HWSIM_TREE_CACHE=" + cache + " " + run + "");
  ASSERT_EQ(cold.exit_code, 0) << cold.err;
  ASSERT_EQ(warm.exit_code, 0) << warm.err;
  // Only the last line differs: where the tree is (1: in the cache).
  auto body = [](const std::string& out) { return out.substr(0, out.rfind('\n', out.size() - 2)); };
  EXPECT_EQ(body(cold.out), body(uncached.out));
  EXPECT_EQ(warm.out, cold.out);
  EXPECT_NE(cold.out.find("char\n"), std::string::npos) << cold.out;
  // This machine's /dev/null in the simulated /dev (not a placeholder file), and the
  // tree's shims found where the cache is (/dev/shm, below the simulated /dev too).
  EXPECT_NE(cold.out.find("null is a device\n"), std::string::npos) << cold.out;
  EXPECT_NE(cold.out.find("GPU 0: NVIDIA GB10"), std::string::npos) << cold.out;
  EXPECT_EQ(cold.out.substr(cold.out.size() - 2), "1\n");
  EXPECT_EQ(uncached.out.substr(uncached.out.size() - 2), "0\n");

  // A file planted at the top of a folder of the entry: refused, written anew.
  std::string entry;
  for (const auto& e : fs::directory_iterator(cache + "/hwsim/trees"))
    if (e.is_directory() && e.path().filename().string()[0] != '.') entry = e.path();
  ASSERT_FALSE(entry.empty());
  std::ofstream(entry + "/sys/planted") << "x\n";
  auto again = run_command("HWSIM_TREE_CACHE=" + cache + " " + run);
  EXPECT_NE(again.err.find("is refused (the entry is its sys changed"), std::string::npos)
      << again.err;
  EXPECT_EQ(again.out, cold.out);
  EXPECT_FALSE(fs::exists(entry + "/sys/planted"));
  fs::remove_all(cache);
}

}  // namespace
}  // namespace hwaccel::testing
