#include "src/kernels/guard_expr.h"

#include <cctype>
#include <stdexcept>

namespace hwaccel::kernels {

namespace {

struct ParseError {
  std::string what;
  std::size_t pos;
};

// Recursive descent over the text; evaluates as it parses (both branches of
// && and || are parsed, so an error anywhere is found).
class Parser {
 public:
  Parser(std::string_view s, const MacroSet& m, std::set<std::string>& names)
      : s_(s), m_(m), names_(names) {}

  long long parse() {
    long long v = parse_or();
    skip();
    if (i_ < s_.size()) fail("expected an operator or the end of the expression");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) { throw ParseError{what, i_}; }
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool eat(std::string_view op) {
    skip();
    if (s_.substr(i_, op.size()) != op) return false;
    i_ += op.size();
    return true;
  }
  long long parse_or() {
    long long v = parse_and();
    while (eat("||")) v = (parse_and() != 0) || v;
    return v;
  }
  long long parse_and() {
    long long v = parse_cmp();
    while (eat("&&")) v = (parse_cmp() != 0) && v;
    return v;
  }
  long long parse_cmp() {
    long long v = parse_unary();
    for (;;) {
      if (eat("=="))
        v = v == parse_unary();
      else if (eat("!="))
        v = v != parse_unary();
      else if (eat("<="))
        v = v <= parse_unary();
      else if (eat(">="))
        v = v >= parse_unary();
      else if (eat("<"))
        v = v < parse_unary();
      else if (eat(">"))
        v = v > parse_unary();
      else
        return v;
    }
  }
  long long parse_unary() {
    skip();
    if (i_ < s_.size() && s_[i_] == '!' && (i_ + 1 >= s_.size() || s_[i_ + 1] != '=')) {
      ++i_;
      return !parse_unary();
    }
    return parse_primary();
  }
  std::string ident() {
    skip();
    std::size_t start = i_;
    if (i_ < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) {
      while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_'))
        ++i_;
    }
    return std::string(s_.substr(start, i_ - start));
  }
  long long lookup(const std::string& name, bool as_defined) {
    names_.insert(name);
    auto it = m_.find(name);
    if (as_defined) return it != m_.end();
    return it == m_.end() ? 0 : it->second;
  }
  long long parse_primary() {
    skip();
    if (i_ >= s_.size()) fail("expected a macro, a number, defined(...) or '('");
    char c = s_[i_];
    if (c == '(') {
      ++i_;
      long long v = parse_or();
      if (!eat(")")) fail("expected ')'");
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t start = i_;
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
      while (i_ < s_.size() && (s_[i_] == 'u' || s_[i_] == 'U' || s_[i_] == 'l' || s_[i_] == 'L'))
        ++i_;
      if (i_ < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_'))
        fail("expected a decimal integer");
      std::string digits(s_.substr(start, i_ - start));
      while (!digits.empty() && !std::isdigit(static_cast<unsigned char>(digits.back())))
        digits.pop_back();
      if (digits.size() > 18) {
        i_ = start;
        fail("integer too large");
      }
      return std::stoll(digits);
    }
    std::size_t start = i_;
    std::string name = ident();
    if (name.empty()) fail("expected a macro, a number, defined(...) or '('");
    if (name == "defined") {
      bool paren = eat("(");
      std::string arg = ident();
      if (arg.empty()) fail("expected a macro name after defined");
      if (paren && !eat(")")) fail("expected ')' after defined(" + arg);
      return lookup(arg, true);
    }
    skip();
    if (i_ < s_.size() && s_[i_] == '(') {
      i_ = start;
      fail("function-like macro " + name + "(...) is not supported in guards");
    }
    return lookup(name, false);
  }

  std::string_view s_;
  const MacroSet& m_;
  std::set<std::string>& names_;
  std::size_t i_ = 0;
};

}  // namespace

GuardValue evaluate_guard(std::string_view expr, const MacroSet& macros) {
  GuardValue g;
  Parser p(expr, macros, g.macros);
  try {
    g.value = p.parse();
    g.ok = true;
  } catch (const ParseError& e) {
    g.error = e.what;
    g.column = static_cast<int>(e.pos) + 1;
  }
  return g;
}

}  // namespace hwaccel::kernels
