#include "src/host/snapshot_host.h"

#include <gtest/gtest.h>

#include "src/snapshot/snapshot_codec.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

SnapshotHost host_from(const std::string& yaml) {
  Snapshot s;
  auto error = parse_snapshot(yaml, "test.yaml", s);
  EXPECT_FALSE(error) << error->to_string();
  return SnapshotHost(std::move(s));
}

const char* kTree = R"(schema: hwaccel-snapshot/1
host: {label: t, recorded_at: "2026-11-29T15:00:00Z"}
facts: {os: linux, arch: x86_64, cpus: 8, hostname: box}
env: {CUDA_VISIBLE_DEVICES: "1"}
files:
  /proc/meminfo: "MemTotal: 1 kB\n"
  /sys/bus/pci/devices/0000:01:00.0: {link: ../../../devices/pci0000:00/0000:01:00.0}
  /sys/devices/pci0000:00/0000:01:00.0/vendor: "0x10de\n"
  /sys/devices/pci0000:00/0000:01:00.0/driver: {link: ../../../bus/pci/drivers/nvidia}
  /sys/bus/pci/drivers/nvidia/module: {link: ../../../../module/nvidia}
  /sys/module/nvidia/version: "580.95.05\n"
  /sys/class/drm: {dir: [card0, renderD128, version]}
  /sys/class/misc/intel_npu: {absent: true}
  /dev/accel/accel0: {error: EACCES}
  /dev/nvidia0: {type: char}
  /loop/a: {link: b}
  /loop/b: {link: a}
  /escape: {link: ../../../../../etc}
tools:
  - argv: [nvidia-smi, -L]
    exit: 0
    stdout: "GPU 0: NVIDIA H100\n"
  - argv: [hangs]
    outcome: timeout
  - argv: [killed]
    outcome: signal:9
)";

TEST(SnapshotHost, ReadsContentAndFollowsLinksOnTheWay) {
  auto h = host_from(kTree);
  EXPECT_EQ(h.read("/proc/meminfo").value(), "MemTotal: 1 kB\n");
  EXPECT_EQ(h.read("/sys/bus/pci/devices/0000:01:00.0/vendor").value(), "0x10de\n");
  EXPECT_EQ(h.read("/sys/bus/pci/devices/0000:01:00.0/driver/module/version").value(),
            "580.95.05\n");
  EXPECT_EQ(h.readlink("/sys/bus/pci/devices/0000:01:00.0/driver").value(),
            "../../../bus/pci/drivers/nvidia");
  EXPECT_EQ(h.read("//proc/./meminfo").value(), "MemTotal: 1 kB\n");
}

TEST(SnapshotHost, LendsRecordedTextAndWalksDotsAndLinksInTargets) {
  auto h = host_from(kTree);
  auto lent = h.read_text("/sys/bus/pci/devices/0000:01:00.0/vendor");
  ASSERT_TRUE(lent.ok());
  EXPECT_EQ(lent->view(), "0x10de\n");
  EXPECT_EQ(lent->view().data(),
            h.read_text("/sys/devices/pci0000:00/0000:01:00.0/vendor")->view().data());
  // ".." of the path is lexical (the link is not followed), of a target walked.
  EXPECT_EQ(h.read("/sys/bus/pci/devices/0000:01:00.0/../../../../../proc/meminfo").value(),
            "MemTotal: 1 kB\n");
  EXPECT_EQ(h.read("/sys/bus/pci/devices/0000:01:00.0/driver/module/./version/").value(),
            "580.95.05\n");
  EXPECT_EQ(h.read("/proc/meminfo/x").error().code, ENOTDIR);
  EXPECT_EQ(h.read("proc/meminfo").error().code, EINVAL);
  EXPECT_EQ(h.read(std::string("/proc/\0meminfo", 15)).error().code, EINVAL);
  EXPECT_EQ(h.stat("/").value(), FileKind::directory);
  EXPECT_EQ(h.read("/loop/a/x").error().code, ELOOP);
}

TEST(SnapshotHost, NegativeAnswersAreExact) {
  auto h = host_from(kTree);
  EXPECT_EQ(h.read("/sys/class/misc/intel_npu").error().code, ENOENT);
  EXPECT_EQ(h.read("/not/mentioned").error().code, ENOENT);
  EXPECT_EQ(h.read("/dev/accel/accel0").error().code, EACCES);
  EXPECT_EQ(h.stat("/dev/accel/accel0").error().code, EACCES);
  EXPECT_EQ(h.read("/sys/class/drm").error().code, EISDIR);
  EXPECT_EQ(h.read("/loop/a").error().code, ELOOP);
  EXPECT_EQ(h.read("proc/meminfo").error().code, EINVAL);
  EXPECT_EQ(h.readlink("/proc/meminfo").error().code, EINVAL);
  EXPECT_EQ(h.list("/proc/meminfo").error().code, ENOTDIR);
  EXPECT_EQ(h.read("/proc/meminfo/x").error().code, ENOTDIR);
}

