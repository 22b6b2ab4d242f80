// Any snapshot, saved, reads back the same through the fast reader as through
// yaml-cpp, and the fast reader never needs the fallback for the writer's output.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "src/snapshot/fast_reader.h"

namespace hwaccel {
namespace {

// Bytes biased toward what makes YAML hard (as in snapshot_roundtrip_prop_test).
rc::Gen<std::string> tricky_bytes() {
  return rc::gen::resize(40, rc::gen::container<std::string>(rc::gen::oneOf(
                                 rc::gen::element('\n', ' ', '\t', ':', '#', '"', '\'', '-', '|',
                                                  '>', '\\', '\x1b', '\r', '\0', '[', ']', '{', '}',
                                                  ',', '&', '*', '!', '%', '@', '`', '~', '?'),
                                 rc::gen::inRange('a', 'z'), rc::gen::arbitrary<char>())));
}

// Valid UTF-8 text, with the code points YAML treats specially. Sized small:
// the generators nest (paths of names of parts), and sizes multiply.
rc::Gen<std::string> text() {
  auto part =
      rc::gen::oneOf(rc::gen::map(tricky_bytes(),
                                  [](std::string s) {
                                    for (char& c : s)
                                      if (static_cast<unsigned char>(c) >= 0x80) c = '?';
                                    return s;
                                  }),
                     rc::gen::element<std::string>(
                         "\xc3\xa9", "\xe2\x84\xa2", "\xf0\x9f\x98\x80", "\xc2\x85", "\xe2\x80\xa8",
                         "\xe2\x80\xa9", "\xef\xbb\xbf", "true", "null", "~", "- ", "? ", ": ",
                         " #", "\n\n", "  ", "0x1f", "...", "---", "-L", "--json"));
  return rc::gen::resize(6, rc::gen::map(rc::gen::container<std::vector<std::string>>(part),
                                         [](const std::vector<std::string>& parts) {
                                           std::string out;
                                           for (const auto& p : parts) out += p;
                                           return out;
                                         }));
}

rc::Gen<std::string> name() {
  return rc::gen::suchThat(text(), [](const std::string& s) {
    return !s.empty() && s != "." && s != ".." && s.find('/') == std::string::npos &&
           s.find('\0') == std::string::npos;
  });
}

rc::Gen<std::string> path() {
  return rc::gen::map(
      rc::gen::resize(4, rc::gen::nonEmpty(rc::gen::container<std::vector<std::string>>(name()))),
      [](const std::vector<std::string>& parts) {
        std::string p;
        for (const auto& part : parts) p += "/" + part;
        return p;
      });
}

rc::Gen<FileEntry> file_entry() {
  return rc::gen::oneOf(
      rc::gen::map(tricky_bytes(), [](std::string b) { return FileEntry::of_content(b); }),
      rc::gen::map(text(), [](std::string b) { return FileEntry::of_content(b); }),
      rc::gen::just(FileEntry::of_absent()),
      rc::gen::map(rc::gen::element(EACCES, EIO, EPERM, ENOENT, EBUSY),
                   [](int e) { return FileEntry::of_error(e); }),
      rc::gen::map(rc::gen::nonEmpty(text()),
                   [](std::string t) {
                     for (char& c : t)
                       if (c == '\0') c = 'x';
                     return FileEntry::of_link(t);
                   }),
      rc::gen::map(rc::gen::resize(6, rc::gen::container<std::set<std::string>>(name())),
                   [](const std::set<std::string>& n) {
                     return FileEntry::of_dir({n.begin(), n.end()});
                   }),
      rc::gen::map(rc::gen::element(FileKind::char_device, FileKind::block_device, FileKind::fifo,
                                    FileKind::socket),
                   [](FileKind k) { return FileEntry::of_node(k); }));
}

ToolEntry tool(std::vector<std::string> argv) {
  ToolEntry t;
  t.argv = std::move(argv);
  t.run.outcome =
      *rc::gen::element(ToolOutcome::exited, ToolOutcome::not_found, ToolOutcome::timeout,
                        ToolOutcome::signal, ToolOutcome::permission_denied);
  if (t.run.outcome == ToolOutcome::exited) t.run.exit_code = *rc::gen::inRange(0, 256);
  if (t.run.outcome == ToolOutcome::signal) t.run.signal = *rc::gen::inRange(1, 129);
  t.run.out = *rc::gen::oneOf(tricky_bytes(), text());
  t.run.err = *rc::gen::oneOf(tricky_bytes(), text());
  t.has_ms = *rc::gen::arbitrary<bool>();
  if (t.has_ms) t.run.ms = *rc::gen::inRange<std::int64_t>(0, 1'000'000);
  t.run.truncated = *rc::gen::arbitrary<bool>();
  return t;
}

RC_GTEST_PROP(SnapshotFastReader, WriterOutputReadsTheSameBothWays, ()) {
  Snapshot s;
  s.host.label = *text();
  s.host.origin =
      *rc::gen::element<std::string>("recorded", "synthesized", "imported", "hand-written");
  s.host.recorded_at = *text();
  s.host.recorder = *text();
  s.host.redacted = *rc::gen::arbitrary<bool>();
  s.facts.os = *text();
  s.facts.arch = *text();
  s.facts.kernel = *text();
  s.facts.hostname = *text();
  s.facts.cpus = *rc::gen::inRange<std::int64_t>(0, 100000);
  // 0 (unknown) or a page size some machine has: both readers refuse others.
  s.facts.page_size = *rc::gen::oneOf(
      rc::gen::just<std::int64_t>(0),
      rc::gen::map(rc::gen::inRange(10, 31), [](int shift) { return std::int64_t{1} << shift; }));
  s.env = *rc::gen::resize(
      8, rc::gen::container<std::map<std::string, std::string>>(rc::gen::nonEmpty(name()), text()));
  for (const auto& p : *rc::gen::resize(20, rc::gen::container<std::vector<std::string>>(path())))
    s.files[p] = *file_entry();
  auto argv_gen =
      rc::gen::resize(5, rc::gen::nonEmpty(rc::gen::container<std::vector<std::string>>(text())));
  for (const auto& argv :
       *rc::gen::resize(6, rc::gen::container<std::vector<std::vector<std::string>>>(argv_gen)))
    s.tools[argv] = tool(argv);

  std::string saved = write_snapshot(s);
  Snapshot slow;
  auto error = parse_snapshot_with_yaml_cpp(saved, "prop.yaml", slow);
  if (error) RC_FAIL("yaml-cpp refuses the writer's output: " + error->to_string() + "\n" + saved);
  Snapshot fast;
  if (!read_snapshot_fast(saved, fast)) RC_FAIL("the fast reader gave up on:\n" + saved);
  RC_ASSERT(fast == slow);
  RC_ASSERT(fast == s);
}

}  // namespace
}  // namespace hwaccel
