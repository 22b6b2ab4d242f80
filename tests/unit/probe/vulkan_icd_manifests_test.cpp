// Where the Vulkan loader would look for a driver manifest, and what the probe
// does when there is none: on a machine, on a new recording and on a recording
// made before the probe looked.
#include "src/probe/vulkan_icd_manifests.h"

#include <gtest/gtest.h>

#include "src/probe/vulkan_probe.h"
#include "tests/support/test_support.h"
#include "tests/unit/probe/snapshot_builder.h"

namespace hwaccel {
namespace {

using testing::FakeHost;
using testing::SnapshotBuilder;

const std::vector<std::string> kVulkaninfo = {"vulkaninfo", "--summary"};

// A manifest as Mesa and Google ship them.
std::string manifest(const std::string& library, const std::string& api = "1.3.230") {
  return "{\n    \"ICD\": {\n        \"api_version\": \"" + api +
         "\",\n        \"library_path\": \"" + library +
         "\"\n    },\n    \"file_format_version\": \"1.0.0\"\n}";
}

// A machine: every path has an answer, ENOENT means not there.
FakeHost machine() {
  FakeHost h;
  h.knows_everything = true;
  h.environment["HOME"] = "/root";
  return h;
}

TEST(VulkanIcdManifests, SearchesTheLoadersFoldersInItsOrder) {
  auto h = machine();
  auto s = find_vulkan_icd_manifests(h);
  EXPECT_EQ(s.result, IcdSearchResult::none);
  EXPECT_EQ(s.variable, "");
  EXPECT_EQ(s.places, (std::vector<std::string>{
                          "/root/.config/vulkan/icd.d", "/etc/xdg/vulkan/icd.d",
                          "/usr/local/etc/vulkan/icd.d", "/etc/vulkan/icd.d",
                          "/root/.local/share/vulkan/icd.d", "/usr/local/share/vulkan/icd.d",
                          "/usr/share/vulkan/icd.d", "/run/opengl-driver/share/vulkan/icd.d"}));
  EXPECT_EQ(no_icd_manifest_reason(s),
            "no Vulkan driver manifest (ICD *.json) in /usr/share/vulkan/icd.d, "
            "/etc/vulkan/icd.d or 6 other folders the loader searches (vulkaninfo not run)");
}

TEST(VulkanIcdManifests, AManifestInAnyFolderIsFound) {
  for (const char* path :
       {"/usr/share/vulkan/icd.d/nvidia_icd.json", "/etc/vulkan/icd.d/nvidia_icd.json",
        "/root/.local/share/vulkan/icd.d/mine.json",
        "/run/opengl-driver/share/vulkan/icd.d/radeon_icd.x86_64.json"}) {
    auto h = machine();
    h.files[path] = "{}";
    EXPECT_EQ(find_vulkan_icd_manifests(h).result, IcdSearchResult::found) << path;
  }
}

TEST(VulkanIcdManifests, OnlyJsonFilesAreManifests) {
  auto h = machine();
  h.files["/usr/share/vulkan/icd.d/README"] = "";
  h.files["/usr/share/vulkan/icd.d/.json"] = "";
  EXPECT_EQ(find_vulkan_icd_manifests(h).result, IcdSearchResult::none);
}

TEST(VulkanIcdManifests, XdgVariablesReplaceTheirDefaults) {
  auto h = machine();
  h.environment["XDG_DATA_DIRS"] = "/opt/share::/var/lib/flatpak/exports/share";
  h.files["/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"] = "{}";
  auto s = find_vulkan_icd_manifests(h);
  EXPECT_EQ(s.result, IcdSearchResult::none);  // /usr/share is no longer searched
  EXPECT_EQ(std::count(s.places.begin(), s.places.end(), "/opt/share/vulkan/icd.d"), 1);
  h.files["/var/lib/flatpak/exports/share/vulkan/icd.d/lvp.json"] = "{}";
  EXPECT_EQ(find_vulkan_icd_manifests(h).result, IcdSearchResult::found);
}

TEST(VulkanIcdManifests, WithoutHomeTheHomeFoldersAreLeftOut) {
  auto h = machine();
  h.environment.erase("HOME");
  auto s = find_vulkan_icd_manifests(h);
  EXPECT_EQ(s.places.size(), 6u);
  EXPECT_EQ(s.places.front(), "/etc/xdg/vulkan/icd.d");
}

TEST(VulkanIcdManifests, DriverFilesAreTheOnlyPlacesWhenSet) {
  auto h = machine();
  h.files["/usr/share/vulkan/icd.d/nvidia_icd.json"] = "{}";
  h.environment["VK_DRIVER_FILES"] = "/nonexistent.json";
  h.environment["VK_ICD_FILENAMES"] = "/usr/share/vulkan/icd.d/nvidia_icd.json";
  auto s = find_vulkan_icd_manifests(h);
  EXPECT_EQ(s.result, IcdSearchResult::none);
  EXPECT_EQ(s.variable, "VK_DRIVER_FILES");
  EXPECT_EQ(s.places, std::vector<std::string>{"/nonexistent.json"});
  EXPECT_EQ(no_icd_manifest_reason(s),
            "VK_DRIVER_FILES=/nonexistent.json names no manifest that is there "
            "(vulkaninfo not run)");

  h.environment.erase("VK_DRIVER_FILES");  // the older name, used alone
  s = find_vulkan_icd_manifests(h);
  EXPECT_EQ(s.variable, "VK_ICD_FILENAMES");
  EXPECT_EQ(s.result, IcdSearchResult::found);
}

TEST(VulkanIcdManifests, DriverFilesMayNameAFolderOrAFileOfAnyName) {
  auto h = machine();
  h.environment["VK_DRIVER_FILES"] = "/opt/vk/icd:/tmp/lvp";
  h.errors["/tmp/lvp"] = ENOTDIR;  // a plain file: list() says ENOTDIR
  EXPECT_EQ(find_vulkan_icd_manifests(h).result, IcdSearchResult::found);
  h.errors.erase("/tmp/lvp");
  h.files["/opt/vk/icd/a.json"] = "{}";
  EXPECT_EQ(find_vulkan_icd_manifests(h).result, IcdSearchResult::found);
}

TEST(VulkanIcdManifests, AddDriverFilesAreSearchedToo) {
  auto h = machine();
  h.environment["VK_ADD_DRIVER_FILES"] = "/opt/extra";
  h.files["/opt/extra/x.json"] = "{}";
  EXPECT_EQ(find_vulkan_icd_manifests(h).result, IcdSearchResult::found);
}

TEST(VulkanIcdManifests, WhatCannotBeToldIsUnknown) {
  auto h = machine();
  h.errors["/etc/vulkan/icd.d"] = EACCES;
  EXPECT_EQ(find_vulkan_icd_manifests(h).result, IcdSearchResult::unknown);
  h.files["/usr/share/vulkan/icd.d/x.json"] = "{}";  // a manifest elsewhere still decides
  EXPECT_EQ(find_vulkan_icd_manifests(h).result, IcdSearchResult::found);

  auto relative = machine();
  relative.environment["VK_DRIVER_FILES"] = "icd/lvp.json";  // relative to a cwd we do not know
  EXPECT_EQ(find_vulkan_icd_manifests(relative).result, IcdSearchResult::unknown);
  relative.environment["VK_DRIVER_FILES"] = ":";
  EXPECT_EQ(find_vulkan_icd_manifests(relative).result, IcdSearchResult::unknown);
}

TEST(VulkanProbe, NoManifestMeansVulkaninfoIsNotRun) {
  auto h = machine();
  h.tools[kVulkaninfo] = ToolRun{};  // installed: would answer if asked
  auto r = VulkanProbe().run(h);
  ASSERT_TRUE(r.backend.reason);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::driver_not_found);
  EXPECT_NE(r.backend.reason->detail.find("vulkaninfo not run"), std::string::npos);
  EXPECT_TRUE(h.runs.empty());
}

TEST(VulkanProbe, AManifestMeansVulkaninfoIsAsked) {
  auto h = machine();
  h.files["/usr/share/vulkan/icd.d/nvidia_icd.json"] = manifest("libGLX_nvidia.so.0", "1.4.312");
  VulkanProbe().run(h);
  EXPECT_EQ(h.runs, std::vector<std::vector<std::string>>{kVulkaninfo});
}

TEST(VulkanIcdManifests, EveryManifestIsCollectedInTheLoadersOrder) {
  auto h = machine();
  h.files["/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"] = "";
  h.files["/usr/share/vulkan/icd.d/intel_icd.x86_64.json"] = "";
  h.files["/etc/vulkan/icd.d/nvidia_icd.json"] = "";
  EXPECT_EQ(find_vulkan_icd_manifests(h).manifests,
            (std::vector<std::string>{"/etc/vulkan/icd.d/nvidia_icd.json",
                                      "/usr/share/vulkan/icd.d/intel_icd.x86_64.json",
                                      "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"}));
}

// mesa-vulkan-drivers' lavapipe alone (a desktop or CI image without a GPU):
// vulkaninfo would take 40 ms to list the CPU as "llvmpipe".
TEST(VulkanProbe, OnlySoftwareRenderersAreKnownFromTheirManifests) {
  auto h = machine();
  h.files["/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"] =
      manifest("/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so", "1.1.230");
  h.files["/usr/local/share/vulkan/icd.d/vk_swiftshader_icd.json"] =
      manifest("./libvk_swiftshader.so", "1.0.5");
  auto r = VulkanProbe().run(h);
  EXPECT_TRUE(h.runs.empty());
  EXPECT_FALSE(r.backend.ready);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::no_backend);
  EXPECT_EQ(r.backend.reason->detail, "only software renderers: SwiftShader, llvmpipe");
  ASSERT_EQ(r.entries.size(), 2u);
  EXPECT_EQ(r.entries[1].name, "llvmpipe");
  EXPECT_EQ(r.entries[1].vendor, "Mesa");
  EXPECT_EQ(r.entries[1].type, DeviceType::cpu);
  EXPECT_EQ(r.entries[1].physical_id, "cpu:0");  // the CPU itself
  EXPECT_EQ(r.entries[1].status, EntryStatus::unavailable);
  EXPECT_EQ(r.entries[1].reason->detail,
            "llvmpipe is a software renderer (lavapipe, from "
            "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json; vulkaninfo not run), not an accelerator");
  EXPECT_EQ(r.entries[0].name, "SwiftShader");
}

