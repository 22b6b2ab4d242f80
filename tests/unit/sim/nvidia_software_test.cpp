// Whether a recorded host had NVIDIA's libraries to load, on the fixture hosts and
// on snapshots that say so in one way only.
#include "sim/nvidia_software.h"

#include <gtest/gtest.h>

#include "src/host/snapshot_host.h"
#include "tests/support/test_support.h"

namespace hwaccel::sim {
namespace {

Snapshot fixture(const std::string& name) {
  auto loaded =
      load_snapshot_file(hwaccel::testing::source_path("fixtures/hosts/" + name + ".yaml"));
  EXPECT_TRUE(loaded.snapshot) << name;
  return loaded.snapshot ? *loaded.snapshot : Snapshot{};
}

TEST(NvidiaSoftware, HostsWithTheDriverOrItsToolsHaveTheLibraries) {
  // A working driver; and a box whose nvidia-smi runs but finds no driver (its
  // libnvidia-ml loads and answers "driver not loaded").
  for (const char* host : {"dgx-h100", "gx10", "nvidia-no-driver", "nvidia-mismatch"})
    EXPECT_TRUE(nvidia_software(fixture(host)).present) << host;
}

TEST(NvidiaSoftware, HostsWithoutNvidiaSoftwareHaveNoLibraryToLoad) {
  // An NVIDIA GPU on the bus but nvidia-smi recorded as not found; AMD and Apple hosts.
  for (const char* host : {"vulkan-desktop", "strix-halo", "mi300x-8", "cpu-only"}) {
    auto found = nvidia_software(fixture(host));
    EXPECT_FALSE(found.present) << host << ": " << found.why;
  }
}

TEST(NvidiaSoftware, EachTraceAloneSaysTheSoftwareIsThere) {
  Snapshot module;
  module.files["/sys/module/nvidia/version"] = FileEntry{};
  EXPECT_TRUE(nvidia_software(module).present);
  Snapshot proc;
  proc.files["/proc/driver/nvidia/version"] = FileEntry{};
  EXPECT_TRUE(nvidia_software(proc).present);
  Snapshot library;
  library.files["/usr/lib/x86_64-linux-gnu/libcuda.so.1"] = FileEntry{};
  EXPECT_TRUE(nvidia_software(library).present);
  Snapshot looked_up;  // looked up and not there
  FileEntry absent;
  absent.kind = FileEntry::Kind::absent;
  looked_up.files["/proc/driver/nvidia"] = absent;
  looked_up.files["/sys/module/nvidia/version"] = absent;
  looked_up.files["/usr/lib/x86_64-linux-gnu/libcuda.so.1"] = absent;
  EXPECT_FALSE(nvidia_software(looked_up).present);
  Snapshot missing;
  ToolEntry not_found;
  not_found.run.outcome = ToolOutcome::not_found;
  missing.tools[{"nvidia-smi", "-L"}] = not_found;
  EXPECT_FALSE(nvidia_software(missing).present);
  ToolEntry failed;
  failed.run.exit_code = 9;
  missing.tools[{"nvidia-smi"}] = failed;
  EXPECT_TRUE(nvidia_software(missing).present) << "one run found it";
  // hwaccel detect's NVML path runs no nvidia-smi: its helper's document says
  // whether libnvidia-ml.so.1 loaded.
  Snapshot helper;
  ToolEntry loaded;
  loaded.run.out = R"({"hwaccel_nvml": 1, "status": "init_failed", "errors": []})";
  helper.tools[{"/usr/libexec/hwaccel/hwaccel-nvml"}] = loaded;
  EXPECT_TRUE(nvidia_software(helper).present);
  ToolEntry no_library;
  no_library.run.out = R"({"hwaccel_nvml": 1, "status": "no_library", "detail": "x"})";
  helper.tools[{"/usr/libexec/hwaccel/hwaccel-nvml"}] = no_library;
  EXPECT_FALSE(nvidia_software(helper).present);
  no_library.run.out = "garbage";
  helper.tools[{"/usr/libexec/hwaccel/hwaccel-nvml"}] = no_library;
  EXPECT_FALSE(nvidia_software(helper).present);
  // Names that only look alike are not NVIDIA's.
  Snapshot alike;
  alike.files["/sys/module/nvidia_uvm_fake"] = FileEntry{};
  alike.files["/proc/driver/nvidiafoo"] = FileEntry{};
  EXPECT_FALSE(nvidia_software(alike).present);
  alike.files["/sys/module/nvidia-x"] = FileEntry{};  // sorts before "nvidia/"
  alike.files["/sys/module/nvidia/version"] = FileEntry{};
  EXPECT_TRUE(nvidia_software(alike).present);
}

}  // namespace
}  // namespace hwaccel::sim
