// The fast snapshot reader (src/snapshot/fast_reader.h) against the yaml-cpp
// reader: whatever the fast one accepts, yaml-cpp reads to the same snapshot;
// whatever the writer emits, the fast one accepts; everything else falls back
// and keeps its located errors.
#include "src/snapshot/fast_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/presets.h"
#include "sim/spec.h"
#include "sim/spec_reader.h"
#include "sim/synth.h"
#include "src/snapshot/limits.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Both readers on `text`: the fast one may give up, but when it reads, it
// reads what yaml-cpp reads. Returns whether the fast reader took it.
bool agree(const std::string& text, const std::string& name) {
  Snapshot fast, slow;
  bool took = read_snapshot_fast(text, fast);
  auto error = parse_snapshot_with_yaml_cpp(text, name, slow);
  if (took) {
    EXPECT_FALSE(error) << name
                        << ": fast reader accepted what yaml-cpp refuses: " << error->to_string();
    EXPECT_TRUE(fast == slow) << name << ": the two readers disagree";
  }
  Snapshot via_api;
  auto api_error = parse_snapshot(text, name, via_api);
  EXPECT_EQ(bool(api_error), bool(error)) << name;
  if (api_error && error) {
    EXPECT_EQ(api_error->to_string(), error->to_string()) << name;
  }
  if (!error) {
    EXPECT_TRUE(via_api == slow) << name;
  }
  // Given the text to take (load_snapshot_file), the same snapshot or the same error.
  std::string owned = text;
  Snapshot in_place;
  auto in_place_error = parse_snapshot_in_place(owned, name, in_place);
  EXPECT_EQ(bool(in_place_error), bool(error)) << name;
  if (in_place_error && error) {
    EXPECT_EQ(in_place_error->to_string(), error->to_string()) << name;
    EXPECT_EQ(owned, text) << name << ": a refused text was changed";
  }
  if (!error) {
    EXPECT_TRUE(in_place == slow) << name << ": read in place, another snapshot";
  }
  return took;
}

TEST(FastReader, EveryFixtureLoadsTheSameBothWays) {
  int fixtures = 0, fast = 0;
  for (const auto& e :
       std::filesystem::directory_iterator(testing::source_path("fixtures/hosts"))) {
    if (e.path().extension() != ".yaml") continue;
    ++fixtures;
    std::string text = slurp(e.path());
    if (agree(text, e.path().filename().string())) {
      ++fast;
    } else {
      Snapshot ignored;
      auto at = fast_reader_stop(text, ignored);
      auto line =
          std::count(text.begin(), text.begin() + std::ptrdiff_t(std::min(at, text.size())), '\n') +
          1;
      ADD_FAILURE() << e.path().filename() << ": the fast reader gave up at line " << line << ": "
                    << text.substr(at, 80);
    }
    // What the writer makes of it is in the subset by construction.
    Snapshot s;
    ASSERT_FALSE(parse_snapshot(text, "f.yaml", s));
    std::string saved = write_snapshot(s);
    EXPECT_TRUE(agree(saved, "saved " + e.path().filename().string()))
        << e.path() << ": the writer's output left the fast subset";
  }
  EXPECT_GE(fixtures, 20);
  // The hand-written fixtures use comments, free order and quoted text over
  // several lines; all are in the subset today. Fewer would not be wrong, only
  // slower: this says when one leaves it, and where.
  EXPECT_EQ(fast, fixtures);
}

TEST(FastReader, EverySynthesisedPresetLoadsTheSameBothWays) {
  int presets = 0;
  for (const auto& name : sim::preset_names()) {
    auto text = sim::preset_spec(name);
    ASSERT_TRUE(text) << name;
    sim::HostSpec spec;
    ASSERT_FALSE(sim::parse_spec(*text, name, spec)) << name;
    std::string saved = write_snapshot(sim::synthesize(spec));
    EXPECT_TRUE(agree(saved, name)) << name << ": the writer's output left the fast subset";
    ++presets;
  }
  EXPECT_GT(presets, 10);
}

const std::string kHead = "schema: hwaccel-snapshot/1\n";

