// Loading a snapshot from YAML, refusing anything that breaks the contract with
// an error that names the file, the line and what was expected.
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <set>
#include <sstream>

#include "src/snapshot/encoding.h"
#include "src/snapshot/fast_reader.h"
#include "src/snapshot/limits.h"
#include "src/snapshot/snapshot_codec.h"
#include "src/vocabulary/path.h"
#include "src/vocabulary/result.h"

namespace hwaccel {

std::string SnapshotError::to_string() const {
  std::string where = file;
  if (line > 0) where += ":" + std::to_string(line);
  if (line > 0 && column > 0) where += ":" + std::to_string(column);
  return where + ": " + message;
}

namespace {

// Thrown inside the reader only; parse_snapshot turns it into a SnapshotError.
struct Refusal {
  YAML::Mark mark;
  std::string message;
};

[[noreturn]] void refuse(const YAML::Node& at, std::string message) {
  throw Refusal{at.Mark(), std::move(message)};
}

// The first pass over an untrusted text: yaml-cpp's events, no node tree. It
// refuses what would make the tree (or our reading of it) unbounded: nesting
// deeper than kMaxSnapshotDepth (yaml-cpp recurses per level), more than
// kMaxSnapshotNodes nodes, and anchors and aliases (a few lines of `&a [*b, *b,
// ...]` expand to billions of nodes for whoever walks them, and no snapshot
// needs them: the writer never emits one). Throws Refusal at the offending mark.
class LimitScan : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override { node(mark, anchor); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override {
    throw Refusal{mark, "aliases (*name) are not allowed in snapshots"};
  }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                const std::string&) override {
    node(mark, anchor);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    enter(mark, anchor);
  }
  void OnSequenceEnd() override { --depth_; }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    enter(mark, anchor);
  }
  void OnMapEnd() override { --depth_; }
  void OnAnchor(const YAML::Mark& mark, const std::string& name) override {
    throw Refusal{mark, "anchors (&" + name + ") are not allowed in snapshots"};
  }

 private:
  void node(const YAML::Mark& mark, YAML::anchor_t anchor) {
    if (anchor != YAML::NullAnchor)
      throw Refusal{mark, "anchors (&name) are not allowed in snapshots"};
    if (++nodes_ > kMaxSnapshotNodes)
      throw Refusal{mark, "more than " + std::to_string(kMaxSnapshotNodes) +
                              " YAML nodes; a snapshot this large is refused"};
  }
  void enter(const YAML::Mark& mark, YAML::anchor_t anchor) {
    node(mark, anchor);
    if (++depth_ > kMaxSnapshotDepth)
      throw Refusal{mark, "lists and maps nested more than " + std::to_string(kMaxSnapshotDepth) +
                              " deep; a snapshot needs a few levels"};
  }

  int depth_ = 0;
  std::size_t nodes_ = 0;
};

// Runs LimitScan over the document YAML::Load reads (the first one).
void check_limits(const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  LimitScan scan;
  parser.HandleNextDocument(scan);
}

std::string kind_name(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map:
      return "a map";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Scalar:
      return "a scalar";
    case YAML::NodeType::Null:
      return "nothing";
    default:
      return "an undefined node";
  }
}

std::string as_string(const YAML::Node& n, std::string_view what) {
  if (!n.IsScalar()) refuse(n, std::string(what) + ": expected a string, found " + kind_name(n));
  return n.Scalar();
}

std::int64_t as_int(const YAML::Node& n, std::string_view what) {
  if (!n.IsScalar()) refuse(n, std::string(what) + ": expected an integer, found " + kind_name(n));
  std::string text = n.Scalar();
  std::int64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size())
    refuse(n, std::string(what) + ": expected an integer, found \"" + text + "\"");
  return v;
}

bool as_bool(const YAML::Node& n, std::string_view what) {
  if (!n.IsScalar())
    refuse(n, std::string(what) + ": expected true or false, found " + kind_name(n));
  std::string text = n.Scalar();
  if (text == "true") return true;
  if (text == "false") return false;
  refuse(n, std::string(what) + ": expected true or false, found \"" + text + "\"");
}

