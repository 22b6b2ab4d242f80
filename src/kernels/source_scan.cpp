#include "src/kernels/source_scan.h"

#include <cctype>

#include "src/kernels/guard_expr.h"

namespace hwaccel::kernels {

namespace {

struct Branch {
  std::vector<Condition> earlier;  // conditions of the earlier branches (must be false)
  Condition current;               // this branch's condition (#else: none)
  bool is_else = false;
  int line = 0;  // of the opening #if
};

bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

std::string trim(std::string_view s) {
  std::size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return std::string(s.substr(a, b - a));
}

// Drops a trailing // comment and /* ... */ on the same line.
std::string strip_comments(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, 2, "//") == 0) break;
    if (s.compare(i, 2, "/*") == 0) {
      auto end = s.find("*/", i + 2);
      if (end == std::string::npos) break;
      out += ' ';
      i = end + 1;
      continue;
    }
    out += s[i];
  }
  return out;
}

// The kernel name after `__global__` on this line, or "".
std::string kernel_name(const std::string& line) {
  auto g = line.find("__global__");
  if (g == std::string::npos) return "";
  auto paren = line.find('(', g);
  std::size_t i = g + 10;
  // The name is the identifier right before the first '(' that is not
  // __launch_bounds__'s.
  while (paren != std::string::npos) {
    std::size_t e = paren;
    while (e > i && std::isspace(static_cast<unsigned char>(line[e - 1]))) --e;
    std::size_t s = e;
    while (s > i && ident_char(line[s - 1])) --s;
    std::string name = line.substr(s, e - s);
    if (name == "__launch_bounds__") {
      auto close = line.find(')', paren);
      if (close == std::string::npos) return "";
      paren = line.find('(', close);
      continue;
    }
    return name;
  }
  return "";
}

}  // namespace

ScanResult scan_source(std::string_view text, const std::string& file) {
  ScanResult r;
  std::vector<Branch> stack;
  bool in_block_comment = false;
  int line_no = 0;
  std::size_t pos = 0;
  auto located = [&](int line, int col, const std::string& what) {
    r.error = file + ":" + std::to_string(line) + ":" + std::to_string(col) + ": " + what;
    return r;
  };
  while (pos <= text.size()) {
    auto nl = text.find('\n', pos);
    std::string line(text.substr(pos, nl == std::string_view::npos ? text.size() - pos : nl - pos));
    pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    ++line_no;
    int first_line = line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (in_block_comment) {
      auto end = line.find("*/");
      if (end == std::string::npos) continue;
      line = std::string(end + 2, ' ') + line.substr(end + 2);
      in_block_comment = false;
    }
    // Joins continued lines (a backslash at the end).
    while (!line.empty() && line.back() == '\\' && pos <= text.size()) {
      line.pop_back();
      auto n2 = text.find('\n', pos);
      line += std::string(
          text.substr(pos, n2 == std::string_view::npos ? text.size() - pos : n2 - pos));
      pos = n2 == std::string_view::npos ? text.size() + 1 : n2 + 1;
      ++line_no;
    }
    std::string code = strip_comments(line);
    {
      auto open = code.rfind("/*");
      if (open != std::string::npos && code.find("*/", open) == std::string::npos) {
        in_block_comment = true;
        code = code.substr(0, open);
      }
    }
    std::size_t h = 0;
    while (h < code.size() && std::isspace(static_cast<unsigned char>(code[h]))) ++h;
    if (h < code.size() && code[h] == '#') {
      std::size_t d = h + 1;
      while (d < code.size() && std::isspace(static_cast<unsigned char>(code[d]))) ++d;
      std::size_t de = d;
      while (de < code.size() && ident_char(code[de])) ++de;
      std::string directive = code.substr(d, de - d);
      std::size_t a = de;
      while (a < code.size() && std::isspace(static_cast<unsigned char>(code[a]))) ++a;
      std::string arg = trim(std::string_view(code).substr(a));
      int col = static_cast<int>(a) + 1;
      std::string written = trim(code);
      if (directive == "if" || directive == "elif" || directive == "ifdef" ||
          directive == "ifndef") {
        std::string expr = arg;
        if (directive == "ifdef" || directive == "ifndef") {
          std::size_t n = 0;
          while (n < arg.size() && ident_char(arg[n])) ++n;
          if (n == 0 || std::isdigit(static_cast<unsigned char>(arg[0])))
            return located(first_line, col, "#" + directive + " needs a macro name");
          if (n != arg.size())
            return located(first_line, col + static_cast<int>(n),
                           "#" + directive + " takes one macro name, got \"" + arg + "\"");
          expr = (directive == "ifndef" ? "!defined(" : "defined(") + arg + ")";
        } else if (arg.empty()) {
          return located(first_line, col, "#" + directive + " needs an expression");
        } else {
          auto g = evaluate_guard(arg, {});
          if (!g.ok) return located(first_line, col + g.column - 1, g.error);
        }
        Condition c{expr, true, written, first_line, col};
        if (directive == "elif") {
          if (stack.empty()) return located(first_line, h + 1, "#elif without #if");
          Branch& b = stack.back();
          if (b.is_else) return located(first_line, h + 1, "#elif after #else");
          b.earlier.push_back(b.current);
          b.earlier.back().want = false;
          b.current = c;
        } else {
          Branch b;
          b.current = c;
          b.line = first_line;
          stack.push_back(b);
        }
      } else if (directive == "else") {
        if (stack.empty()) return located(first_line, h + 1, "#else without #if");
        Branch& b = stack.back();
        if (b.is_else) return located(first_line, h + 1, "a second #else");
        b.earlier.push_back(b.current);
        b.earlier.back().want = false;
        b.is_else = true;
      } else if (directive == "endif") {
        if (stack.empty()) return located(first_line, h + 1, "#endif without #if");
        stack.pop_back();
      }
      continue;
    }
    std::string name = kernel_name(code);
    if (!name.empty()) {
      KernelDef k;
      k.name = name;
      k.file = file;
      k.line = first_line;
      for (const auto& b : stack) {
        for (const auto& e : b.earlier) k.conditions.push_back(e);
        if (!b.is_else) k.conditions.push_back(b.current);
      }
      r.kernels.push_back(std::move(k));
    }
  }
  if (!stack.empty())
    return located(stack.back().line, 1, "#if without #endif at the end of the file");
  r.ok = true;
  return r;
}

}  // namespace hwaccel::kernels
