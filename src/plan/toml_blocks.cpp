#include "src/plan/toml_blocks.h"

namespace hwaccel::plan {
namespace {

bool is_bare_key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

enum class Header { none, block, sub, other, unknown };

class Splitter {
 public:
  Splitter(std::string_view text, std::string_view name) : text_(text), name_(name) {}

  // Calls `line(start, kind)` for each line start outside strings and values;
  // false on a lexical oddity (an unterminated string, a stray bracket).
  template <typename Visit>
  bool run(Visit visit) {
    while (at_ < text_.size()) {
      const std::size_t start = at_;
      Header kind = Header::none;
      if (depth_ == 0) kind = header_at(start);
      if (kind == Header::unknown) return false;
      visit(start, kind);
      if (!scan_line(kind != Header::none)) return false;
    }
    return depth_ == 0;
  }

 private:
  std::string_view text_, name_;
  std::size_t at_ = 0;
  int depth_ = 0;  // brackets and braces of values open across lines

  Header header_at(std::size_t i) const {
    while (i < text_.size() && (text_[i] == ' ' || text_[i] == '\t')) ++i;
    if (i >= text_.size() || text_[i] != '[') return Header::none;
    const bool twice = i + 1 < text_.size() && text_[i + 1] == '[';
    i += twice ? 2 : 1;
    while (i < text_.size() && (text_[i] == ' ' || text_[i] == '\t')) ++i;
    const std::size_t key = i;
    while (i < text_.size() && is_bare_key_char(text_[i])) ++i;
    if (i == key) return Header::unknown;  // a quoted first key
    const bool ours = text_.substr(key, i - key) == name_;
    while (i < text_.size() && (text_[i] == ' ' || text_[i] == '\t')) ++i;
    if (i >= text_.size()) return Header::unknown;
    if (!ours) return Header::other;
    if (text_[i] == '.') return Header::sub;
    if (twice && text_.substr(i, 2) == "]]") return Header::block;
    return Header::unknown;  // [NAME]: toml++ says what is wrong
  }

  bool starts_with(std::string_view s) const { return text_.substr(at_, s.size()) == s; }

  // Past the string at at_; false when it never ends.
  bool skip_string(char quote) {
    const std::string triple(3, quote);
    const bool multi_line = starts_with(triple);
    at_ += multi_line ? 3 : 1;
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (quote == '"' && c == '\\') {
        at_ += 2;
        continue;
      }
      if (multi_line && starts_with(triple)) {
        at_ += 3;
        while (at_ < text_.size() && text_[at_] == quote) ++at_;
        return true;
      }
      if (!multi_line && c == quote) {
        ++at_;
        return true;
      }
      if (!multi_line && c == '\n') return false;
      ++at_;
    }
    return false;
  }

  // Past the end of the line that starts at at_ (and of any multi-line
  // string that begins on it). A header's brackets are not a value's.
  bool scan_line(bool header) {
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (c == '\n') {
        ++at_;
        return true;
      }
      if (c == '#') {
        while (at_ < text_.size() && text_[at_] != '\n') ++at_;
        continue;
      }
      if (c == '"' || c == '\'') {
        if (!skip_string(c)) return false;
        continue;
      }
      if (!header && (c == '[' || c == '{')) ++depth_;
      if (!header && (c == ']' || c == '}') && --depth_ < 0) return false;
      ++at_;
    }
    return true;
  }
};

}  // namespace

std::optional<TomlBlocks> split_array_blocks(std::string_view text, std::string_view name,
                                             std::size_t batch_bytes) {
  // Where each block (its header to the next header of another table) begins
  // and ends, and the line it begins on.
  struct Span {
    std::size_t begin, end, line = 1;
  };
  std::vector<Span> spans;
  bool in_block = false, sub_outside = false;
  const bool ok = Splitter(text, name).run([&](std::size_t start, Header kind) {
    if (kind == Header::block) {
      if (in_block) spans.back().end = start;
      spans.push_back({start, text.size(), 1});
      in_block = true;
    } else if (kind == Header::other && in_block) {
      spans.back().end = start;
      in_block = false;
    } else if (kind == Header::sub && !in_block) {
      sub_outside = true;  // [NAME.sub] outside a block: the whole parse decides
    }
  });
  if (!ok || sub_outside) return std::nullopt;
  // Each block's first line (one pass over the text in all).
  std::size_t newlines = 0, at = 0;
  for (auto& s : spans) {
    for (; at < s.begin; ++at) newlines += text[at] == '\n';
    s.line = 1 + newlines;
  }

  TomlBlocks out;
  out.rest.reserve(text.size() / 8);
  std::size_t copied = 0;
  for (std::size_t i = 0; i < spans.size(); ++i) {
    const Span& s = spans[i];
    out.rest.append(text, copied, s.begin - copied);
    for (std::size_t k = s.begin; k < s.end; ++k)
      if (text[k] == '\n') out.rest += '\n';
    copied = s.end;
    // Consecutive blocks join the batch before while it is small.
    auto& batches = out.batches;
    if (!batches.empty() &&
        batches.back().text.data() + batches.back().text.size() == text.data() + s.begin &&
        batches.back().text.size() < batch_bytes) {
      batches.back().text = std::string_view(batches.back().text.data(),
                                             batches.back().text.size() + (s.end - s.begin));
    } else {
      batches.push_back({text.substr(s.begin, s.end - s.begin), s.line, 0});
    }
    ++batches.back().blocks;
    ++out.blocks;
  }
  out.rest.append(text, copied, std::string_view::npos);
  return out;
}

}  // namespace hwaccel::plan