void expect_map(const YAML::Node& n, std::string_view what) {
  if (!n.IsMap()) refuse(n, std::string(what) + ": expected a map, found " + kind_name(n));
}

// Every key of `n` must be one of `allowed`; typos are refused, not ignored.
void only_keys(const YAML::Node& n, std::string_view what,
               std::initializer_list<std::string_view> allowed) {
  std::set<std::string> seen;
  for (const auto& kv : n) {
    std::string key = as_string(kv.first, what);
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      std::string list;
      for (auto a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      refuse(kv.first,
             std::string(what) + ": unknown key \"" + key + "\" (expected one of: " + list + ")");
    }
    if (!seen.insert(key).second)
      refuse(kv.first, std::string(what) + ": duplicate key \"" + key + "\"");
  }
}

std::string bytes_field(const YAML::Node& n, std::string_view what) {
  std::string text = as_string(n, what);
  auto decoded = base64_decode(text);
  if (!decoded) refuse(n, std::string(what) + ": expected base64 text");
  return *decoded;
}

void read_host(const YAML::Node& n, SnapshotInfo& info) {
  expect_map(n, "host");
  only_keys(n, "host", {"label", "origin", "recorded_at", "recorder", "redacted"});
  if (n["label"]) info.label = as_string(n["label"], "host.label");
  if (n["origin"]) {
    info.origin = as_string(n["origin"], "host.origin");
    static const std::set<std::string> origins = {"recorded", "synthesized", "imported",
                                                  "hand-written"};
    if (!origins.count(info.origin))
      refuse(n["origin"],
             "host.origin: expected recorded, synthesized, imported or hand-written, found \"" +
                 info.origin + "\"");
  }
  if (n["recorded_at"]) info.recorded_at = as_string(n["recorded_at"], "host.recorded_at");
  if (n["recorder"]) info.recorder = as_string(n["recorder"], "host.recorder");
  if (n["redacted"]) info.redacted = as_bool(n["redacted"], "host.redacted");
}

void read_facts(const YAML::Node& n, Facts& f) {
  expect_map(n, "facts");
  only_keys(n, "facts", {"os", "arch", "kernel", "page_size", "cpus", "hostname"});
  if (n["os"]) f.os = as_string(n["os"], "facts.os");
  if (n["arch"]) f.arch = as_string(n["arch"], "facts.arch");
  if (n["kernel"]) f.kernel = as_string(n["kernel"], "facts.kernel");
  if (n["page_size"]) f.page_size = as_int(n["page_size"], "facts.page_size");
  if (n["cpus"]) f.cpus = as_int(n["cpus"], "facts.cpus");
  if (n["hostname"]) f.hostname = as_string(n["hostname"], "facts.hostname");
  if (f.cpus < 0)
    refuse(n["cpus"], "facts.cpus: expected a count of 0 or more, found " + std::to_string(f.cpus));
  if (!valid_page_size(f.page_size))
    refuse(n["page_size"],
           "facts.page_size: expected bytes, a power of two from 1024 to 1 GiB "
           "(or 0: unknown), found " +
               std::to_string(f.page_size));
}

void read_env(const YAML::Node& n, std::map<std::string, std::string>& env) {
  expect_map(n, "env");
  for (const auto& kv : n) {
    std::string name = as_string(kv.first, "env");
    std::string value = as_string(kv.second, "env: " + name);
    if (!env.emplace(name, std::move(value)).second)
      refuse(kv.first, "env: duplicate key \"" + name + "\" (each variable once)");
  }
}

std::string checked_path(const YAML::Node& key) {
  std::string raw = as_string(key, "files");
  if (raw.find('\0') != std::string::npos)
    refuse(key, "files: path \"" + raw.substr(0, raw.find('\0')) + "...\" holds a NUL byte");
  if (raw.empty() || raw.front() != '/')
    refuse(key, "files: path \"" + raw + "\" is relative; snapshot paths must be absolute");
  if (has_dotdot(raw))
    refuse(key, "files: path \"" + raw + "\" contains \"..\"; snapshot paths must be normalised");
  return *normalize_absolute(raw);
}

