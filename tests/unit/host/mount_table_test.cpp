#include "src/host/mount_table.h"

#include <gtest/gtest.h>

namespace hwaccel {
namespace {

// This machine's table when the work was done (a Firecracker VM's container), cut down.
constexpr const char* kTable =
    "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
    "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard\n"
    "28 27 0:25 / /mnt/sandboxing/model_tools_env/v1/python ro,nosuid,nodev,relatime - tmpfs "
    "model_tools_unavailable ro,size=4k,mode=755\n"
    "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
    "40 27 254:0 /container_info.json /container_info.json rw,relatime - ext4 /dev/vda rw\n"
    "41 27 254:0 /var/lib/docker/containers/ab/resolv.conf /etc/resolv.conf rw - ext4 /dev/sda1 "
    "rw\n"
    "42 27 0:40 / /tmp rw,nosuid,nodev shared:5 - tmpfs tmpfs rw\n"
    "43 27 0:41 / /home/a\\040b rw,relatime - ext4 /dev/sdb1 rw\n"
    "garbage line\n";

bool dir_unless_file(const std::string& path) {
  return path != "/container_info.json" && path != "/etc/resolv.conf";
}

TEST(MountTable, ReadsTheFieldsAroundTheOptionalOnes) {
  auto lines = mount_lines(kTable);
  ASSERT_EQ(lines.size(), 8u);  // the malformed line is skipped
  EXPECT_EQ(lines[6].mount_point, "/tmp");
  EXPECT_EQ(lines[6].fstype, "tmpfs");           // after "shared:5" and "-"
  EXPECT_EQ(lines[7].mount_point, "/home/a b");  // \040 is a space
  EXPECT_EQ(lines[2].source, "model_tools_unavailable");
  EXPECT_EQ(lines[4].root, "/container_info.json");
}

TEST(MountTable, ContainerPlaceholdersAndFilesBoundInAreForeignDisksAndEtcAreNot) {
  auto foreign = foreign_mounts(mount_lines(kTable), dir_unless_file);
  // Deepest first; /proc, /sys, the root, /tmp, a disk at /home and /etc's files stay.
  EXPECT_EQ(foreign, (std::vector<std::string>{"/mnt/sandboxing/model_tools_env/v1/python",
                                               "/container_info.json"}));
}

}  // namespace
}  // namespace hwaccel
