// The fast snapshot reader (see fast_reader.h). Every check here mirrors one in
// snapshot_reader.cpp; where this reader is unsure what yaml-cpp would make of
// a construct, it gives up rather than guess.
//
// Why one file past 500 lines: it is one recursive-descent reader, a single
// class whose scanner (lines, scalars, flow lists) and document reader (facts,
// files, tools) call each other; its sections would have to share the class and
// its give-up rule through a header, and each check is read beside its twin in
// snapshot_reader.cpp, in the same order.
#include "src/snapshot/fast_reader.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <utility>

#include "src/snapshot/encoding.h"
#include "src/snapshot/limits.h"
#include "src/snapshot/plain_text.h"
#include "src/vocabulary/path.h"
#include "src/vocabulary/result.h"

namespace hwaccel {
namespace {

// Thrown when the text leaves the subset (or breaks the contract).
struct GiveUp {};

[[noreturn]] void give_up() {
  throw GiveUp{};
}

bool is_null_word(std::string_view s) {
  return s == "~" || s == "null" || s == "Null" || s == "NULL";
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

// A value as read: a string, nothing (`key:` with no value), or a collection.
struct Value {
  enum class Kind { scalar, null, flow_map, flow_list, empty_map, empty_list };
  Kind kind = Kind::null;
  std::string text;                // scalar; flow_map: the key
  std::vector<std::string> items;  // flow_list; flow_map whose value is a list
  bool map_value_is_list = false;  // flow_map
  std::string map_value;           // flow_map whose value is a scalar
  bool in_place = false;           // scalar: the block left in the text (Reader::InPlace)
};

class Reader {
 public:
  explicit Reader(std::string_view text) : t_(text) {}

  void document(Snapshot& out);
  // Where the reader gave up: at a limit, the line that passed it; else about
  // where the text left the subset.
  std::size_t position() const { return limit_.empty() ? p_ : limit_at_; }
  // Why, when it was a limit rather than the subset ("more than 1000000 YAML nodes...").
  const std::string& limit() const { return limit_; }
  // Lets a file's block scalar longer than half of the text stay in it until
  // finish_in_place (fast_reader_stop's `in_place`).
  void allow_in_place() { in_place_.allowed = true; }
  // After document(): un-indents the block left in the text into `owner`'s
  // buffer (the string t_ views) and moves that into the file's bytes.
  void finish_in_place(std::string& owner);

 private:
  // The one block scalar left in the text (at most one is longer than half of it).
  struct InPlace {
    bool allowed = false;                            // the caller gives its text
    bool files = false;                              // reading the values of `files:`
    bool held = false;                               // a block is waiting
    bool fresh = false;                              // the scalar just read is that block
    std::size_t first = 0, lines = 0, trailing = 0;  // as block_scalar counts them
    std::size_t content_indent = 0;
    char chomp = ' ';
    FileEntry* entry = nullptr;  // the file whose bytes it is (a map node: it stays put)
  };
  InPlace in_place_;

  std::string_view t_;
  std::size_t p_ = 0;
  std::size_t line_start_ = 0;  // of the line next_content_line stopped at
  std::size_t nodes_ = 1;       // the root map
  std::string limit_;
  std::size_t limit_at_ = 0;

  void count(std::size_t n = 1) {
    nodes_ += n;
    if (nodes_ > kMaxSnapshotNodes) {
      // The same words as the yaml-cpp path's LimitScan.
      limit_ = "more than " + std::to_string(kMaxSnapshotNodes) +
               " YAML nodes; a snapshot this large is refused";
      limit_at_ = line_start_;
      give_up();
    }
  }
  bool at_end() const { return p_ >= t_.size(); }
  char peek(std::size_t ahead = 0) const { return p_ + ahead < t_.size() ? t_[p_ + ahead] : '\n'; }
  bool at_eol() const { return at_end() || t_[p_] == '\n'; }
  void skip_spaces() {
    while (!at_end() && t_[p_] == ' ') ++p_;
  }
  void next_line() {
    while (!at_eol()) ++p_;
    if (!at_end()) ++p_;
  }

  // Skips blank and comment lines; stops at the start of the next line with
  // content and returns its indent, or -1 at the end of the text.
  int next_content_line();
  // After a value: spaces, then a comment or the end of the line.
  void end_of_value_line();

  std::string plain(bool flow);
  std::string double_quoted(int parent_indent = -1);
  std::string block_scalar(int key_indent);
  std::string flow_scalar();
  std::vector<std::string> flow_list();
  std::string key();
  Value value(int key_indent, bool block_scalar_allowed);

  void read_host(SnapshotInfo& info, const std::vector<std::pair<std::string, Value>>& entries);
  void read_facts(Facts& f, const std::vector<std::pair<std::string, Value>>& entries);
  std::vector<std::pair<std::string, Value>> block_map(int indent, const Value& head);
  // The same, each entry handed to `take(key, value)` as it is read (no vector of them).
  template <typename Take>
  void each_in_block_map(int indent, const Value& head, Take take);
  void read_file(std::map<std::string, FileEntry>& files, std::string& raw, Value& v);
  void read_tools(const Value& head, std::map<std::vector<std::string>, ToolEntry>& tools);
  ToolEntry read_tool(std::vector<std::pair<std::string, Value>>& fields);
};

int Reader::next_content_line() {
  while (!at_end()) {
    std::size_t start = p_;
    line_start_ = p_;
    while (!at_end() && t_[p_] == ' ') ++p_;
    if (!at_end() && t_[p_] == '\t') give_up();  // tabs near indentation: leave to yaml-cpp
    if (at_eol() || t_[p_] == '#') {
      next_line();
      continue;
    }
    int indent = int(p_ - start);
    return indent;
  }
  return -1;
}

void Reader::end_of_value_line() {
  std::size_t before = p_;
  skip_spaces();
  if (at_eol()) {
    next_line();
    return;
  }
  if (t_[p_] == '#' && p_ > before) {
    next_line();
    return;
  }
  give_up();
}

bool is_indicator(char c) {
  switch (c) {
    case '-':
    case '?':
    case ':':
    case ',':
    case '[':
    case ']':
    case '{':
    case '}':
    case '#':
    case '&':
    case '*':
    case '!':
    case '|':
    case '>':
    case '\'':
    case '"':
    case '%':
    case '@':
    case '`':
    case '<':
    case '=':
    case ' ':
    case '\t':
      return true;
    default:
      return false;
  }
}

// A plain scalar on one line. Stops before " #", ": " (a key's colon, which
// the caller checks), the end of the line and, in flow context, ",[]{}".
std::string Reader::plain(bool flow) {
  // "-x" is plain ("-L" in an argv); "- x", "-" and "---" are not.
  if (peek() == '-') {
    char next = peek(1);
    if (next == ' ' || next == '\n' || next == '\t' || t_.substr(p_, 3) == "---" ||
        (flow && (next == ',' || next == '[' || next == ']' || next == '{' || next == '}')))
      give_up();
  } else if (is_indicator(peek())) {
    give_up();
  }
  std::size_t start = p_;
  std::size_t end = p_;  // past the last non-space
  while (!at_eol()) {
    char c = t_[p_];
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) give_up();
    if (c == ' ') {
      // In a flow collection a blank ends the scalar (the writer puts none
      // there; yaml-cpp reads "a? b" in one as a key). In a block, a blank
      // before an indicator ("a ? b", "a - b") is left to yaml-cpp too.
      if (flow || peek(1) == '#') break;
      if (peek(1) != ' ' && is_indicator(peek(1))) give_up();
      ++p_;
      continue;
    }
    if (c == ':' && (peek(1) == ' ' || peek(1) == '\n' || p_ + 1 >= t_.size())) break;
    if (flow) {
      if (c == ',' || c == '[' || c == ']' || c == '{' || c == '}') break;
      // yaml-cpp reads "x? " inside a flow collection as a key indicator and
      // refuses "[a? , b]"; the writer quotes such text, so leave it to yaml-cpp.
      if (c == '?') give_up();
      if (c == ':' && (peek(1) == ',' || peek(1) == ']' || peek(1) == '}')) give_up();
    }
    ++p_;
    end = p_;
  }
  std::string s(t_.substr(start, end - start));
  if (s.empty() || is_null_word(s)) give_up();
  return s;
}

// A double-quoted scalar. With `parent_indent` >= 0 it may go on over lines
// indented deeper than that (the fixtures' "...\n\" form for tables): an
// escaped line break joins the lines, a plain one becomes a space; blank lines
// and trailing blanks, whose folding rules are subtle, are left to yaml-cpp.
std::string Reader::double_quoted(int parent_indent) {
  ++p_;  // the opening quote
  std::string out;
  auto continue_line = [&] {
    ++p_;  // the line break
    std::size_t spaces = 0;
    while (!at_end() && t_[p_] == ' ') ++p_, ++spaces;
    if (at_eol() || peek() == '\t' || int(spaces) <= parent_indent) give_up();
  };
  for (;;) {
    if (at_end()) give_up();
    if (t_[p_] == '\n') {
      if (parent_indent < 0) give_up();
      if (p_ > 0 && (t_[p_ - 1] == ' ' || t_[p_ - 1] == '\t')) give_up();
      out += ' ';
      continue_line();
      continue;
    }
    char c = t_[p_];
    auto u = static_cast<unsigned char>(c);
    if (c == '"') {
      ++p_;
      return out;
    }
    if (u < 0x20 || u == 0x7f) give_up();
    if (c != '\\') {
      std::size_t run = p_;
      while (run < t_.size() && t_[run] != '"' && t_[run] != '\\' &&
             static_cast<unsigned char>(t_[run]) >= 0x20 && t_[run] != 0x7f)
        ++run;
      out.append(t_.substr(p_, run - p_));
      p_ = run;
      continue;
    }
    ++p_;
    if (at_end()) give_up();
    if (t_[p_] == '\n') {  // an escaped line break: the lines join
      if (parent_indent < 0) give_up();
      continue_line();
      continue;
    }
    char e = t_[p_++];
    int hex_digits = 0;
    switch (e) {
      case '"':
        out += '"';
        continue;
      case '\\':
        out += '\\';
        continue;
      case '/':
        out += '/';
        continue;
      case 'n':
        out += '\n';
        continue;
      case 't':
        out += '\t';
        continue;
      case 'r':
        out += '\r';
        continue;
      case '0':
        out += '\0';
        continue;
      case 'e':
        out += '\x1b';
        continue;
      case 'a':
        out += '\a';
        continue;
      case 'b':
        out += '\b';
        continue;
      case 'f':
        out += '\f';
        continue;
      case 'v':
        out += '\v';
        continue;
      case ' ':
        out += ' ';
        continue;
      case 'L':
        out += "\xE2\x80\xA8";
        continue;
      case 'P':
        out += "\xE2\x80\xA9";
        continue;
      case 'x':
        hex_digits = 2;
        break;
      case 'u':
        hex_digits = 4;
        break;
      case 'U':
        hex_digits = 8;
        break;
      default:
        give_up();  // \N, \_ and the rest: yaml-cpp's own readings
    }
    if (p_ + std::size_t(hex_digits) > t_.size()) give_up();
    std::uint32_t cp = 0;
    auto [ptr, ec] = std::from_chars(t_.data() + p_, t_.data() + p_ + hex_digits, cp, 16);
    if (ec != std::errc() || ptr != t_.data() + p_ + hex_digits) give_up();
    p_ += std::size_t(hex_digits);
    if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) give_up();
    append_utf8(out, cp);
  }
}

// A literal block scalar ("|", "|-", "|+", "|2", ...); p_ is at the '|'.
std::string Reader::block_scalar(int key_indent) {
  ++p_;
  int indicator = 0;
  char chomp = ' ';
  for (int i = 0; i < 2 && !at_eol(); ++i) {
    char c = t_[p_];
    if (c >= '1' && c <= '9' && indicator == 0) {
      indicator = c - '0';
      ++p_;
    } else if ((c == '-' || c == '+') && chomp == ' ') {
      chomp = c;
      ++p_;
    } else {
      break;
    }
  }
  if (!at_eol()) give_up();  // comments and anything else after the header
  if (indicator != 0 && indicator != 2) give_up();
  if (at_end()) give_up();
  ++p_;  // the header's line break
  int content_indent = indicator ? key_indent + indicator : -1;
  // Two passes, no vector of lines: the first finds where the scalar ends and
  // how long it is, the second copies its lines into one allocation (a 446 KB
  // /proc/cpuinfo of 224 CPUs has 6,272 lines).
  const std::size_t first = p_;
  std::size_t count = 0, trailing = 0, size = 0;  // lines, empty ones at the end, content bytes
  while (!at_end()) {
    std::size_t line_start = p_;
    std::size_t eol = t_.find('\n', p_);
    if (eol == std::string_view::npos) give_up();  // no final line break
    std::string_view line = t_.substr(line_start, eol - line_start);
    if (line.empty()) {
      ++count;
      ++trailing;
      p_ = eol + 1;
      continue;
    }
    std::size_t spaces = line.find_first_not_of(' ');
    if (spaces == std::string_view::npos) give_up();  // blanks only: ambiguous
    if (content_indent < 0) {
      if (line[spaces] == '\t') give_up();  // a tab where indentation is detected
      if (int(spaces) <= key_indent) break;
      content_indent = int(spaces);
    }
    if (int(spaces) < content_indent) {
      if (line[spaces] == '\t') give_up();  // a tab inside the indentation
      break;
    }
    ++count;
    trailing = 0;
    size += line.size() - std::size_t(content_indent);
    p_ = eol + 1;
  }
  if (trailing == count) give_up();  // no content at all
  if (in_place_.allowed && in_place_.files && !in_place_.held && (p_ - first) * 2 > t_.size()) {
    in_place_.held = in_place_.fresh = true;
    in_place_.first = first;
    in_place_.lines = count;
    in_place_.trailing = trailing;
    in_place_.content_indent = std::size_t(content_indent);
    in_place_.chomp = chomp;
    return {};
  }
  std::string out;
  out.reserve(size + count + trailing);
  std::size_t q = first;
  for (std::size_t i = 0; i + trailing < count; ++i) {
    std::size_t eol = t_.find('\n', q);
    std::string_view line = t_.substr(q, eol - q);
    if (i) out += '\n';
    if (!line.empty()) out.append(line.substr(std::size_t(content_indent)));
    q = eol + 1;
  }
  if (chomp == '-') return out;
  out += '\n';
  if (chomp == '+') out.append(trailing, '\n');
  return out;
}

std::string Reader::flow_scalar() {
  if (peek() == '"') return double_quoted();
  return plain(true);
}

std::vector<std::string> Reader::flow_list() {
  ++p_;  // '['
  std::vector<std::string> items;
  skip_spaces();
  if (peek() == ']') {
    ++p_;
    return items;
  }
  for (;;) {
    skip_spaces();
    items.push_back(flow_scalar());
    skip_spaces();
    if (peek() == ',') {
      ++p_;
      skip_spaces();
      if (peek() == ']') give_up();
      continue;
    }
    if (peek() == ']') {
      ++p_;
      return items;
    }
    give_up();
  }
}

// A map key on one line, up to and past its ':'.
std::string Reader::key() {
  std::string k = peek() == '"' ? double_quoted() : plain(false);
  if (k.size() > 1000) give_up();  // yaml-cpp's limit on implicit keys is near
  if (peek() != ':') give_up();
  ++p_;
  if (!at_eol() && peek() != ' ') give_up();
  return k;
}

// What follows "key:". Block scalars consume their lines; everything else
// leaves p_ at the start of the next line.
Value Reader::value(int key_indent, bool block_scalar_allowed) {
  Value v;
  skip_spaces();
  if (at_eol() || peek() == '#') {
    next_line();
    v.kind = Value::Kind::null;
    return v;
  }
  char c = peek();
  if (c == '|') {
    if (!block_scalar_allowed) give_up();
    v.kind = Value::Kind::scalar;
    v.text = block_scalar(key_indent);
    v.in_place = std::exchange(in_place_.fresh, false);
    return v;
  }
  if (c == '{') {
    ++p_;
    skip_spaces();
    if (peek() == '}') {
      ++p_;
      v.kind = Value::Kind::empty_map;
    } else {
      v.kind = Value::Kind::flow_map;
      v.text = flow_scalar();
      if (peek() != ':') give_up();
      ++p_;
      if (peek() != ' ') give_up();
      skip_spaces();
      if (peek() == '[') {
        v.map_value_is_list = true;
        v.items = flow_list();
      } else {
        v.map_value = flow_scalar();
      }
      skip_spaces();
      if (peek() != '}') give_up();
      ++p_;
    }
  } else if (c == '[') {
    v.items = flow_list();
    v.kind = v.items.empty() ? Value::Kind::empty_list : Value::Kind::flow_list;
  } else {
    v.kind = Value::Kind::scalar;
    v.text = c == '"' ? double_quoted(key_indent) : plain(false);
    if (c != '"' && peek() == ':') give_up();  // "a: b: c"
  }
  end_of_value_line();
  return v;
}

std::size_t nodes_of(const Value& v) {
  switch (v.kind) {
    case Value::Kind::scalar:
    case Value::Kind::null:
    case Value::Kind::empty_map:
    case Value::Kind::empty_list:
      return 1;
    case Value::Kind::flow_list:
      return 1 + v.items.size();
    case Value::Kind::flow_map:
      return 2 + (v.map_value_is_list ? 1 + v.items.size() : 1);
  }
  return 1;
}

// The entries of a block map whose keys sit at `indent`, after "name:" whose
// value was `head` (null: a block follows; {}: empty).
template <typename Take>
void Reader::each_in_block_map(int indent, const Value& head, Take take) {
  if (head.kind == Value::Kind::empty_map) return;
  if (head.kind != Value::Kind::null) give_up();
  for (;;) {
    std::size_t line = p_;
    int at = next_content_line();
    if (at < indent) {
      p_ = line;  // the parent's next key (or the end)
      return;
    }
    if (at != indent) give_up();
    std::string k = key();
    Value v = value(indent, true);
    count(1 + nodes_of(v));
    take(k, v);
  }
}

std::vector<std::pair<std::string, Value>> Reader::block_map(int indent, const Value& head) {
  std::vector<std::pair<std::string, Value>> entries;
  each_in_block_map(indent, head, [&entries](std::string& k, Value& v) {
    entries.emplace_back(std::move(k), std::move(v));
  });
  return entries;
}

const std::string& scalar_of(const Value& v) {
  if (v.kind != Value::Kind::scalar) give_up();
  return v.text;
}

std::string take_scalar(Value& v) {
  scalar_of(v);
  return std::move(v.text);
}

std::int64_t int_of(const Value& v) {
  const std::string& text = scalar_of(v);
  std::int64_t n = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || ptr != text.data() + text.size()) give_up();
  return n;
}

