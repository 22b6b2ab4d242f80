// End to end: a shell that sources a materialized tree's env.sh, outside any
// namespace, loads the simulated vendor libraries as `hwsim run` presents them:
// the snapshot's GPUs through libnvidia-ml.so.1, the simulated Vulkan driver (or
// none), and no simulated NVML where the host had no NVIDIA software.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "tests/cli/cli_test_util.h"
#include "tests/support/sanitized.h"

namespace hwaccel::testing {
namespace {

namespace fs = std::filesystem;

// Where hwsim was built, as it names itself (/proc/self/exe): the simulated
// libraries lie beside it.
std::string bin_dir() {
  return fs::canonical(fs::path(bin("hwsim")).parent_path()).string();
}

struct Tree {
  fs::path path;
  explicit Tree(const std::string& host) {
    path = fs::temp_directory_path() /
           ("hwsim-materialize-libraries-" + host + "-" + std::to_string(::getpid()));
    fs::remove_all(path);
    auto m = run_command(bin("hwsim") + " materialize " +
                         source_path("fixtures/hosts/" + host + ".yaml") + " " + path.string());
    EXPECT_EQ(m.exit_code, 0) << m.err;
  }
  ~Tree() { fs::remove_all(path); }
  // `script` run by sh after sourcing env.sh, with this machine's HWSIM_*
  // variables out of the way.
  CommandResult in_shell(const std::string& script) const {
    const std::string file = path.string() + ".sh";  // beside the tree: quotes stay as written
    write_text(file, ". " + path.string() + "/.hwsim/env.sh && " + script + "\n");
    auto r = run_command("env -u HWSIM_NVML_SNAPSHOT -u HWSIM_CUDA_SNAPSHOT sh " + file);
    fs::remove(file);
    return r;
  }
};

// nvmlInit_v2 and nvmlDeviceGetCount_v2 through ctypes: dlopen, as any NVML client.
constexpr const char* kNvmlCount =
    "python3 -c 'import ctypes; l = ctypes.CDLL(\"libnvidia-ml.so.1\"); c = ctypes.c_uint(); "
    "print(l.nvmlInit_v2(), l.nvmlDeviceGetCount_v2(ctypes.byref(c)), c.value)'";

TEST(HwsimMaterializeLibraries, EnvShGivesAShellTheSnapshotsGpusThroughNvml) {
  Tree tree("gx10");
  auto root = tree.in_shell("printf %s \"$HWSIM_ROOT\"");
  EXPECT_EQ(root.out, tree.path.string());
  // The shell finds the simulated library first on its search path...
  auto found = tree.in_shell(
      "IFS=:; for d in $LD_LIBRARY_PATH; do [ -e \"$d/libnvidia-ml.so.1\" ] && "
      "{ printf %s \"$d\"; break; }; done");
  EXPECT_EQ(found.out, bin_dir()) << found.err;
  // ...and a client that loads it sees the snapshot's GPU. Python is not built
  // with ASan, so it cannot load the sanitized library: release build only.
  if (kSanitized) GTEST_SKIP() << "python3 cannot load an ASan-built libnvidia-ml.so.1";
  auto r = tree.in_shell(kNvmlCount);
  EXPECT_EQ(r.out, "0 0 1\n") << r.err;
}

TEST(HwsimMaterializeLibraries, EnvShPointsTheVulkanLoaderAtTheHostsDriverOrNone) {
  Tree without("cpu-only");  // no Vulkan driver recorded
  auto none = without.in_shell("printf '%s|%s' \"$VK_DRIVER_FILES\" \"$VK_LOADER_LAYERS_DISABLE\"");
  EXPECT_EQ(none.out, without.path.string() + "/.hwsim/no-vulkan-driver.json|~implicit~");
  if (!fs::exists(bin_dir() + "/hwsim_vulkan_icd.json"))
    GTEST_SKIP() << "built without the simulated Vulkan driver";
  Tree with("vulkan-desktop");
  auto drivers = with.in_shell(
      "VK_ADD_DRIVER_FILES=x; printf '%s|%s' \"$VK_DRIVER_FILES\" "
      "\"${VK_ADD_DRIVER_FILES-unset}\"");
  EXPECT_EQ(drivers.out, bin_dir() + "/hwsim_vulkan_icd.json|x")
      << "the manifest beside hwsim; a variable set after sourcing is the user's";
}

TEST(HwsimMaterializeLibraries, AHostWithoutNvidiaSoftwareGetsNoSimulatedNvml) {
  Tree tree("strix-halo");
  auto path = tree.in_shell("printf %s \"${LD_LIBRARY_PATH-}\"");
  EXPECT_EQ(path.out.find(bin_dir()), std::string::npos) << path.out;
  auto env_sh = run_command("cat " + tree.path.string() + "/.hwsim/env.sh");
  EXPECT_NE(env_sh.out.find("the host had no NVIDIA software"), std::string::npos) << env_sh.out;
}

}  // namespace
}  // namespace hwaccel::testing
