#include "src/host/memo_host.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <map>
#include <mutex>
#include <thread>

#include "src/registry/detection.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

// Counts what reaches the machine: the point of a MemoHost is that repeated
// questions do not.
class CountingHost : public testing::FakeHost {
 public:
  std::atomic<int> reads{0}, lists{0}, links{0}, stats{0};
  Result<std::string> read(std::string_view path) override {
    ++reads;
    return FakeHost::read(path);
  }
  Result<std::vector<std::string>> list(std::string_view dir) override {
    ++lists;
    return FakeHost::list(dir);
  }
  Result<std::string> readlink(std::string_view path) override {
    ++links;
    return FakeHost::readlink(path);
  }
  Result<FileKind> stat(std::string_view path) override {
    ++stats;
    return FakeHost::stat(path);
  }
};

TEST(MemoHost, AsksTheMachineOncePerPathAndGivesTheSameAnswer) {
  CountingHost inner;
  inner.files["/proc/cpuinfo"] = "processor\t: 0\n";
  inner.files["/sys/bus/pci/devices/0000:00:01.0/vendor"] = "0x10de\n";
  MemoHost memo(inner);
  for (int i = 0; i < 5; ++i) {
    auto cpu = memo.read("/proc/cpuinfo");
    ASSERT_TRUE(cpu.ok());
    EXPECT_EQ(*cpu, "processor\t: 0\n");
    auto bus = memo.list("/sys/bus/pci/devices");
    ASSERT_TRUE(bus.ok());
    EXPECT_EQ(*bus, std::vector<std::string>{"0000:00:01.0"});
    EXPECT_EQ(memo.stat("/proc/cpuinfo").value(), FileKind::regular);
  }
  EXPECT_EQ(inner.reads, 1);
  EXPECT_EQ(inner.lists, 1);
  EXPECT_EQ(inner.stats, 1);
}

TEST(MemoHost, LendsTheTextItKeepsAndReadsItOnce) {
  CountingHost inner;
  inner.files["/proc/cpuinfo"] = "processor\t: 0\n";
  MemoHost memo(inner);
  auto first = memo.read_text("/proc/cpuinfo");
  auto second = memo.read_text("/proc/cpuinfo");
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(first->view(), "processor\t: 0\n");
  // The same bytes, not two copies of them.
  EXPECT_EQ(first->view().data(), second->view().data());
  EXPECT_EQ(memo.read("/proc/cpuinfo").value(), "processor\t: 0\n");
  EXPECT_EQ(inner.reads, 1);
  auto missing = memo.read_text("/nope");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ENOENT);
}

TEST(MemoHost, RemembersFailuresWithTheirErrno) {
  CountingHost inner;
  inner.files["/dev/nvidiactl"] = "";
  inner.errors["/dev/nvidiactl"] = EACCES;
  MemoHost memo(inner);
  for (int i = 0; i < 3; ++i) {
    auto missing = memo.read("/proc/driver/nvidia/version");
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, ENOENT);
    auto denied = memo.read("/dev/nvidiactl");
    ASSERT_FALSE(denied.ok());
    EXPECT_EQ(denied.error().code, EACCES);
    EXPECT_FALSE(memo.readlink("/sys/bus/pci/devices/0000:00:01.0/driver").ok());
  }
  EXPECT_EQ(inner.reads, 2);
  EXPECT_EQ(inner.links, 1);
}

TEST(MemoHost, RunsEveryToolEveryTime) {
  CountingHost inner;
  inner.tools[{"nvidia-smi", "-L"}] =
      ToolRun{ToolOutcome::exited, 0, 0, "GPU 0: x\n", "", 1, false};
  MemoHost memo(inner);
  memo.run({"nvidia-smi", "-L"}, {});
  memo.run({"nvidia-smi", "-L"}, {});
  EXPECT_EQ(inner.runs.size(), 2u);  // a tool's answer can change: never remembered
}

TEST(MemoHost, ThreadsSharingItSeeOneAnswer) {
  CountingHost inner;
  inner.files["/proc/meminfo"] = "MemTotal: 1 kB\n";
  MemoHost memo(inner);
  std::vector<std::thread> threads;
  std::atomic<int> right{0};
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 200; ++i)
        if (memo.read("/proc/meminfo").value() == "MemTotal: 1 kB\n") ++right;
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(right, 8 * 200);
  EXPECT_LE(inner.reads, 8);  // at most one per thread racing the first
}

// Detection reads each file of a whole host once, however many backends look
// at it (eight walk the PCI bus, two read /proc/cpuinfo).
class PerPathHost : public testing::FakeHost {
 public:
  std::mutex mutex;
  std::map<std::string, int> reads_per_path;
  Result<std::string> read(std::string_view path) override {
    {
      std::lock_guard lock(mutex);
      ++reads_per_path[std::string(path)];
    }
    return FakeHost::read(path);
  }
};

TEST(MemoHost, DetectionReadsEachFileOnce) {
  PerPathHost host;
  for (const char* dev : {"0000:00:00.0", "0000:00:02.0", "0000:17:00.0"}) {
    std::string d = std::string("/sys/bus/pci/devices/") + dev;
    host.files[d + "/vendor"] = "0x8086\n";
    host.files[d + "/device"] = "0x1237\n";
    host.files[d + "/class"] = "0x060000\n";
  }
  host.files["/proc/cpuinfo"] = "processor\t: 0\nmodel name\t: Test CPU\nflags\t\t: fpu sse2\n\n";
  host.files["/proc/meminfo"] = "MemTotal:       16384 kB\nMemAvailable:   8192 kB\n";
  Detection d = detect(host, {});
  EXPECT_FALSE(d.backends.empty());
  ASSERT_GT(host.reads_per_path.count("/sys/bus/pci/devices/0000:17:00.0/vendor"), 0u);
  ASSERT_GT(host.reads_per_path.count("/proc/cpuinfo"), 0u);
  for (const auto& [path, count] : host.reads_per_path) EXPECT_EQ(count, 1) << path;
}

}  // namespace
}  // namespace hwaccel