bool bool_of(const Value& v) {
  const std::string& text = scalar_of(v);
  if (text == "true") return true;
  if (text == "false") return false;
  give_up();
}

// Each key once, and only the allowed ones; returns each key's slot (const
// or not, as `entries` is).
template <std::size_t N, typename Entries>
auto slots(Entries& entries, const std::array<std::string_view, N>& allowed) {
  std::array<decltype(&entries.front().second), N> found{};
  for (auto& [k, v] : entries) {
    auto it = std::find(allowed.begin(), allowed.end(), k);
    if (it == allowed.end()) give_up();
    auto i = std::size_t(it - allowed.begin());
    if (found[i]) give_up();
    found[i] = &v;
  }
  return found;
}

void Reader::read_host(SnapshotInfo& info,
                       const std::vector<std::pair<std::string, Value>>& entries) {
  auto s = slots<5>(entries, std::array<std::string_view, 5>{"label", "origin", "recorded_at",
                                                             "recorder", "redacted"});
  if (s[0]) info.label = scalar_of(*s[0]);
  if (s[1]) {
    info.origin = scalar_of(*s[1]);
    if (info.origin != "recorded" && info.origin != "synthesized" && info.origin != "imported" &&
        info.origin != "hand-written")
      give_up();
  }
  if (s[2]) info.recorded_at = scalar_of(*s[2]);
  if (s[3]) info.recorder = scalar_of(*s[3]);
  if (s[4]) info.redacted = bool_of(*s[4]);
}

