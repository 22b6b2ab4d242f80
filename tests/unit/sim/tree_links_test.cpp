// Which recorded links a laid tree may hold (sim/tree_links.h): none whose walk,
// as the kernel would take it under `hwsim run`, leaves what the tree lays.
#include "sim/tree_links.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "sim/materialize.h"

namespace hwaccel::sim {
namespace {

Snapshot with_links() {
  Snapshot s;
  s.files["/sys/devices/pci0/drm/card0/vendor"] = FileEntry::of_content("0x10de\n");
  s.files["/sys/class/drm/card0"] = FileEntry::of_link("../../devices/pci0/drm/card0");
  s.files["/sys/up"] = FileEntry::of_link("/sys");
  s.files["/sys/proc_link"] = FileEntry::of_link("/proc/net");
  s.files["/proc/driver/nvidia/version"] = FileEntry::of_content("NVRM 550\n");
  s.files["/proc/self/root/etc/passwd"] = FileEntry::of_content("planted\n");
  s.files["/proc/net/dev"] = FileEntry::of_content("planted\n");
  s.files["/proc/root/x"] = FileEntry::of_content("planted\n");
  s.files["/proc/linked"] = FileEntry::of_link("/sys");
  return s;
}

TEST(TreeLinks, LinksThatStayInTheSimulatedTreesAreLaid) {
  const Snapshot s = with_links();
  EXPECT_EQ(link_leaves_view(s, "/sys/class/drm/card0", "../../devices/pci0/drm/card0"), "");
  EXPECT_EQ(link_leaves_view(s, "/sys/bus/x", "/sys/devices/pci0"), "");
  EXPECT_EQ(link_leaves_view(s, "/dev/char/195:0", "../nvidia0"), "");
  EXPECT_EQ(link_leaves_view(s, "/sys/x", "/dev/nvidia0"), "");
  EXPECT_EQ(link_leaves_view(s, "/sys/x", "/proc/driver/nvidia/version"), "");
  // A process's own descriptors, as /dev has them.
  EXPECT_EQ(link_leaves_view(s, "/dev/fd", "/proc/self/fd"), "");
  EXPECT_EQ(link_leaves_view(s, "/dev/stdin", "/proc/self/fd/0"), "");
  // A loop leads nowhere (ELOOP, as recorded).
  Snapshot loop;
  loop.files["/sys/a"] = FileEntry::of_link("b");
  loop.files["/sys/b"] = FileEntry::of_link("a");
  EXPECT_EQ(link_leaves_view(loop, "/sys/a", "b"), "");
}

TEST(TreeLinks, LinksOutOfTheSimulatedTreesAreRefused) {
  const Snapshot s = with_links();
  for (const auto& [where, target] : std::vector<std::pair<std::string, std::string>>{
           {"/sys/x", "/etc/shadow"},
           {"/sys/class/x", "../../../../../../root/.ssh/id_ed25519"},
           {"/sys/x", "/proc/self/root/etc/shadow"},
           {"/sys/x", "/proc/1/environ"},
           {"/sys/x", "/proc/self/cwd"},
           {"/sys/x", "/proc/self/fd/0/../../root"},
           {"/dev/x", "/proc/thread-self/root/etc/passwd"},
           {"/sys/x", "/"},
           {"/sys/x", "/proc"},
           // Through a recorded link: /sys/up is /sys, so /sys/up/.. is "/".
           {"/sys/x", "/sys/up/../etc/shadow"},
           // /proc/net is this machine's (unrecorded): its ".." is not known.
           {"/sys/x", "/sys/proc_link/../root/etc/shadow"},
           {"/sys/x", "/home/user/.netrc"},
           // Recorded below a per-process folder: never covered, so not known.
           {"/sys/x", "/proc/self/root/etc/passwd"},
           {"/sys/x", "/proc/net/../root/x"},
           // A recorded /proc link is not laid: procfs keeps its own.
           {"/sys/x", "/proc/linked/y"},
       }) {
    const std::string why = link_leaves_view(s, where, target);
    EXPECT_NE(why.find("outside the simulated /sys, /proc and /dev"), std::string::npos)
        << where << " -> " << target << ": " << why;
  }
}

// The plan: a link out is neither laid nor followed, and a warning names it.
TEST(TreeLinks, TheTreePlanLeavesALinkOutOutAndSaysSo) {
  Snapshot s = with_links();
  s.facts = {"linux", "x86_64", "6.8.0", 4096, 2, "t"};
  s.files["/sys/module/nvidia/version"] = FileEntry::of_link("/etc/shadow");
  TreePlan plan = plan_materialize(s, "/tmp/unused-root");
  ASSERT_EQ(plan.error, "");
  for (const auto& e : plan.entries) {
    EXPECT_NE(e.target, "/etc/shadow") << e.path;
  }
  EXPECT_TRUE(std::any_of(plan.entries.begin(), plan.entries.end(), [](const PlannedEntry& e) {
    return e.kind == PlannedEntry::Kind::link && e.path == "/sys/class/drm/card0";
  }));
  const bool warned =
      std::any_of(plan.warnings.begin(), plan.warnings.end(), [](const std::string& w) {
        return w.find("/sys/module/nvidia/version") != std::string::npos &&
               w.find("not laid") != std::string::npos;
      });
  EXPECT_TRUE(warned);
}

}  // namespace
}  // namespace hwaccel::sim
