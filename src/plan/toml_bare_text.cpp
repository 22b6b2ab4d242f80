#include "src/plan/toml_bare_text.h"

namespace hwaccel::plan {
namespace {

class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  std::optional<TextPosition> run() {
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (c == '#') {
        skip_to_line_end();
      } else if (c == '"' || c == '\'') {
        if (!skip_string(c)) return std::nullopt;
      } else if (static_cast<unsigned char>(c) >= 0x80) {
        return position_;
      } else {
        step();
      }
    }
    return std::nullopt;
  }

 private:
  std::string_view text_;
  std::size_t at_ = 0;
  TextPosition position_;

  bool starts_with(std::string_view s) const { return text_.substr(at_, s.size()) == s; }

  // One byte on; a UTF-8 continuation byte is part of the character before it.
  void step() {
    const auto c = static_cast<unsigned char>(text_[at_++]);
    if (c == '\n') {
      ++position_.line;
      position_.column = 1;
    } else if ((c & 0xC0) != 0x80) {
      ++position_.column;
    }
  }

  void skip_to_line_end() {
    while (at_ < text_.size() && text_[at_] != '\n') step();
  }

  // Past the string that starts here; false when it never ends.
  bool skip_string(char quote) {
    const std::string triple(3, quote);
    const bool multi_line = starts_with(triple);
    for (std::size_t i = 0; i < (multi_line ? 3u : 1u); ++i) step();
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (quote == '"' && c == '\\') {
        step();
        if (at_ < text_.size()) step();
        continue;
      }
      if (multi_line && starts_with(triple)) {
        for (int i = 0; i < 3; ++i) step();
        while (at_ < text_.size() && text_[at_] == quote) step();  // """a"""" ends in a quote
        return true;
      }
      if (!multi_line && c == quote) {
        step();
        return true;
      }
      if (!multi_line && c == '\n') return false;
      step();
    }
    return false;
  }
};

}  // namespace

std::optional<TextPosition> first_non_ascii_outside_strings(std::string_view text) {
  return Scanner(text).run();
}

}  // namespace hwaccel::plan