void Reader::read_facts(Facts& f, const std::vector<std::pair<std::string, Value>>& entries) {
  auto s = slots<6>(entries, std::array<std::string_view, 6>{"os", "arch", "kernel", "page_size",
                                                             "cpus", "hostname"});
  if (s[0]) f.os = scalar_of(*s[0]);
  if (s[1]) f.arch = scalar_of(*s[1]);
  if (s[2]) f.kernel = scalar_of(*s[2]);
  if (s[3]) f.page_size = int_of(*s[3]);
  if (s[4]) f.cpus = int_of(*s[4]);
  if (s[5]) f.hostname = scalar_of(*s[5]);
  if (f.cpus < 0 || !valid_page_size(f.page_size)) give_up();
}

// Moves the contents out of `v` (a file's text is most of a snapshot: one copy, not two).
FileEntry file_entry(Value& v) {
  if (v.kind == Value::Kind::scalar) return FileEntry::of_content(std::move(v.text));
  if (v.kind == Value::Kind::null) return FileEntry::of_content("");
  if (v.kind != Value::Kind::flow_map) give_up();
  const std::string& k = v.text;
  if (k == "dir") {
    if (!v.map_value_is_list) give_up();
    std::vector<std::string> names = v.items;
    for (const auto& name : names)
      if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos ||
          name.find('\0') != std::string::npos)
        give_up();
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return FileEntry::of_dir(std::move(names));
  }
  if (v.map_value_is_list) give_up();
  const std::string& value = v.map_value;
  if (k == "absent") {
    if (value != "true") give_up();
    return FileEntry::of_absent();
  }
  if (k == "error") {
    int code = errno_from_name(value);
    if (code == 0) give_up();
    return FileEntry::of_error(code);
  }
  if (k == "link") {
    if (value.empty() || value.find('\0') != std::string::npos) give_up();
    return FileEntry::of_link(value);
  }
  if (k == "type") {
    if (value == "char") return FileEntry::of_node(FileKind::char_device);
    if (value == "block") return FileEntry::of_node(FileKind::block_device);
    if (value == "fifo") return FileEntry::of_node(FileKind::fifo);
    if (value == "socket") return FileEntry::of_node(FileKind::socket);
    give_up();
  }
  if (k == "base64") {
    auto decoded = base64_decode(value);
    if (!decoded) give_up();
    return FileEntry::of_content(std::move(*decoded));
  }
  give_up();
}

