// `hwsim run` mounts its tree from the tree cache (src/host/tree_cache.h): a
// program sees the same host whether the tree was just written, cached, or
// written without the cache, and a cache entry changed behind hwsim's back is
// refused and written anew. The run's plan comes from the plan cache beside it
// (src/host/run_plan_cache.h) only for the snapshot file as it was.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

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

// stderr without the lines about the run's own plan (cached or made anew), and
// the emulator log's folder (a fresh name each run) named alike.
std::string without_plan_notes(const std::string& err) {
  std::istringstream in(err);
  std::string out;
  for (std::string line; std::getline(in, line);)
    if (line.find("run plan") == std::string::npos && line.find("run's plan") == std::string::npos)
      out += std::regex_replace(line, std::regex("hwsim-emu-[A-Za-z0-9]{6}"), "hwsim-emu-X") +
             "\n";
  return out;
}

// A warm run reads its plan from the plan cache (not the snapshot's YAML nor its
// SHA-256) and gives what a run that makes the plan anew gives, byte for byte;
// a snapshot changed in any way (a byte with its size and mtime kept, its time
// touched, the file replaced) never gets the old plan; a corrupt plan is refused
// and made anew.
TEST(HwsimRunCache, AWarmPlanIsTheColdOneAndAChangedSnapshotNeverReusesIt) {
  if (!private_mounts_available()) GTEST_SKIP() << "no private mount namespace here";
  const std::string cache = fs::is_directory("/dev/shm")
                                ? "/dev/shm/hwsim-run-plan-test-" + std::to_string(::getpid())
                                : make_temp_dir() + "/cache";
  const std::string dir = make_temp_dir();
  const std::string host = dir + "/host.yaml";
  fs::copy_file(source_path("fixtures/hosts/gx10.yaml"), host);
  const std::string reader =
      "sh -c 'hostname; env | sort; cat /proc/cpuinfo | head -3; ls /sys/bus/pci/devices; "
      "nvidia-smi -L; test -c /dev/nvidia0 && echo char; test -e /.dockerenv; echo $?'";
  auto run = [&] {
    return run_command("HWSIM_TREE_CACHE=" + cache + " " + bin("hwsim") + " run -v " + host +
                       " -- " + reader);
  };
  auto cold = run();
  auto warm = run();
  ASSERT_EQ(cold.exit_code, 0) << cold.err;
  ASSERT_EQ(warm.exit_code, 0) << warm.err;
  EXPECT_EQ(cold.out.substr(0, 9), "gx10-lab\n");
  EXPECT_EQ(cold.err.find("the run's plan is the cached one"), std::string::npos) << cold.err;
  EXPECT_NE(warm.err.find("the run's plan is the cached one"), std::string::npos) << warm.err;
  EXPECT_EQ(warm.out, cold.out);
  // The plan made anew, the tree cached both times: the same bytes out, and the
  // same lines on stderr but the plan's own.
  for (const auto& e : fs::directory_iterator(cache + "/hwsim/plans")) fs::remove(e.path());
  auto anew = run();
  ASSERT_EQ(anew.exit_code, 0) << anew.err;
  EXPECT_EQ(anew.out, warm.out);
  EXPECT_EQ(anew.err.find("run plan"), std::string::npos) << anew.err;
  EXPECT_EQ(without_plan_notes(anew.err), without_plan_notes(warm.err));

  // One byte changed, the size and the mtime kept: the new hostname is seen.
  struct stat before {};
  ASSERT_EQ(::stat(host.c_str(), &before), 0);
  {
    std::fstream f(host, std::ios::in | std::ios::out | std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(f)), {});
    auto at = text.find("hostname: gx10-lab");
    ASSERT_NE(at, std::string::npos);
    f.seekp(static_cast<std::streamoff>(at + 16));
    f.put('b');
  }
  const timespec times[2] = {before.st_mtim, before.st_mtim};
  ASSERT_EQ(::utimensat(AT_FDCWD, host.c_str(), times, 0), 0);
  struct stat after {};
  ASSERT_EQ(::stat(host.c_str(), &after), 0);
  ASSERT_EQ(after.st_size, before.st_size);
  ASSERT_EQ(after.st_ino, before.st_ino);
  ASSERT_EQ(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
  auto changed = run();
  ASSERT_EQ(changed.exit_code, 0) << changed.err;
  EXPECT_EQ(changed.out.substr(0, 9), "gx10-lbb\n");
  EXPECT_NE(changed.err.find("the cached run plan is not used (the snapshot file changed"),
            std::string::npos)
      << changed.err;

  // Touched (the same bytes, another time): made anew, the same host.
  const timespec old_times[2] = {{1600000000, 0}, {1600000000, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, host.c_str(), old_times, 0), 0);
  auto touched = run();
  EXPECT_NE(touched.err.find("the cached run plan is not used"), std::string::npos)
      << touched.err;
  EXPECT_EQ(touched.out, changed.out);

  // Replaced by another file (rename over it): never the old file's plan.
  {
    std::ifstream in(host, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), {});
    text.replace(text.find("hostname: gx10-lbb"), 18, "hostname: gx10-lcc");
    write_text(dir + "/new.yaml", text);
  }
  fs::rename(dir + "/new.yaml", host);
  auto replaced = run();
  ASSERT_EQ(replaced.exit_code, 0) << replaced.err;
  EXPECT_EQ(replaced.out.substr(0, 9), "gx10-lcc\n");
  EXPECT_EQ(replaced.err.find("the run's plan is the cached one"), std::string::npos);

  // The cached plan of this file made garbage: refused, made anew, the same host.
  ASSERT_EQ(::stat(host.c_str(), &after), 0);
  const std::string entry = cache + "/hwsim/plans/" + std::to_string(after.st_dev) + "-" +
                            std::to_string(after.st_ino);
  ASSERT_TRUE(fs::exists(entry));
  {
    std::ifstream in(entry, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), {});
    text.replace(text.find("\nhostname ") + 10, 8, "evil-one");
    std::ofstream(entry, std::ios::binary | std::ios::trunc) << text;
  }
  auto corrupt = run();
  ASSERT_EQ(corrupt.exit_code, 0) << corrupt.err;
  EXPECT_NE(corrupt.err.find("is refused (cut short or changed"), std::string::npos)
      << corrupt.err;
  EXPECT_EQ(corrupt.out, replaced.out);
  auto again = run();
  EXPECT_NE(again.err.find("the run's plan is the cached one"), std::string::npos) << again.err;
  EXPECT_EQ(again.out, replaced.out);
  fs::remove_all(cache);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hwaccel::testing