FileEntry read_file_entry(const YAML::Node& v, const std::string& path) {
  const std::string what = "files: " + path;
  if (v.IsScalar()) return FileEntry::of_content(v.Scalar());
  if (v.IsNull()) return FileEntry::of_content("");
  if (!v.IsMap())
    refuse(
        v,
        what +
            ": expected file contents or a map with one of absent, error, link, dir, type, base64");
  only_keys(v, what, {"absent", "error", "link", "dir", "type", "base64"});
  if (v.size() != 1)
    refuse(v, what + ": expected exactly one of absent, error, link, dir, type, base64");
  if (v["absent"]) {
    if (!as_bool(v["absent"], what + ": absent"))
      refuse(v["absent"], what + ": absent must be true");
    return FileEntry::of_absent();
  }
  if (v["error"]) {
    std::string name = as_string(v["error"], what + ": error");
    int code = errno_from_name(name);
    if (code == 0)
      refuse(v["error"],
             what + ": error: unknown errno name \"" + name + "\" (expected EACCES, EIO, ...)");
    return FileEntry::of_error(code);
  }
  if (v["link"]) {
    std::string target = as_string(v["link"], what + ": link");
    if (target.empty() || target.find('\0') != std::string::npos)
      refuse(v["link"], what + ": link: expected a non-empty target");
    return FileEntry::of_link(target);
  }
  if (v["dir"]) {
    const YAML::Node& list = v["dir"];
    if (!list.IsSequence()) refuse(list, what + ": dir: expected a list of names");
    std::vector<std::string> names;
    for (const auto& item : list) {
      std::string name = as_string(item, what + ": dir");
      if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos ||
          name.find('\0') != std::string::npos)
        refuse(item, what + ": dir: \"" + name + "\" is not a file name");
      names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return FileEntry::of_dir(std::move(names));
  }
  if (v["type"]) {
    std::string type = as_string(v["type"], what + ": type");
    if (type == "char") return FileEntry::of_node(FileKind::char_device);
    if (type == "block") return FileEntry::of_node(FileKind::block_device);
    if (type == "fifo") return FileEntry::of_node(FileKind::fifo);
    if (type == "socket") return FileEntry::of_node(FileKind::socket);
    refuse(v["type"],
           what + ": type: expected char, block, fifo or socket, found \"" + type + "\"");
  }
  return FileEntry::of_content(bytes_field(v["base64"], what + ": base64"));
}

void read_files(const YAML::Node& n, std::map<std::string, FileEntry>& files) {
  if (n.IsNull()) return;
  expect_map(n, "files");
  for (const auto& kv : n) {
    std::string path = checked_path(kv.first);
    FileEntry entry = read_file_entry(kv.second, path);
    if (!files.emplace(path, std::move(entry)).second)
      refuse(kv.first, "files: path \"" + path + "\" appears twice");
  }
}

void read_outcome(const YAML::Node& n, ToolRun& run) {
  std::string text = as_string(n, "tools: outcome");
  if (text == "exited")
    run.outcome = ToolOutcome::exited;
  else if (text == "not-found")
    run.outcome = ToolOutcome::not_found;
  else if (text == "timeout")
    run.outcome = ToolOutcome::timeout;
  else if (text == "permission-denied")
    run.outcome = ToolOutcome::permission_denied;
  else if (text.rfind("signal:", 0) == 0) {
    int sig = 0;
    auto digits = std::string_view(text).substr(7);
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), sig);
    if (ec != std::errc() || ptr != digits.data() + digits.size() || sig <= 0 || sig > 128)
      refuse(n, "tools: outcome: expected signal:N with N a signal number, found \"" + text + "\"");
    run.outcome = ToolOutcome::signal;
    run.signal = sig;
  } else {
    refuse(n,
           "tools: outcome: expected exited, not-found, timeout, signal:N or permission-denied, "
           "found \"" +
               text + "\"");
  }
}