void Reader::read_file(std::map<std::string, FileEntry>& files, std::string& raw, Value& v) {
  std::string path;
  // The writer's paths are normal already: kept as they are, not rebuilt.
  if (is_normal_absolute(raw)) {
    path = std::move(raw);
  } else {
    if (raw.empty() || raw.front() != '/' || raw.find('\0') != std::string::npos || has_dotdot(raw))
      give_up();
    auto normal = normalize_absolute(raw);
    if (!normal) give_up();
    path = std::move(*normal);
  }
  auto [it, added] = files.emplace(std::move(path), file_entry(v));
  if (!added) give_up();
  if (v.in_place) in_place_.entry = &it->second;
}

void outcome_of(const std::string& text, ToolRun& run) {
  if (text == "exited") {
    run.outcome = ToolOutcome::exited;
  } else if (text == "not-found") {
    run.outcome = ToolOutcome::not_found;
  } else if (text == "timeout") {
    run.outcome = ToolOutcome::timeout;
  } else if (text == "permission-denied") {
    run.outcome = ToolOutcome::permission_denied;
  } else if (text.rfind("signal:", 0) == 0) {
    int sig = 0;
    auto digits = std::string_view(text).substr(7);
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), sig);
    if (ec != std::errc() || ptr != digits.data() + digits.size() || sig <= 0 || sig > 128)
      give_up();
    run.outcome = ToolOutcome::signal;
    run.signal = sig;
  } else {
    give_up();
  }
}