TEST(VulkanProbe, AnyOtherManifestMeansVulkaninfoIsAsked) {
  for (const std::string& other :
       {manifest("libGLX_nvidia.so.0"), manifest("/usr/lib/x86_64-linux-gnu/amdvlk64.so"),
        manifest("/usr/lib/wsl/lib/libvulkan_dzn.so"), std::string("{not json"),
        std::string("{\"ICD\": {}}"), std::string("[]"), manifest("libvulkan_lvp_but_not.so")}) {
    auto h = machine();
    h.files["/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"] =
        manifest("/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so");
    h.files["/usr/share/vulkan/icd.d/other.json"] = other;
    VulkanProbe().run(h);
    EXPECT_EQ(h.runs, std::vector<std::vector<std::string>>{kVulkaninfo}) << other;
  }
  auto unreadable = machine();
  unreadable.files["/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"] = "";
  unreadable.errors["/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"] = EACCES;
  VulkanProbe().run(unreadable);
  EXPECT_EQ(unreadable.runs.size(), 1u);
}

// Debian's mesa-vulkan-drivers on a machine without a GPU: RADV, ANV and HASVK
// drive GPUs through DRM render nodes, and there is none; lavapipe is the CPU.
FakeHost mesa_without_a_gpu() {
  auto h = machine();
  for (const char* driver : {"intel_hasvk", "intel", "lvp", "radeon"})
    h.files[std::string("/usr/share/vulkan/icd.d/") + driver + "_icd.x86_64.json"] =
        manifest(std::string("/usr/lib/x86_64-linux-gnu/libvulkan_") + driver + ".so");
  return h;
}

