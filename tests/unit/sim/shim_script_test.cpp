// The shim text: `--latency` puts one sleep of the recorded wall time in front of
// each answer that has one, and nothing changes without it; and no snapshot text
// ever leaves its quotes (tests/fuzz/shim_script_fuzz.cpp does the same at scale).
#include "sim/shim_script.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "tests/support/sh_words.h"

namespace hwaccel::sim {
namespace {

ToolEntry tool(std::vector<std::string> argv, ToolOutcome outcome, std::int64_t ms) {
  ToolEntry t;
  t.argv = std::move(argv);
  t.run.outcome = outcome;
  t.run.out = "GPU 0: NVIDIA H200\n";
  t.run.ms = ms;
  t.has_ms = true;
  return t;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

TEST(ShimScript, SleepSecondsKeepsMilliseconds) {
  EXPECT_EQ(sleep_seconds(1), "0.001");
  EXPECT_EQ(sleep_seconds(23), "0.023");
  EXPECT_EQ(sleep_seconds(200), "0.200");
  EXPECT_EQ(sleep_seconds(1500), "1.500");
  EXPECT_EQ(sleep_seconds(12345), "12.345");
}

TEST(ShimScript, LatencySleepsTheRecordedTimeBeforeAnswering) {
  ToolEntry list = tool({"nvidia-smi", "-L"}, ToolOutcome::exited, 24);
  std::vector<ShimRun> runs{{&list, "7"}};
  const std::string with = shim_script("nvidia-smi", runs, "../tools", "/usr/bin/sleep");
  EXPECT_NE(with.find("then\n  '/usr/bin/sleep' 0.024\n  'cat' \"$data\"/'7.out'\n  exit 0\n"),
            std::string::npos)
      << with;
  const std::string without = shim_script("nvidia-smi", runs, "../tools");
  EXPECT_EQ(count(without, "sleep"), 0u) << without;
  // The rest of the script is the same, byte for byte.
  std::string stripped = with;
  stripped.erase(stripped.find("  '/usr/bin/sleep' 0.024\n"), 25);
  EXPECT_EQ(stripped, without);
}

TEST(ShimScript, NoSleepForZeroMillisecondsOrARecordedHang) {
  ToolEntry instant = tool({"nvidia-smi", "-L"}, ToolOutcome::exited, 0);
  ToolEntry hang = tool({"nvidia-smi", "topo", "-m"}, ToolOutcome::timeout, 5000);
  ToolEntry slow = tool({"nvidia-smi", "-q"}, ToolOutcome::exited, 1200);
  std::vector<ShimRun> runs{{&instant, "0"}, {&hang, "1"}, {&slow, "2"}};
  const std::string s = shim_script("nvidia-smi", runs, "../tools", "/bin/sleep");
  EXPECT_EQ(count(s, "/bin/sleep' "), 1u) << s;  // the slow one only
  EXPECT_NE(s.find("  '/bin/sleep' 1.200\n  'cat' \"$data\"/'2.out'"), std::string::npos) << s;
  // The hang, as without --latency: a bounded wait (at least a minute), no loop.
  EXPECT_EQ(count(s, "  'sleep' 60.000 </dev/null >/dev/null 2>&1 &\n"), 1u) << s;
}

// Issue 31: the shims run this machine's own `cat` and `sleep`, by the absolute
// paths given, never by a name a shim of the snapshot could answer for; a recorded
// hang waits at most kTimeoutWaitMaxMs and then ends killed, as the recorder did.
TEST(ShimScript, HelpersByAbsolutePathAndABoundedHang) {
  ToolEntry out = tool({"sleep", "1"}, ToolOutcome::exited, 0);
  out.run.out = "x";
  ToolEntry hang = tool({"sleep", "2147483647"}, ToolOutcome::timeout, 99'000'000);
  const std::string s = shim_script("sleep", {{&out, "0"}, {&hang, "1"}}, "../tools", "", true,
                                    false, {"/usr/bin/cat", "/usr/bin/sleep"});
  EXPECT_NE(s.find("  '/usr/bin/cat' \"$data\"/'0.out'\n"), std::string::npos) << s;
  EXPECT_NE(s.find("  '/usr/bin/sleep' 600.000 </dev/null >/dev/null 2>&1 &\n"), std::string::npos)
      << s;
  EXPECT_NE(s.find("  wait $!\n  kill -9 $$\n"), std::string::npos) << s;
  EXPECT_EQ(s.find("exec sleep"), std::string::npos) << s;
  EXPECT_EQ(s.find(" cat "), std::string::npos) << s;
}

TEST(ShimScript, ASleepProgramWithOddCharactersIsQuoted) {
  ToolEntry slow = tool({"x"}, ToolOutcome::exited, 5);
  std::vector<ShimRun> runs{{&slow, "0"}};
  const std::string s = shim_script("x", runs, "../tools", "/opt/my tools/sleep");
  EXPECT_NE(s.find("  '/opt/my tools/sleep' 0.005\n"), std::string::npos) << s;
}

// Issue 18, item 1: a newline in a recorded argv word ended the `# ARGV` comment
// line, and the rest of the word ran as shell on every call of the tool; the same
// through an absolute tool name in the header comment.
TEST(ShimScript, NoSnapshotTextLeavesItsQuotes) {
  ToolEntry hostile = tool({"nvidia-smi", "-L\ntouch /tmp/canary/x #", "$(id)", "a'b", "`id`;"},
                           ToolOutcome::not_found, 3);
  ToolEntry benign = tool({"nvidia-smi", "w", "w", "w", "w"}, ToolOutcome::not_found, 3);
  for (const std::string name : {"nvidia-smi", "/opt/x\ntouch /tmp/canary/y #"}) {
    const std::string s = shim_script(name, {{&hostile, "0"}}, "../tools", "/bin/sleep");
    auto lexed = testing::lex_sh(s);
    auto expected = testing::lex_sh(shim_script("w", {{&benign, "0"}}, "../tools", "/bin/sleep"));
    ASSERT_TRUE(lexed.ok) << s;
    EXPECT_EQ(lexed.skeleton, expected.skeleton) << s;
    EXPECT_EQ(s.find("touch /tmp/canary/x #\n"), std::string::npos) << s;
    // Every line is the script's own: none starts with text from the snapshot.
    EXPECT_EQ(s.find("\ntouch"), std::string::npos) << s;
    // The words come back whole from the quotes.
    for (const char* word : {"-L\ntouch /tmp/canary/x #", "$(id)", "a'b", "`id`;"})
      EXPECT_NE(std::find(lexed.words.begin(), lexed.words.end(), word), lexed.words.end()) << word;
    EXPECT_NE(std::find(lexed.words.begin(), lexed.words.end(), name), lexed.words.end());
  }
}

TEST(ShimScript, QuoteIsExactlyOneWord) {
  for (const std::string& word :
       {std::string(), std::string("'"), std::string("''\n'"), std::string("a\nb\n"),
        std::string("$nl"), std::string("\"$nl\""), std::string("\\"), std::string("x\0y", 3)}) {
    auto lexed = testing::lex_sh(shim_quote(word));
    ASSERT_TRUE(lexed.ok) << shim_quote(word);
    EXPECT_EQ(lexed.skeleton, "Q") << shim_quote(word);
    ASSERT_EQ(lexed.words.size(), 1u);
    EXPECT_EQ(lexed.words[0], word);
  }
}

// execve's words end at a NUL: such a run can never be asked for, so it gets no answer.
TEST(ShimScript, AnArgvWithANulByteGetsNoAnswer) {
  ToolEntry nul = tool({"x", std::string("-L\0; touch /tmp/y", 18)}, ToolOutcome::exited, 0);
  ToolEntry fine = tool({"x", "-q"}, ToolOutcome::exited, 0);
  EXPECT_FALSE(shim_answerable(nul.argv));
  EXPECT_TRUE(shim_answerable(fine.argv));
  const std::string s = shim_script("x", {{&nul, "0"}, {&fine, "1"}}, "../tools");
  EXPECT_EQ(s.find('\0'), std::string::npos);
  EXPECT_EQ(count(s, "\nif "), 1u) << s;
  EXPECT_NE(s.find("answers the 1 run(s)"), std::string::npos) << s;
}

}  // namespace
}  // namespace hwaccel::sim

namespace hwaccel::sim {
namespace {

// A tool with an emulator: an argv the snapshot did not record goes to the tree's
// emulator program (name quoted, the caller's words as "$@"), not to the 127 miss;
// the shape stays fixed whatever the name holds.
TEST(ShimScript, AnEmulatedToolHandsUnrecordedArgvsToTheEmulator) {
  ToolEntry run = tool({"nvidia-smi", "-L"}, ToolOutcome::exited, 0);
  const std::string s = shim_script("nvidia-smi", {{&run, "0"}}, "../tools", "", false, true);
  const std::string call =
      "if [ -x \"$data\"/../emu ]; then exec \"$data\"/../emu emulate \"$data\"/../.. "
      "'nvidia-smi' -- \"$@\"; fi\n";
  auto at = s.find(call);
  ASSERT_NE(at, std::string::npos) << s;
  EXPECT_GT(at, s.find("-L"));               // recorded answers first
  EXPECT_LT(at, s.find("no recorded run"));  // the miss only without an emulator
  EXPECT_EQ(shim_script("nvidia-smi", {{&run, "0"}}, "../tools").find("emu"), std::string::npos);
  auto odd = testing::lex_sh(shim_script("a'b\nc", {{&run, "0"}}, "../tools", "", false, true));
  auto plain = testing::lex_sh(shim_script("w", {{&run, "0"}}, "../tools", "", false, true));
  EXPECT_EQ(odd.skeleton, plain.skeleton);
}

}  // namespace
}  // namespace hwaccel::sim