std::string bytes_of(const Value& v) {
  auto decoded = base64_decode(scalar_of(v));
  if (!decoded) give_up();
  return std::move(*decoded);
}

ToolEntry Reader::read_tool(std::vector<std::pair<std::string, Value>>& fields) {
  auto s = slots<9>(
      fields, std::array<std::string_view, 9>{"argv", "outcome", "exit", "stdout", "stderr",
                                              "stdout_base64", "stderr_base64", "ms", "truncated"});
  ToolEntry tool;
  if (!s[0] || s[0]->kind != Value::Kind::flow_list) give_up();
  tool.argv = s[0]->items;
  if (s[1]) outcome_of(scalar_of(*s[1]), tool.run);
  if (s[2]) {
    auto code = int_of(*s[2]);
    if (code < 0 || code > 255) give_up();
    tool.run.exit_code = int(code);
  }
  if ((s[3] && s[5]) || (s[4] && s[6])) give_up();
  // The output moved out of its Value (fields is not read again).
  if (s[3] && s[3]->kind != Value::Kind::null) tool.run.out = take_scalar(*s[3]);
  if (s[4] && s[4]->kind != Value::Kind::null) tool.run.err = take_scalar(*s[4]);
  if (s[5]) tool.run.out = bytes_of(*s[5]);
  if (s[6]) tool.run.err = bytes_of(*s[6]);
  if (s[7]) {
    tool.run.ms = int_of(*s[7]);
    if (tool.run.ms < 0) give_up();
    tool.has_ms = true;
  }
  if (s[8]) tool.run.truncated = bool_of(*s[8]);
  return tool;
}

