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
  h.files["/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"] = "{}";
  VulkanProbe().run(h);
  EXPECT_EQ(h.runs, std::vector<std::vector<std::string>>{kVulkaninfo});
}

TEST(VulkanProbe, MacOSIsNotSearchedLikeLinux) {
  auto h = machine();
  h.host_facts.os = "darwin";
  VulkanProbe().run(h);
  EXPECT_EQ(h.runs, std::vector<std::vector<std::string>>{kVulkaninfo});
}

// A recording made before the probe looked for manifests mentions none of the
// folders: its vulkaninfo run is replayed, as when it was recorded.
TEST(VulkanProbe, ARecordingFromBeforeTheSearchReplaysItsVulkaninfoRun) {
  SnapshotBuilder b;
  b.snapshot.facts.os = "linux";
  b.env("HOME", "/root");
  b.tool(kVulkaninfo, 1, "",
         "ERROR: [Loader Message] Code 0 : vkCreateInstance: Found no drivers!\n");
  SnapshotHost old(b.snapshot);
  EXPECT_EQ(find_vulkan_icd_manifests(old).result, IcdSearchResult::unknown);
  auto r = VulkanProbe().run(old);
  EXPECT_EQ(r.backend.reason->detail,
            "ERROR: [Loader Message] Code 0 : vkCreateInstance: Found no drivers!");
  EXPECT_TRUE(old.misses().empty());

  // A new recording holds the folders' answers: the search decides, and the
  // run it never made is not asked for.
  for (const auto& place : find_vulkan_icd_manifests(old).places)
    b.snapshot.files[place] = FileEntry::of_absent();
  b.snapshot.tools.clear();
  SnapshotHost recorded(b.snapshot);
  r = VulkanProbe().run(recorded);
  EXPECT_EQ(r.backend.reason->code, ReasonCode::driver_not_found);
  EXPECT_TRUE(recorded.misses().empty());
}

}  // namespace
}  // namespace hwaccel
