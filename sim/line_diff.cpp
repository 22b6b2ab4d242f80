#include "sim/line_diff.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace hwaccel::sim {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    auto nl = text.find('\n', start);
    if (nl == std::string::npos) {
      lines.push_back(text.substr(start) + "\n\\ No newline at end of file");
      break;
    }
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

struct Op {
  char kind;         // ' ', '-', '+'
  std::size_t a, b;  // line numbers (0-based) in expected / actual
};

// LCS over the lines between the common prefix and suffix; past a size limit
// the middle is shown as all removed then all added (still a correct diff).
std::vector<Op> edit_script(const std::vector<std::string>& x, const std::vector<std::string>& y) {
  std::size_t pre = 0;
  while (pre < x.size() && pre < y.size() && x[pre] == y[pre]) ++pre;
  std::size_t suf = 0;
  while (suf < x.size() - pre && suf < y.size() - pre &&
         x[x.size() - 1 - suf] == y[y.size() - 1 - suf])
    ++suf;
  const std::size_t n = x.size() - pre - suf, m = y.size() - pre - suf;
  std::vector<Op> ops;
  for (std::size_t i = 0; i < pre; ++i) ops.push_back({' ', i, i});
  if (n * m <= 4'000'000) {
    std::vector<std::uint32_t> len((n + 1) * (m + 1), 0);
    auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return len[i * (m + 1) + j]; };
    for (std::size_t i = n; i-- > 0;)
      for (std::size_t j = m; j-- > 0;)
        at(i, j) =
            x[pre + i] == y[pre + j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
    std::size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && x[pre + i] == y[pre + j]) {
        ops.push_back({' ', pre + i++, pre + j++});
      } else if (i < n && (j == m || at(i + 1, j) >= at(i, j + 1))) {
        ops.push_back({'-', pre + i++, pre + j});  // removals first, as diff -u prints them
      } else {
        ops.push_back({'+', pre + i, pre + j++});
      }
    }
  } else {
    for (std::size_t i = 0; i < n; ++i) ops.push_back({'-', pre + i, pre});
    for (std::size_t j = 0; j < m; ++j) ops.push_back({'+', pre + n, pre + j});
  }
  for (std::size_t k = 0; k < suf; ++k) ops.push_back({' ', pre + n + k, pre + m + k});
  return ops;
}

std::string range(std::size_t start, std::size_t count) {
  // diff -u: "start,count" with 1-based start; an empty range names the line before it.
  return std::to_string(count == 0 ? start : start + 1) + "," + std::to_string(count);
}

}  // namespace

std::string unified_diff(const std::string& expected, const std::string& actual,
                         const std::string& expected_label, const std::string& actual_label,
                         int context) {
  if (expected == actual) return "";
  const auto x = lines_of(expected), y = lines_of(actual);
  const auto ops = edit_script(x, y);
  std::string out = "--- " + expected_label + "\n+++ " + actual_label + "\n";
  const std::size_t c = std::size_t(std::max(0, context));
  std::size_t k = 0;
  while (k < ops.size()) {
    if (ops[k].kind == ' ') {
      ++k;
      continue;
    }
    // A hunk: from `context` lines before this change to `context` after the
    // last change that is at most 2*context unchanged lines further on.
    std::size_t begin = k >= c ? k - c : 0;
    std::size_t end = k;
    while (end < ops.size()) {
      if (ops[end].kind != ' ') {
        ++end;
        continue;
      }
      std::size_t run = end;
      while (run < ops.size() && ops[run].kind == ' ') ++run;
      if (run == ops.size() || run - end > 2 * c) {
        end = std::min(ops.size(), end + c);
        break;
      }
      end = run;
    }
    std::size_t a_count = 0, b_count = 0;
    for (std::size_t i = begin; i < end; ++i) {
      a_count += ops[i].kind != '+';
      b_count += ops[i].kind != '-';
    }
    out += "@@ -" + range(ops[begin].a, a_count) + " +" + range(ops[begin].b, b_count) + " @@\n";
    for (std::size_t i = begin; i < end; ++i) {
      const auto& op = ops[i];
      out += op.kind;
      out += op.kind == '+' ? y[op.b] : x[op.a];
      out += "\n";
    }
    k = end;
  }
  return out;
}

}  // namespace hwaccel::sim
