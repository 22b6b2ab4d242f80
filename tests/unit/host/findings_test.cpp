#include "src/host/findings.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "src/host/memo_host.h"
#include "src/host/snapshot_host.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

const char kWordTag = 0;
const char kNumberTag = 0;

TEST(Findings, EachIsMadeOnceAndKept) {
  Findings findings;
  int made = 0;
  auto word = [&] {
    ++made;
    return std::string("made once");
  };
  const std::string& first = findings.get<std::string>(&kWordTag, word);
  const std::string& again = findings.get<std::string>(&kWordTag, word);
  EXPECT_EQ(first, "made once");
  EXPECT_EQ(&first, &again);
  EXPECT_EQ(made, 1);
  // Another tag is another finding.
  EXPECT_EQ(findings.get<int>(&kNumberTag, [] { return 42; }), 42);
  EXPECT_EQ(made, 1);
}

TEST(Findings, ThreadsAskingAtOnceKeepTheFirstStored) {
  Findings findings;
  std::atomic<int> made{0};
  std::vector<const std::vector<int>*> seen(8);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < seen.size(); ++t)
    threads.emplace_back([&, t] {
      seen[t] = &findings.get<std::vector<int>>(&kWordTag, [&] {
        ++made;
        return std::vector<int>(1000, int(t));
      });
    });
  for (auto& thread : threads) thread.join();
  EXPECT_GE(made.load(), 1);
  for (const auto* s : seen) EXPECT_EQ(s, seen.front());  // one answer for all
}

TEST(Findings, OnlyHostsWhoseAnswersDoNotChangeKeepThem) {
  testing::FakeHost machine;
  EXPECT_EQ(machine.findings(), nullptr);  // a machine's files change
  MemoHost memo(machine);
  EXPECT_NE(memo.findings(), nullptr);  // one detection's answers
  SnapshotHost replay(Snapshot{});
  EXPECT_NE(replay.findings(), nullptr);
  // A class derived from SnapshotHost may answer anew each time: none.
  struct Flapping : SnapshotHost {
    using SnapshotHost::SnapshotHost;
  } flapping(Snapshot{});
  EXPECT_EQ(flapping.findings(), nullptr);
}

}  // namespace
}  // namespace hwaccel