// "tools:" then "  - argv: [...]" and "    key: value" lines.
void Reader::read_tools(const Value& head, std::map<std::vector<std::string>, ToolEntry>& tools) {
  if (head.kind == Value::Kind::empty_list) return;
  if (head.kind != Value::Kind::null) give_up();
  for (;;) {
    std::size_t line = p_;
    int at = next_content_line();
    if (at < 2) {
      p_ = line;  // the next section, or the end ("tools:" with no items: null)
      return;
    }
    if (at != 2 || peek() != '-' || peek(1) != ' ') give_up();
    p_ += 2;
    skip_spaces();
    if (p_ - line_start_ != 4) give_up();
    count(1);  // the item's map
    std::vector<std::pair<std::string, Value>> fields;
    {
      std::string k = key();
      Value v = value(4, true);
      count(1 + nodes_of(v));
      fields.emplace_back(std::move(k), std::move(v));
    }
    for (;;) {
      std::size_t field_line = p_;
      int field_at = next_content_line();
      if (field_at != 4) {
        p_ = field_line;
        break;
      }
      std::string k = key();
      Value v = value(4, true);
      count(1 + nodes_of(v));
      fields.emplace_back(std::move(k), std::move(v));
    }
    ToolEntry tool = read_tool(fields);
    auto argv = tool.argv;
    if (!tools.emplace(std::move(argv), std::move(tool)).second) give_up();
  }
}

