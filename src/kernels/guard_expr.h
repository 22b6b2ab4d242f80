// The `#if` expression language of kernel sources: defined(X), defined X, !,
// &&, ||, parentheses, integer literals, macros and comparisons (== != < <= >
// >=). An undefined macro is 0, as in the C preprocessor. Anything else is a
// located error, never a guess.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace hwaccel::kernels {

// Macros a build defines: name -> value ("-DX" is 1).
using MacroSet = std::map<std::string, long long>;

struct GuardValue {
  bool ok = false;
  long long value = 0;
  std::set<std::string> macros;  // every macro the expression names
  std::string error;             // what was expected
  int column = 0;                // 1-based column in the expression text of the error
};

GuardValue evaluate_guard(std::string_view expr, const MacroSet& macros);

}  // namespace hwaccel::kernels
