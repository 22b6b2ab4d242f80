// The device cgroup: v1's devices.list as a container runtime and Slurm write
// it, and v2, whose eBPF rules no file shows.
#include "src/system/cgroup_devices.h"

#include <gtest/gtest.h>

#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

// containerd's defaults for a pod, then what the NVIDIA toolkit appends for
// nvidiactl, nvidia-uvm(-tools) and the pod's two GPUs (/dev/nvidia0, /dev/nvidia3).
constexpr std::string_view kPodDevicesList =
    "c 1:5 rwm\nc 1:3 rwm\nc 1:9 rwm\nc 1:8 rwm\nc 5:0 rwm\nc 5:1 rwm\nc *:* m\nb *:* m\n"
    "c 1:7 rwm\nc 136:* rwm\nc 5:2 rwm\nc 10:200 rwm\n"
    "c 195:255 rw\nc 508:0 rw\nc 508:1 rw\nc 195:0 rw\nc 195:3 rw\n";

TEST(CgroupDevices, TheListOfAPodGivenTwoGpus) {
  std::size_t skipped = 9;
  auto rules = parse_devices_list(kPodDevicesList, &skipped);
  EXPECT_EQ(rules.size(), 17u);
  EXPECT_EQ(skipped, 0u);
  EXPECT_TRUE(char_device_allowed(rules, 195, 0));
  EXPECT_TRUE(char_device_allowed(rules, 195, 3));
  EXPECT_FALSE(char_device_allowed(rules, 195, 1));  // "c *:* m" is mknod only
  auto minors = allowed_char_minors(rules, 195);
  ASSERT_TRUE(minors);
  EXPECT_EQ(*minors, (std::vector<unsigned>{0, 3, 255}));
}

TEST(CgroupDevices, EverythingAllowedAndGarbage) {
  auto all = parse_devices_list("a *:* rwm\n");
  EXPECT_TRUE(char_device_allowed(all, 195, 7));
  EXPECT_FALSE(allowed_char_minors(all, 195));  // every minor: no list to give
  EXPECT_FALSE(allowed_char_minors(parse_devices_list("c 195:* rw\n"), 195));
  std::size_t skipped = 0;
  auto rules = parse_devices_list("c 195:0\nx 1:1 rw\nc 195:x rw\nc 195:1 rwz\n\xff\n", &skipped);
  EXPECT_TRUE(rules.empty());
  EXPECT_EQ(skipped, 5u);
}

// A Docker container on a cgroup v1 host: the hierarchy is mounted at its own
// cgroup's folder (mount root = the container's path).
TEST(CgroupDevices, ReadThroughSelfCgroupAndMountinfo) {
  testing::FakeHost h;
  const std::string path = "/kubepods/besteffort/pod5f1c/0b6d";
  h.files["/proc/self/cgroup"] = "12:devices:" + path + "\n4:memory:" + path + "\n0::/\n";
  h.files["/proc/self/mountinfo"] =
      "1201 1190 0:31 " + path +
      " /sys/fs/cgroup/devices ro,nosuid,nodev,noexec,relatime master:17 - cgroup cgroup "
      "rw,devices\n";
  h.files["/sys/fs/cgroup/devices/devices.list"] = std::string(kPodDevicesList);
  auto cg = read_device_cgroup(h);
  EXPECT_EQ(cg.version, 1);
  EXPECT_EQ(cg.path, path);
  EXPECT_EQ(cg.file, "/sys/fs/cgroup/devices/devices.list");
  EXPECT_EQ(cg.rules.size(), 17u);

  h.files["/sys/fs/cgroup/devices/devices.list"] = "nonsense\n";
  cg = read_device_cgroup(h);
  EXPECT_EQ(cg.version, 0);
  EXPECT_NE(cg.note.find("expected lines such as"), std::string::npos) << cg.note;
}

TEST(CgroupDevices, V2RulesAreUnknownAndSaidSo) {
  testing::FakeHost h;
  h.files["/proc/self/cgroup"] = "0::/\n";
  h.files["/proc/self/mountinfo"] =
      "30 23 0:26 /../cri-containerd-0b6d.scope /sys/fs/cgroup ro,nosuid - cgroup2 cgroup2 rw\n"
      "31 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n";
  auto cg = read_device_cgroup(h);
  EXPECT_EQ(cg.version, 2);
  EXPECT_TRUE(cg.rules.empty());
  EXPECT_NE(cg.note.find("eBPF program"), std::string::npos);
  EXPECT_EQ(read_device_cgroup(*std::make_unique<testing::FakeHost>()).version, 0);
}

}  // namespace
}  // namespace hwaccel