void Reader::document(Snapshot& out) {
  std::array<bool, 6> seen{};
  static constexpr std::array<std::string_view, 6> sections = {"schema", "host",  "facts",
                                                               "env",    "files", "tools"};
  for (;;) {
    int at = next_content_line();
    if (at < 0) break;
    if (at != 0) give_up();
    std::string k = key();
    auto it = std::find(sections.begin(), sections.end(), k);
    if (it == sections.end()) give_up();
    auto i = std::size_t(it - sections.begin());
    if (seen[i]) give_up();
    seen[i] = true;
    count(2);  // the key and its value
    Value head = value(0, true);
    switch (i) {
      case 0:
        if (scalar_of(head) != "hwaccel-snapshot/1") give_up();
        break;
      case 1:
      case 2: {
        auto entries = block_map(2, head);
        // "host:" with nothing under it is null, not a map: the yaml-cpp path refuses it.
        if (head.kind == Value::Kind::null && entries.empty()) give_up();
        if (i == 1) read_host(out.host, entries);
        if (i == 2) read_facts(out.facts, entries);
        break;
      }
      case 3:
        for (const auto& [name, v] : block_map(2, head))
          if (!out.env.emplace(name, scalar_of(v)).second) give_up();
        break;
      case 4:
        // Each entry into the map as it is read: no vector of 400 entries
        // and their regrowth (heap pages that cost as much as the work).
        in_place_.files = true;
        each_in_block_map(2, head,
                          [&](std::string& path, Value& v) { read_file(out.files, path, v); });
        in_place_.files = false;
        break;
      case 5:
        read_tools(head, out.tools);
        break;
    }
  }
  if (!seen[0]) give_up();
  out.schema_major = kSnapshotSchemaMajor;
}

