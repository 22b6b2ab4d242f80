// A lexer for the POSIX sh that hwsim generates (tests only): enough of the
// grammar to check that text from a snapshot stays inside quotes. skeleton()
// keeps the script's own text and replaces each quoted word (adjacent '...'
// spans, backslash escapes and the "$nl" the shims spell a newline with) by Q;
// words() decodes a piece of text into the words it is, or fails.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hwaccel::testing {

struct ShLexed {
  std::string skeleton;            // fixed text, each quoted word as "Q"
  std::vector<std::string> words;  // the decoded quoted words, in order
  bool ok = true;                  // false: an unterminated quote
};

inline ShLexed lex_sh(std::string_view text) {
  ShLexed out;
  bool in_quoted = false;  // inside a run of quoted pieces (one word)
  std::string word;
  auto end_word = [&] {
    if (!in_quoted) return;
    out.skeleton += 'Q';
    out.words.push_back(word);
    word.clear();
    in_quoted = false;
  };
  constexpr std::string_view kNl = "\"$nl\"";
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\'') {
      std::size_t end = text.find('\'', i + 1);
      if (end == std::string_view::npos) {
        out.ok = false;
        return out;
      }
      word.append(text.substr(i + 1, end - i - 1));
      in_quoted = true;
      i = end;
    } else if (c == '\\' && i + 1 < text.size()) {
      word += text[++i];
      in_quoted = true;
    } else if (in_quoted && text.substr(i, kNl.size()) == kNl) {
      word += '\n';
      i += kNl.size() - 1;
    } else if (c == '"') {
      // The script's own double-quoted text ("$data", "$1"): kept as it is.
      end_word();
      std::size_t j = i + 1;
      for (; j < text.size() && text[j] != '"'; ++j)
        if (text[j] == '\\') ++j;
      if (j >= text.size()) {
        out.ok = false;
        return out;
      }
      out.skeleton.append(text.substr(i, j - i + 1));
      i = j;
    } else {
      end_word();
      out.skeleton += c;
    }
  }
  end_word();
  return out;
}

}  // namespace hwaccel::testing
