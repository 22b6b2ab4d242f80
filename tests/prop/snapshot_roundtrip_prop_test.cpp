// Any bytes a machine gives (file contents, tool output, argv, paths) survive
// save -> load unchanged, and saving is a fixed point.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "src/snapshot/snapshot_codec.h"

namespace hwaccel {
namespace {

// Strings biased toward what makes YAML hard: newlines, blanks, quotes,
// colons, escapes, non-ASCII and invalid UTF-8.
rc::Gen<std::string> tricky_text() {
  return rc::gen::container<std::string>(rc::gen::oneOf(
      rc::gen::element('\n', ' ', '\t', ':', '#', '"', '\'', '-', '|', '>', '\\', '\x1b', '\r',
                       '\0', '[', ']', '{', '}', ',', '&', '*', '!', '%', '@', '`'),
      rc::gen::inRange('a', 'z'), rc::gen::arbitrary<char>()));
}

// Text that is valid UTF-8: argv, env values, hostnames and labels are text
// (the codec has a base64 form only for file contents and tool output).
rc::Gen<std::string> utf8_text() {
  return rc::gen::map(
      rc::gen::container<std::vector<std::string>>(rc::gen::oneOf(
          rc::gen::map(tricky_text(),
                       [](std::string s) {
                         for (char& c : s)
                           if (static_cast<unsigned char>(c) >= 0x80) c = '?';
                         return s;
                       }),
          rc::gen::element<std::string>("\xc3\xa9", "\xe2\x84\xa2", "\xf0\x9f\x98\x80", "\xc2\x85",
                                        "\xe2\x80\xa8"))),
      [](const std::vector<std::string>& parts) {
        std::string out;
        for (const auto& p : parts) out += p;
        return out;
      });
}

rc::Gen<std::string> path_text() {
  return rc::gen::map(
      rc::gen::nonEmpty(rc::gen::container<std::vector<std::string>>(
          rc::gen::nonEmpty(rc::gen::container<std::string>(rc::gen::oneOf(
              rc::gen::inRange('a', 'z'), rc::gen::element(':', '.', '-', '_', ' ', '#')))))),
      [](const std::vector<std::string>& parts) {
        std::string path;
        for (auto part : parts) {
          if (part == "." || part == "..") part = "x" + part;
          path += "/" + part;
        }
        return path;
      });
}

RC_GTEST_PROP(SnapshotRoundTrip, AnyContentSurvives, ()) {
  Snapshot s;
  auto files = *rc::gen::container<std::map<std::string, std::string>>(path_text(), tricky_text());
  for (auto& [path, bytes] : files) s.files[path] = FileEntry::of_content(bytes);
  auto argv = *rc::gen::nonEmpty(rc::gen::container<std::vector<std::string>>(utf8_text()));
  ToolEntry tool;
  tool.argv = argv;
  tool.run.out = *tricky_text();
  tool.run.err = *tricky_text();
  tool.run.exit_code = *rc::gen::inRange(0, 256);
  s.tools[argv] = tool;
  s.env["VAR"] = *utf8_text();
  s.facts.hostname = *utf8_text();
  s.host.label = *utf8_text();

  std::string saved = write_snapshot(s);
  Snapshot back;
  auto error = parse_snapshot(saved, "prop.yaml", back);
  if (error) RC_FAIL(error->to_string() + "\n" + saved);
  RC_ASSERT(back == s);
  RC_ASSERT(write_snapshot(back) == saved);
}

}  // namespace
}  // namespace hwaccel