TEST(SnapshotHost, ListsRecordedAndImpliedDirectories) {
  auto h = host_from(kTree);
  EXPECT_EQ(h.list("/sys/class/drm").value(),
            (std::vector<std::string>{"card0", "renderD128", "version"}));
  EXPECT_EQ(h.list("/sys/class").value(), (std::vector<std::string>{"drm", "misc"}));
  EXPECT_EQ(h.list("/sys/class/misc").value(), std::vector<std::string>{});
  EXPECT_EQ(h.list("/sys/bus/pci/devices/0000:01:00.0").value(),
            (std::vector<std::string>{"driver", "vendor"}));
  EXPECT_EQ(h.list("/nowhere").error().code, ENOENT);
  EXPECT_EQ(h.stat("/sys").value(), FileKind::directory);
  EXPECT_EQ(h.stat("/dev/nvidia0").value(), FileKind::char_device);
  EXPECT_EQ(h.stat("/proc/meminfo").value(), FileKind::regular);
}

// ENOENT for a path the snapshot never mentions means "not recorded": knows()
// tells it from a recorded "not there", so a probe that looks somewhere new
// can keep older recordings replaying as they were recorded.
TEST(SnapshotHost, KnowsWhatItRecordedAndNothingElse) {
  auto h = host_from(kTree);
  EXPECT_TRUE(h.knows("/proc/meminfo"));
  EXPECT_TRUE(h.knows("/sys/class/misc/intel_npu"));    // {absent: true}
  EXPECT_TRUE(h.knows("/sys/class/misc/intel_npu/x"));  // absent on the way
  EXPECT_TRUE(h.knows("/proc/meminfo/x"));              // a file on the way: ENOTDIR
  EXPECT_TRUE(h.knows("/dev/accel/accel0"));            // an error
  EXPECT_TRUE(h.knows("/sys/devices"));                 // files recorded below
  EXPECT_TRUE(h.knows("/sys/bus/pci/devices/0000:01:00.0/driver/module/version"));  // via links
  EXPECT_TRUE(h.knows("/sys/class/drm/card1"));  // the listing lacks it: not there
  EXPECT_TRUE(h.knows("/sys/class/drm/card1/device"));
  EXPECT_FALSE(h.knows("/sys/class/drm/card0/device"));  // listed, never looked into
  EXPECT_FALSE(h.knows("/etc/vulkan/icd.d"));
  EXPECT_FALSE(h.knows("relative/path"));
  // Either way read() says ENOENT, as the format says.
  EXPECT_EQ(h.read("/etc/vulkan/icd.d").error().code, ENOENT);
  EXPECT_EQ(h.read("/sys/class/drm/card1").error().code, ENOENT);
}

// The walk looks each folder up in a hash that grows with the path and is cut
// back at "..": on every path of every fixture, the spellings that name the
// same path (doubled slashes, a trailing slash, "." and "name/..") reach the
// same recorded entry, and a link on the way (/sys/bus/pci/devices/...) lands
// where the path spelled through the link's target does.
TEST(SnapshotHost, EverySpellingOfAFixturePathReachesOneEntry) {
  int checked = 0;
  for (const auto& name : testing::fixture_host_names()) {
    auto loaded = load_snapshot_file(testing::source_path("fixtures/hosts/" + name + ".yaml"));
    ASSERT_TRUE(loaded.snapshot) << name;
    SnapshotHost h(std::move(*loaded.snapshot));
    for (const auto& [path, entry] : h.snapshot().files) {
      if (path == "/") continue;
      const auto slash = path.rfind('/');
      const std::string base = path.substr(slash + 1);
      std::string doubled;
      for (char c : path) doubled += c == '/' ? std::string("//") : std::string(1, c);
      const auto want = h.stat(path);
      const auto want_text = h.read_text(path);
      for (const std::string& other :
           {"/" + path, path + "/", doubled, path.substr(0, slash) + "/./" + base,
            path + "/../" + base, path.substr(0, slash) + "/x/../" + base}) {
        auto got = h.stat(other);
        ASSERT_EQ(got.ok(), want.ok()) << name << ": " << other;
        if (got.ok()) {
          EXPECT_EQ(*got, *want) << name << ": " << other;
        } else {
          EXPECT_EQ(got.error().code, want.error().code) << name << ": " << other;
        }
        auto text = h.read_text(other);
        ASSERT_EQ(text.ok(), want_text.ok()) << name << ": " << other;
        if (text.ok()) {
          EXPECT_EQ(text->view().data(), want_text->view().data()) << name << ": " << other;
        }
        ++checked;
      }
      if (entry.kind == FileEntry::Kind::link) {
        // Followed: the same as the target spelled out from the link's folder.
        const std::string target =
            entry.target.front() == '/' ? entry.target : path.substr(0, slash) + "/" + entry.target;
        auto via = h.stat(path);
        auto spelled = h.stat(target);
        // ".." of a spelled-out path is lexical, of a link's target walked: only
        // targets without a link among their folders compare alike; those are
        // the fixtures' (/sys/bus/pci/devices/X -> ../../../devices/...).
        if (via.ok() && spelled.ok()) {
          EXPECT_EQ(*via, *spelled) << name << ": " << path;
        }
      }
    }
  }
  EXPECT_GT(checked, 5000);
}

