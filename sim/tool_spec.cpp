#include "sim/tool_spec.h"

namespace hwaccel::sim {
namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n';
}

// The offset of the last '=' outside quotes, or npos.
std::size_t last_unquoted_equals(std::string_view text) {
  std::size_t found = std::string_view::npos;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote == '\'') {
      if (c == '\'') quote = 0;
    } else if (quote == '"') {
      if (c == '\\' && i + 1 < text.size())
        ++i;
      else if (c == '"')
        quote = 0;
    } else if (c == '\\' && i + 1 < text.size()) {
      ++i;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '=') {
      found = i;
    }
  }
  return found;
}

}  // namespace

std::vector<std::string> split_words(std::string_view text, std::string& error) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (is_blank(c)) {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\\') {
      if (i + 1 < text.size())
        word += text[++i];
      else
        word += c;
    } else if (c == '\'') {
      std::size_t end = text.find('\'', i + 1);
      if (end == std::string_view::npos) {
        error = "unterminated ' quote";
        return {};
      }
      word.append(text.substr(i + 1, end - i - 1));
      i = end;
    } else if (c == '"') {
      std::size_t j = i + 1;
      for (; j < text.size() && text[j] != '"'; ++j) {
        if (text[j] == '\\' && j + 1 < text.size() &&
            std::string_view("\"\\$`").find(text[j + 1]) != std::string_view::npos) {
          ++j;
        }
        word += text[j];
      }
      if (j >= text.size()) {
        error = "unterminated \" quote";
        return {};
      }
      i = j;
    } else {
      word += c;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

ToolSpec parse_tool_spec(std::string_view spec) {
  ToolSpec out;
  std::size_t eq = last_unquoted_equals(spec);
  if (eq == std::string_view::npos) {
    out.error = "expected ARGV=FILE (no '=' outside quotes)";
    return out;
  }
  out.value = std::string(spec.substr(eq + 1));
  if (out.value.empty()) {
    out.error = "nothing after the last '='";
    return out;
  }
  out.argv = split_words(spec.substr(0, eq), out.error);
  if (out.error.empty() && out.argv.empty()) out.error = "empty ARGV before '='";
  return out;
}

std::string shell_quote(std::string_view word) {
  if (word.empty()) return "''";
  bool plain = true;
  for (char c : word) {
    bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                std::string_view("-_./,:=+@%").find(c) != std::string_view::npos;
    if (!safe) plain = false;
  }
  if (plain) return std::string(word);
  std::string out = "'";
  for (char c : word) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

namespace {

// The words of argv, each quoted by `quote`, separated by blanks.
template <typename Quote>
std::string join_quoted(const std::vector<std::string>& argv, Quote quote) {
  std::string out;
  for (const auto& word : argv) {
    if (!out.empty()) out += ' ';
    out += quote(word);
  }
  return out;
}

}  // namespace

std::string shell_join(const std::vector<std::string>& argv) {
  return join_quoted(argv, [](const std::string& w) { return shell_quote(w); });
}

std::string display_quote(std::string_view word) {
  bool control = false;
  for (char c : word) control = control || static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
  if (!control) return shell_quote(word);
  static const char* hex = "0123456789abcdef";
  std::string out = "\"";
  for (char c : word) {
    auto u = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7f) {
      out += "\\x";
      out += hex[u >> 4];
      out += hex[u & 15];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string display_join(const std::vector<std::string>& argv) {
  return join_quoted(argv, [](const std::string& w) { return display_quote(w); });
}

}  // namespace hwaccel::sim