ToolEntry read_tool(const YAML::Node& n) {
  expect_map(n, "tools");
  only_keys(n, "tools",
            {"argv", "outcome", "exit", "stdout", "stderr", "stdout_base64", "stderr_base64", "ms",
             "truncated"});
  ToolEntry tool;
  const YAML::Node& argv = n["argv"];
  if (!argv) refuse(n, "tools: every tool needs an argv");
  if (!argv.IsSequence() || argv.size() == 0)
    refuse(argv, "tools: argv: expected a non-empty list of strings");
  for (const auto& a : argv) tool.argv.push_back(as_string(a, "tools: argv"));
  if (n["outcome"]) read_outcome(n["outcome"], tool.run);
  if (n["exit"]) {
    auto code = as_int(n["exit"], "tools: exit");
    if (code < 0 || code > 255) refuse(n["exit"], "tools: exit: expected 0..255");
    tool.run.exit_code = int(code);
  }
  if (n["stdout"] && n["stdout_base64"]) refuse(n, "tools: stdout given twice");
  if (n["stderr"] && n["stderr_base64"]) refuse(n, "tools: stderr given twice");
  if (n["stdout"] && !n["stdout"].IsNull()) tool.run.out = as_string(n["stdout"], "tools: stdout");
  if (n["stderr"] && !n["stderr"].IsNull()) tool.run.err = as_string(n["stderr"], "tools: stderr");
  if (n["stdout_base64"]) tool.run.out = bytes_field(n["stdout_base64"], "tools: stdout_base64");
  if (n["stderr_base64"]) tool.run.err = bytes_field(n["stderr_base64"], "tools: stderr_base64");
  if (n["ms"]) {
    tool.run.ms = as_int(n["ms"], "tools: ms");
    if (tool.run.ms < 0)
      refuse(n["ms"],
             "tools: ms: expected milliseconds, 0 or more, found " + std::to_string(tool.run.ms));
    tool.has_ms = true;
  }
  if (n["truncated"]) tool.run.truncated = as_bool(n["truncated"], "tools: truncated");
  return tool;
}

void read_document(const YAML::Node& root, Snapshot& out) {
  if (!root.IsMap()) refuse(root, "expected a snapshot (a map with schema: hwaccel-snapshot/1)");
  only_keys(root, "snapshot", {"schema", "host", "facts", "env", "files", "tools"});
  const YAML::Node& schema = root["schema"];
  if (!schema) refuse(root, "missing \"schema: hwaccel-snapshot/1\"");
  std::string text = as_string(schema, "schema");
  const std::string prefix = "hwaccel-snapshot/";
  if (text.rfind(prefix, 0) != 0)
    refuse(schema, "schema: expected hwaccel-snapshot/1, found \"" + text + "\"");
  auto version = text.substr(prefix.size());
  if (version != std::to_string(kSnapshotSchemaMajor))
    refuse(schema, "schema: version " + version +
                       " is not supported (this build reads hwaccel-snapshot/" +
                       std::to_string(kSnapshotSchemaMajor) + ")");
  out.schema_major = kSnapshotSchemaMajor;
  if (root["host"]) read_host(root["host"], out.host);
  if (root["facts"]) read_facts(root["facts"], out.facts);
  if (root["env"] && !root["env"].IsNull()) read_env(root["env"], out.env);
  if (root["files"]) read_files(root["files"], out.files);
  if (root["tools"] && !root["tools"].IsNull()) {
    if (!root["tools"].IsSequence()) refuse(root["tools"], "tools: expected a list of tool runs");
    for (const auto& item : root["tools"]) {
      ToolEntry tool = read_tool(item);
      auto argv = tool.argv;
      if (!out.tools.emplace(argv, std::move(tool)).second)
        refuse(item, "tools: the same argv appears twice");
    }
  }
}

}  // namespace