TEST(VulkanProbe, MesaGpuDriversWithoutARenderNodeListNothing) {
  auto h = mesa_without_a_gpu();
  auto r = VulkanProbe().run(h);
  EXPECT_TRUE(h.runs.empty());
  EXPECT_EQ(r.backend.reason->detail, "only software renderers: llvmpipe");
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].name, "llvmpipe");

  // A display without a render node (a BMC's ast, a VM's bochs): still none.
  auto kms_only = mesa_without_a_gpu();
  kms_only.files["/sys/class/drm/card0/dev"] = "226:0\n";
  VulkanProbe().run(kms_only);
  EXPECT_TRUE(kms_only.runs.empty());
}

// Debian multiarch with i386 Mesa too: a manifest per architecture, one driver each.
TEST(VulkanProbe, AManifestPerArchitectureIsOneDriver) {
  auto h = mesa_without_a_gpu();
  for (const char* driver : {"lvp", "radeon"})
    h.files[std::string("/usr/share/vulkan/icd.d/") + driver + "_icd.i686.json"] =
        manifest(std::string("/usr/lib/i386-linux-gnu/libvulkan_") + driver + ".so");
  auto r = VulkanProbe().run(h);
  EXPECT_TRUE(h.runs.empty());
  ASSERT_EQ(r.entries.size(), 1u);  // not llvmpipe twice, and the one this machine loads
  EXPECT_NE(r.entries[0].reason->detail.find("lvp_icd.x86_64.json"), std::string::npos);

  auto gpu_drivers_only = machine();
  for (const char* arch : {"i686", "x86_64"})
    gpu_drivers_only.files[std::string("/usr/share/vulkan/icd.d/radeon_icd.") + arch + ".json"] =
        manifest("/usr/lib/x86_64-linux-gnu/libvulkan_radeon.so");
  EXPECT_NE(VulkanProbe().run(gpu_drivers_only).backend.reason->detail.find("drivers (RADV)"),
            std::string::npos);
}