TEST(SnapshotHost, LinksCannotLeaveTheSnapshot) {
  auto h = host_from(kTree);
  // ../../.. past the root stays at the root of the snapshot: /etc is not recorded.
  EXPECT_EQ(h.read("/escape/passwd").error().code, ENOENT);
}

TEST(SnapshotHost, ToolRunsReplayTheirOutcomeAndCountMisses) {
  auto h = host_from(kTree);
  auto smi = h.run({"nvidia-smi", "-L"});
  EXPECT_TRUE(smi.ok());
  EXPECT_EQ(smi.out, "GPU 0: NVIDIA H100\n");
  EXPECT_EQ(h.run({"hangs"}).outcome, ToolOutcome::timeout);
  auto killed = h.run({"killed"});
  EXPECT_EQ(killed.outcome, ToolOutcome::signal);
  EXPECT_EQ(killed.signal, 9);
  EXPECT_TRUE(h.misses().empty());
  EXPECT_EQ(h.run({"nvidia-smi", "-q"}).outcome, ToolOutcome::not_found);
  EXPECT_EQ(h.run({"nvidia-smi", "-q"}).outcome, ToolOutcome::not_found);
  ASSERT_EQ(h.misses().size(), 1u);
  EXPECT_EQ(h.misses()[0], (std::vector<std::string>{"nvidia-smi", "-q"}));
}

TEST(SnapshotHost, EnvFactsAndClockComeFromTheSnapshot) {
  auto h = host_from(kTree);
  EXPECT_EQ(h.env("CUDA_VISIBLE_DEVICES").value(), "1");
  EXPECT_FALSE(h.env("PATH"));
  EXPECT_EQ(h.facts().cpus, 8);
  EXPECT_EQ(h.facts().hostname, "box");
  EXPECT_EQ(h.now(), "2026-11-29T15:00:00Z");
}

// A host over a lent snapshot answers as one over its own copy.
TEST(SnapshotHost, ALentSnapshotAnswersAsACopy) {
  Snapshot s;
  ASSERT_FALSE(parse_snapshot(kTree, "test.yaml", s));
  SnapshotHost own(s);
  SnapshotHost lent(s, SnapshotHost::Lent{});
  EXPECT_EQ(&lent.snapshot(), &s);
  for (const char* path : {"/proc/meminfo", "/sys/bus/pci/devices/0000:01:00.0/vendor",
                           "/sys/class/misc/intel_npu", "/dev/accel/accel0", "/loop/a/x"}) {
    auto a = own.read(path), b = lent.read(path);
    EXPECT_EQ(a.ok(), b.ok()) << path;
    if (a.ok() && b.ok()) {
      EXPECT_EQ(*a, *b) << path;
    }
  }
  EXPECT_EQ(*own.list("/sys/class/drm"), *lent.list("/sys/class/drm"));
  EXPECT_EQ(own.run({"nvidia-smi", "-L"}).out, lent.run({"nvidia-smi", "-L"}).out);
  EXPECT_EQ(own.env("CUDA_VISIBLE_DEVICES"), lent.env("CUDA_VISIBLE_DEVICES"));
}

TEST(SnapshotHost, LoadSnapshotFileNamesAMissingFile) {
  auto loaded = load_snapshot_file("/nonexistent/dir/host.yaml");
  ASSERT_TRUE(loaded.error);
  EXPECT_NE(loaded.error->to_string().find("/nonexistent/dir/host.yaml"), std::string::npos);
}

}  // namespace
}  // namespace hwaccel