void Reader::finish_in_place(std::string& owner) {
  if (!in_place_.held || !in_place_.entry) return;
  // Line by line toward the front of the buffer, as block_scalar copies them.
  // What is written never passes what is still to read: each line loses its
  // indentation and the output starts at 0, before the block's first line.
  char* out = owner.data();
  std::size_t w = 0, q = in_place_.first;
  const std::size_t indent = in_place_.content_indent;
  for (std::size_t i = 0; i + in_place_.trailing < in_place_.lines; ++i) {
    std::size_t eol = t_.find('\n', q);
    if (i) out[w++] = '\n';
    if (eol > q) {
      std::memmove(out + w, out + q + indent, eol - q - indent);
      w += eol - q - indent;
    }
    q = eol + 1;
  }
  if (in_place_.chomp != '-') {
    out[w++] = '\n';
    if (in_place_.chomp == '+')
      for (std::size_t i = 0; i < in_place_.trailing; ++i) out[w++] = '\n';
  }
  owner.resize(w);
  in_place_.entry->bytes = std::move(owner);
}

}  // namespace

bool read_snapshot_fast(std::string_view text, Snapshot& out) {
  return fast_reader_stop(text, out) == std::string_view::npos;
}

std::size_t fast_reader_stop(std::string_view text, Snapshot& out, std::string* limit,
                             std::string* in_place) {
  out = Snapshot{};
  if (!snapshot_is_plain_text(text)) return 0;
  Reader reader(text);
  // Only the string the text views can be written to.
  const bool give = in_place && in_place->data() == text.data() && in_place->size() == text.size();
  if (give) reader.allow_in_place();
  try {
    reader.document(out);
    if (give) reader.finish_in_place(*in_place);
    return std::string_view::npos;
  } catch (const GiveUp&) {
    if (limit) *limit = reader.limit();
    return reader.position();
  }
}

}  // namespace hwaccel