TEST(VulkanProbe, ARenderNodeMeansVulkaninfoIsAsked) {
  auto h = mesa_without_a_gpu();
  h.files["/sys/class/drm/renderD128/dev"] = "226:128\n";
  VulkanProbe().run(h);
  EXPECT_EQ(h.runs, std::vector<std::vector<std::string>>{kVulkaninfo});

  auto unreadable = mesa_without_a_gpu();
  unreadable.errors["/sys/class/drm"] = EACCES;
  VulkanProbe().run(unreadable);
  EXPECT_EQ(unreadable.runs.size(), 1u);
}

TEST(VulkanProbe, GpuDriversAloneWithNothingToDriveAreNoDevice) {
  auto h = machine();
  h.files["/usr/share/vulkan/icd.d/radeon_icd.x86_64.json"] =
      manifest("/usr/lib/x86_64-linux-gnu/libvulkan_radeon.so");
  h.files["/usr/share/vulkan/icd.d/nouveau_icd.x86_64.json"] =
      manifest("/usr/lib/x86_64-linux-gnu/libvulkan_nouveau.so");
  auto r = VulkanProbe().run(h);
  EXPECT_TRUE(h.runs.empty());
  EXPECT_TRUE(r.entries.empty());
  EXPECT_EQ(r.backend.reason->code, ReasonCode::no_device);
  EXPECT_EQ(r.backend.reason->detail,
            "no Vulkan device: the installed drivers (NVK, RADV) drive GPUs through a DRM render "
            "node and /sys/class/drm has none (vulkaninfo not run)");
}

// Issue 18, item 13: anyone can put a manifest in ~/.local/share/vulkan/icd.d.
// One nested 100,000 levels under library_path overflowed the stack (SIGSEGV in
// nlohmann's recursive copy) of every live detect, select and export.
std::string nested_manifest(int levels) {
  return "{\"ICD\": {\"library_path\": " + std::string(std::size_t(levels), '[') +
         std::string(std::size_t(levels), ']') + "}}";
}

TEST(VulkanProbe, ADeeplyNestedManifestIsOneWarningAndVulkaninfoDecides) {
  auto h = machine();
  const std::string deep = "/root/.local/share/vulkan/icd.d/deep.json";
  h.files["/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"] =
      manifest("/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so");
  h.files[deep] = nested_manifest(200000);  // 100,000 crashed a release build
  auto r = VulkanProbe().run(h);
  EXPECT_EQ(h.runs, std::vector<std::vector<std::string>>{kVulkaninfo});
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].message,
            "driver manifest " + deep +
                ": nested more than 64 levels deep (line 1); expected a small JSON object "
                "{\"ICD\": {\"library_path\": ...}} (not read; vulkaninfo decides)");

  std::vector<std::string> problems;
  EXPECT_FALSE(known_without_vulkaninfo(h, find_vulkan_icd_manifests(h), &problems));
  EXPECT_EQ(problems.size(), 1u);
  // A manifest that nests as real ones do (a few levels) is read as before.
  auto shallow = machine();
  shallow.files["/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"] =
      manifest("/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so");
  shallow.files["/usr/share/vulkan/icd.d/nested.json"] = nested_manifest(60);
  VulkanProbe().run(shallow);
  EXPECT_EQ(shallow.runs.size(), 1u);  // not a known driver: vulkaninfo asked, no warning
}

TEST(VulkanProbe, AHugeManifestIsOneWarning) {
  auto h = machine();
  const std::string big = "/usr/share/vulkan/icd.d/big.json";
  h.files[big] =
      "{\"ICD\": {\"library_path\": \"" + std::string(kMaxIcdManifestBytes, 'a') + "\"}}";
  auto r = VulkanProbe().run(h);
  EXPECT_EQ(h.runs.size(), 1u);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].message.find("driver manifest " + big +
                                       ": 1048605 bytes, larger "
                                       "than the 1 MiB a manifest may be; expected"),
            std::string::npos)
      << r.warnings[0].message;
}

// LiveHost refuses a FIFO or device with EINVAL (live_host_test.cpp); the
// probe says so once instead of passing over it in silence.
TEST(VulkanProbe, AManifestThatIsNotARegularFileIsOneWarning) {
  auto h = machine();
  const std::string fifo = "/usr/share/vulkan/icd.d/fifo.json";
  h.files[fifo] = "";
  h.errors[fifo] = EINVAL;
  auto r = VulkanProbe().run(h);
  EXPECT_EQ(h.runs.size(), 1u);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].message.rfind("driver manifest " + fifo + ": Invalid argument;", 0), 0u)
      << r.warnings[0].message;
}

}  // namespace
}  // namespace hwaccel
