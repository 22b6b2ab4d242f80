// libFuzzer target: no snapshot makes a tool shim run a second command. The shim
// for fuzzed argv words, tool name, data folder and sleep program is lexed with
// POSIX sh's quoting rules (tests/support/sh_words.h); with every quoted word
// replaced by a placeholder, its skeleton must equal that of a benign input of
// the same shape (words "w"): any byte of snapshot text outside quotes (a newline
// ending a comment, a ';', a '$(') changes the skeleton. Each quoted word must
// decode to exactly its text, and shim_quote() must be one word for any input.
// Built only with HWACCEL_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); run by ci/fuzz.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "sim/shim_script.h"
#include "tests/support/sh_words.h"

namespace {

using hwaccel::ToolEntry;
using hwaccel::ToolOutcome;

std::vector<std::string> split(std::string_view text, char by) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i)
    if (i == text.size() || text[i] == by) {
      parts.emplace_back(text.substr(start, i - start));
      start = i + 1;
    }
  return parts;
}

// Same shape, nothing hostile: what decides the script's structure is kept.
std::string benign(const std::string& word) {
  std::string out = !word.empty() && word[0] == '/' ? "/w" : "w";  // absolute stays absolute
  if (word.find('\0') != std::string::npos) out += '\0';           // a skipped run stays skipped
  return out;
}

struct Shim {
  std::vector<ToolEntry> tools;
  std::string name, data_dir, sleep;
};

std::string script(const Shim& shim) {
  std::vector<hwaccel::sim::ShimRun> runs;
  for (std::size_t i = 0; i < shim.tools.size(); ++i)
    runs.push_back({&shim.tools[i], std::to_string(i)});
  return hwaccel::sim::shim_script(shim.name, runs, shim.data_dir, shim.sleep);
}

Shim benign(const Shim& shim) {
  Shim out = shim;
  out.name = benign(shim.name);
  out.data_dir = benign(shim.data_dir);
  out.sleep = shim.sleep.empty() ? "" : "/s";
  for (auto& tool : out.tools)
    for (auto& word : tool.argv) word = benign(word);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const unsigned flags = data[0];
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);

  auto quoted = hwaccel::testing::lex_sh(hwaccel::sim::shim_quote(text));
  if (!quoted.ok || quoted.skeleton != "Q" || quoted.words.size() != 1 || quoted.words[0] != text)
    std::abort();

  // Fields: name \x02 data-dir \x02 sleep \x02 run \x02 run ...; a run's words by \x01.
  auto fields = split(text, '\x02');
  Shim shim;
  shim.name = fields[0];
  shim.data_dir = fields.size() > 1 ? fields[1] : "../tools";
  shim.sleep = fields.size() > 2 && (flags & 1) ? fields[2] : "";
  for (std::size_t i = 3; i < fields.size() && i < 40; ++i) {
    ToolEntry tool;
    tool.argv = split(fields[i], '\x01');
    tool.argv.insert(tool.argv.begin(), shim.name);
    tool.run.outcome = static_cast<ToolOutcome>(((flags >> 1) + i) % 5);
    tool.run.exit_code = static_cast<int>(i);
    tool.run.signal = 9;
    tool.run.ms = (flags & 16) ? 7 : 0;
    if (flags & 32) tool.run.out = "o";
    if (flags & 64) tool.run.err = "e";
    shim.tools.push_back(std::move(tool));
  }

  const std::string hostile = script(shim);
  auto lexed = hwaccel::testing::lex_sh(hostile);
  auto expected = hwaccel::testing::lex_sh(script(benign(shim)));
  if (!lexed.ok || !expected.ok || lexed.skeleton != expected.skeleton) std::abort();
  // Every argv word of an answerable run is among the quoted words, whole.
  for (const auto& tool : shim.tools) {
    if (!hwaccel::sim::shim_answerable(tool.argv)) continue;
    for (std::size_t i = 1; i < tool.argv.size(); ++i) {
      bool found = false;
      for (const auto& w : lexed.words) found = found || w == tool.argv[i];
      if (!found) std::abort();
    }
  }
  return 0;
}