namespace {

// parse_snapshot, and parse_snapshot_in_place with the string `text` views.
std::optional<SnapshotError> parse_text(std::string_view text, std::string_view file_name,
                                        Snapshot& out, std::string* in_place) {
  // The fast reader takes what the writer emits; anything else, and every
  // error, goes through yaml-cpp for a located message.
  if (text.size() > kMaxSnapshotBytes || text.size() <= kMaxYamlCppSnapshotBytes) {
    if (text.size() <= kMaxSnapshotBytes &&
        fast_reader_stop(text, out, nullptr, in_place) == std::string_view::npos)
      return std::nullopt;
    return parse_snapshot_with_yaml_cpp(text, file_name, out);
  }
  // Too large for yaml-cpp in bounded time: the fast reader's form only.
  std::string limit;
  std::size_t stop = fast_reader_stop(text, out, &limit, in_place);
  if (stop == std::string_view::npos) return std::nullopt;
  out = Snapshot{};
  SnapshotError error;
  error.file = std::string(file_name);
  stop = std::min(stop, text.size());
  std::size_t line_start = text.rfind('\n', stop == 0 ? 0 : stop - 1);
  line_start = line_start == std::string_view::npos || stop == 0 ? 0 : line_start + 1;
  error.line = 1 + int(std::count(text.begin(), text.begin() + std::ptrdiff_t(line_start), '\n'));
  error.column = 1 + int(stop - line_start);
  if (!limit.empty()) {
    error.message = limit;
    return error;
  }
  error.message =
      "not in the form hwaccel writes snapshots in (or not a valid snapshot) here; a "
      "snapshot over " +
      std::to_string(kMaxYamlCppSnapshotBytes >> 20) +
      " MiB is read only in that form (docs/snapshot-format.md, Semantics: limits)";
  return error;
}

}  // namespace

std::optional<SnapshotError> parse_snapshot(std::string_view text, std::string_view file_name,
                                            Snapshot& out) {
  return parse_text(text, file_name, out, nullptr);
}

std::optional<SnapshotError> parse_snapshot_in_place(std::string& text, std::string_view file_name,
                                                     Snapshot& out) {
  return parse_text(text, file_name, out, &text);
}

std::optional<SnapshotError> parse_snapshot_with_yaml_cpp(std::string_view text,
                                                          std::string_view file_name,
                                                          Snapshot& out) {
  out = Snapshot{};
  SnapshotError error;
  error.file = std::string(file_name);
  // The size first, before a byte is read: a 2 GB text is refused, not copied.
  if (text.size() > kMaxSnapshotBytes) {
    error.message = "the snapshot is " + std::to_string(text.size() >> 20) +
                    " MiB; snapshots larger than " + std::to_string(kMaxSnapshotBytes >> 20) +
                    " MiB are refused";
    return error;
  }
  if (text.find('\0') != std::string_view::npos) {
    error.message = "not a YAML text file (it holds NUL bytes)";
    return error;
  }
  try {
    std::string copy(text);
    check_limits(copy);
    YAML::Node root = YAML::Load(copy);
    read_document(root, out);
    return std::nullopt;
  } catch (const Refusal& r) {
    error.line = r.mark.line >= 0 ? r.mark.line + 1 : 0;
    error.column = r.mark.column >= 0 ? r.mark.column + 1 : 0;
    error.message = r.message;
  } catch (const YAML::DeepRecursion& e) {
    // yaml-cpp's own guard ("bad file"), should a construct nest that LimitScan
    // does not count; said plainly.
    error.line = e.mark.line >= 0 ? e.mark.line + 1 : 0;
    error.column = e.mark.column >= 0 ? e.mark.column + 1 : 0;
    error.message = "YAML nested too deeply (" + std::to_string(e.depth()) + " levels)";
  } catch (const YAML::Exception& e) {
    error.line = e.mark.line >= 0 ? e.mark.line + 1 : 0;
    error.column = e.mark.column >= 0 ? e.mark.column + 1 : 0;
    error.message = "broken YAML: " + e.msg;
  } catch (const std::exception& e) {
    error.message = std::string("cannot read the snapshot: ") + e.what();
  }
  out = Snapshot{};
  return error;
}

}  // namespace hwaccel