TEST(FastReader, ReadsTheWritersForms) {
  std::string text =
      kHead +
      "host:\n  label: gx10   # a comment\n  origin: hand-written\n"
      "  redacted: true\n"
      "facts:\n  cpus: 20\n  page_size: \"4096\"\n  kernel: \"6.17\"\n"
      "env:\n  PATH: /usr/bin:/bin\n  \"odd key\": \"a\\tb\\e[0m\\x01\\u00e9\"\n"
      "files:\n"
      "  # comments between entries\n"
      "  /proc/meminfo: |\n    MemTotal: 1 kB\n\n    Free: 2\n"
      "  /a: |-\n    no final newline\n"
      "  /b: |+\n    kept\n\n\n"
      "  /c: |2\n      starts with blanks\n    then less\n"
      "  /d: {link: ../../x}\n  /e: {absent: true}\n  /f: {error: EACCES}\n"
      "  /g: {dir: [b, \"a\", c]}\n  /h: {type: char}\n  /i: {base64: \"3hAzIw==\"}\n"
      "  /j:\n  /k: \"\"\n"
      "tools:\n  - argv: [nvidia-smi, \"-L\"]\n    exit: 0\n    stdout: |\n"
      "      GPU 0: x\n    stderr: \"\"\n    ms: 48\n"
      "  - argv: [hl-smi]\n    outcome: signal:9\n";
  Snapshot s;
  ASSERT_TRUE(read_snapshot_fast(text, s));
  EXPECT_TRUE(agree(text, "forms.yaml"));
  EXPECT_EQ(s.files.at("/proc/meminfo").bytes, "MemTotal: 1 kB\n\nFree: 2\n");
  EXPECT_EQ(s.files.at("/a").bytes, "no final newline");
  EXPECT_EQ(s.files.at("/b").bytes, "kept\n\n\n");
  EXPECT_EQ(s.files.at("/c").bytes, "  starts with blanks\nthen less\n");
  EXPECT_EQ(s.files.at("/g").names, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(s.files.at("/i").bytes, "\xde\x10\x33\x23");
  EXPECT_EQ(s.files.at("/j").bytes, "");
  EXPECT_EQ(s.env.at("odd key"), "a\tb\x1b[0m\x01\xc3\xa9");
  EXPECT_EQ(s.tools.size(), 2u);
  EXPECT_EQ(s.tools.begin()->second.run.outcome, ToolOutcome::signal);
}

// The plain-text check goes eight bytes at a time: a control byte or DEL is
// refused wherever it falls in a word, a tab or line break is not, and text
// past ASCII is still checked as UTF-8.
TEST(FastReader, PlainTextCheckSeesEveryByteOfAWord) {
  const std::string base = kHead + "files:\n  /a: \"0123456789abcdefghijklmnop\"\n";
  Snapshot s;
  ASSERT_EQ(fast_reader_stop(base, s), std::string_view::npos);
  const std::size_t from = base.find('0');
  for (char bad : {'\x01', '\x1f', '\x7f', '\r'}) {
    for (std::size_t i = from; i < from + 20; ++i) {
      std::string text = base;
      text[i] = bad;
      Snapshot ignored;
      EXPECT_EQ(fast_reader_stop(text, ignored), 0u) << int(bad) << " at " << i;
    }
  }
  // Every place of texts of every length modulo 16: the sixteen-byte blocks
  // (SSE2), the eight-byte word after them and the last bytes one by one.
  for (std::size_t pad = 0; pad < 16; ++pad) {
    const std::string padded = kHead + "files:\n  /a: \"" + std::string(pad, 'x') + "\"\n";
    ASSERT_EQ(fast_reader_stop(padded, s), std::string_view::npos) << pad;
    for (char bad : {'\x00', '\x08', '\x0b', '\x1f', '\x7f'}) {
      for (std::size_t i = 0; i < padded.size(); ++i) {
        std::string text = padded;
        text[i] = bad;
        Snapshot ignored;
        EXPECT_EQ(fast_reader_stop(text, ignored), 0u) << pad << " " << int(bad) << " at " << i;
      }
    }
  }
  EXPECT_EQ(fast_reader_stop(kHead + "files:\n  /a: |\n    x\ty\n", s), std::string_view::npos);
  EXPECT_EQ(s.files.at("/a").bytes, "x\ty\n");
  EXPECT_EQ(fast_reader_stop(kHead + "files:\n  /a: \"caf\xc3\xa9 \"\n", s),
            std::string_view::npos);
  EXPECT_EQ(fast_reader_stop(kHead + "files:\n  /a: \"caf\xc3 \"\n", s), 0u);
  EXPECT_EQ(fast_reader_stop(kHead + "files:\n  /a: \"\xef\xbb\xbf\"\n", s), 0u);
}

TEST(FastReader, ReadsQuotedTextOverSeveralLines) {
  std::string text = kHead +
                     "tools:\n  - argv: [nvidia-smi, topo, \"-m\"]\n    exit: 0\n"
                     "    stdout: \"\\tGPU0\\tGPU1\\n\\\n      GPU0\\t X \\n\\\n      end\"\n"
                     "  - argv: [a, --json-output]\n    stdout: \"folded\n      line\"\n";
  Snapshot s;
  ASSERT_TRUE(read_snapshot_fast(text, s)) << text;
  EXPECT_TRUE(agree(text, "multiline.yaml"));
  EXPECT_EQ(s.tools.at({"nvidia-smi", "topo", "-m"}).run.out, "\tGPU0\tGPU1\nGPU0\t X \nend");
  EXPECT_EQ(s.tools.at({"a", "--json-output"}).run.out, "folded line");
}

// A file's block longer than half of the text is un-indented into the text's
// own buffer, which becomes its bytes; every chomping form, blank lines inside
// and at the end, and the explicit indentation read as from a view.
TEST(FastReader, TakesTheTextForABlockLongerThanHalfOfIt) {
  std::string lines;
  for (int i = 0; i < 200; ++i) lines += "    processor\t: " + std::to_string(i) + "\n\n";
  const std::vector<std::pair<std::string, std::string>> blocks = {
      {"|", lines},
      {"|-", lines},
      {"|+", lines + "\n\n"},
      {"|", lines + "\n"},
      {"|2", "      two more\n" + lines},
  };
  for (const auto& [header, body] : blocks) {
    const std::string text = kHead + "host:\n  label: x\nfiles:\n  /small: |\n    a\n" +
                             "  /proc/cpuinfo: " + header + "\n" + body + "  /after: b\n" +
                             "tools:\n  - argv: [a]\n    stdout: |\n      out\n";
    Snapshot from_view;
    ASSERT_TRUE(read_snapshot_fast(text, from_view)) << header;
    std::string owned = text;
    const char* buffer = owned.data();
    Snapshot s;
    ASSERT_EQ(fast_reader_stop(owned, s, nullptr, &owned), std::string_view::npos) << header;
    EXPECT_TRUE(s == from_view) << header;
    EXPECT_EQ(s.files.at("/proc/cpuinfo").bytes.data(), buffer) << header << ": copied";
    EXPECT_EQ(s.files.at("/small").bytes, "a\n");
    EXPECT_EQ(s.files.at("/after").bytes, "b");
    EXPECT_TRUE(agree(text, "in-place " + header));
  }
  // Shorter than half: copied, the text left to the caller.
  const std::string small = kHead + "files:\n  /a: |\n    x\n  /b: " + std::string(40, 'y') + "\n";
  std::string owned = small;
  Snapshot s;
  ASSERT_EQ(fast_reader_stop(owned, s, nullptr, &owned), std::string_view::npos);
  EXPECT_EQ(owned, small);
  EXPECT_EQ(s.files.at("/a").bytes, "x\n");
}

// A text the fast reader gives up on after the long block (here a duplicate
// path) is left whole for yaml-cpp, which refuses it with its located error.
TEST(FastReader, LeavesTheTextWholeWhenItGivesUp) {
  std::string lines;
  for (int i = 0; i < 100; ++i) lines += "    line " + std::to_string(i) + "\n";
  const std::string text = kHead + "files:\n  /a: |\n" + lines + "  /a: again\n";
  std::string owned = text;
  Snapshot s;
  EXPECT_NE(fast_reader_stop(owned, s, nullptr, &owned), std::string_view::npos);
  EXPECT_EQ(owned, text);
  agree(text, "duplicate.yaml");
}

// Forms outside the subset, and contract violations: the fast reader gives up,
// and parse_snapshot still loads or refuses them exactly as yaml-cpp does.
TEST(FastReader, FallsBackOutsideTheSubset) {
  const std::vector<std::string> texts = {
      kHead + "files:\n  /x: \"folded\n\n    over a blank line\"\n",
      kHead + "files:\n  /x: \"trailing blank \n    then more\"\n",
      kHead + "files:\n  /x: \"not indented\n  enough\"\n",
      kHead + "files:\n  /x: 'single'\n",
      kHead + "files:\n  /x: >\n    folded\n",
      kHead + "files:\n  /x:\n    link: y\n",
      kHead + "tools:\n- argv: [a]\n",
      kHead + "tools:\n  - argv:\n      - a\n",
      kHead + "env:\n  A: &x 1\n  B: *x\n",
      kHead + "env:\n  A: null\n",
      kHead + "env:\n  A: ~\n",
      kHead + "env:\n  A: 1\n  A: 2\n",
      kHead + "files:\n  relative: x\n",
      kHead + "files:\n  /a/../b: x\n",
      kHead + "files:\n  /a//b: x\n  /a/b: y\n",
      kHead + "files:\n  /a: {error: ENOPE}\n",
      kHead + "files:\n  /a: {absent: false}\n",
      kHead + "files:\n  /a: {absent: true, link: x}\n",
      kHead + "files:\n  /a: {dir: [a/b]}\n",
      kHead + "host:\n  colour: blue\n",
      kHead + "host:\n",
      kHead + "facts:\n  cpus: -1\n",
      kHead + "facts:\n  cpus: 0x10\n",
      kHead + "tools:\n  - argv: [a]\n    exit: 300\n",
      kHead + "tools:\n  - argv: [a]\n  - argv: [a]\n",
      kHead + "tools:\n  - argv: [a]\n    stdout: x\n    stdout_base64: eA==\n",
      "schema: hwaccel-snapshot/2\n",
      "host:\n  label: x\n",
      "---\n" + kHead,
      kHead + "env:\n\tA: 1\n",
      kHead + "env:\r\n  A: 1\r\n",
      "\xef\xbb\xbf" + kHead,
      kHead + "env:\n  A: \"\\N\"\n",
      kHead + "env:\n  A: \"\\ud800\"\n",
      kHead + "env:\n  A: b: c\n",
      kHead + "env:\n  A: multi\n    line plain\n",
      // Found by tests/fuzz/snapshot_fast_reader_fuzz.cpp: yaml-cpp refuses this.
      kHead + "files:\n  /a: {link: ../devices/0000:9a:0? 0}\n",
      kHead + "env:\n  A: a ? b\n",
      // Found by the fuzzer's 600 s run: a '?' ending a plain scalar in a flow list.
      kHead + "tools:\n  - argv: [test, -r, /dev/accel1? , -a]\n    exit: 0\n",
      kHead + "tools:\n  - argv: [a?b]\n    exit: 0\n",
  };
  for (const auto& text : texts) {
    Snapshot s;
    EXPECT_FALSE(read_snapshot_fast(text, s)) << text;
    agree(text, "fallback.yaml");
  }
}

TEST(FastReader, ErrorsStayLocated) {
  Snapshot s;
  auto error = parse_snapshot(kHead + "files:\n  /ok: x\n  relative: y\n", "host.yaml", s);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->file, "host.yaml");
  EXPECT_EQ(error->line, 4);
  EXPECT_EQ(error->column, 3);
  EXPECT_NE(error->message.find("relative"), std::string::npos);
}

// The untrusted-input limits hold on the fast path: past the node limit it
// gives up, and the yaml-cpp path refuses the text with a located error
// (tests/unit/snapshot/snapshot_limits_test.cpp, through parse_snapshot).
TEST(FastReader, NodeLimitIsCountedOnTheFastPath) {
  std::string text = kHead + "files:\n";
  // Each {dir: [n]} entry is five nodes; enough entries to pass the limit.
  std::size_t entries = kMaxSnapshotNodes / 5 + 1;
  text.reserve(entries * 24);
  for (std::size_t i = 0; i < entries; ++i) text += "  /d" + std::to_string(i) + ": {dir: [n]}\n";
  Snapshot s;
  EXPECT_FALSE(read_snapshot_fast(text, s));
  text.resize(text.size() / 2);
  text.resize(text.rfind('\n') + 1);
  EXPECT_TRUE(read_snapshot_fast(text, s));
}

}  // namespace
}  // namespace hwaccel
