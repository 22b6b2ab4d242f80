// Properties of the kernel tree's guard language and class chains.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>

#include "src/kernels/classes.h"
#include "src/kernels/guard_expr.h"

namespace hwaccel::kernels {
namespace {

// A random guard expression as text, with its value computed independently.
struct Expr {
  std::string text;
  long long value;
};

const MacroSet kMacros{{"A", 1}, {"B", 0}, {"ARCH", 900}, {"N", 7}};

Expr gen_expr(int depth) {
  int pick = *rc::gen::inRange(0, depth > 0 ? 7 : 3);
  switch (pick) {
    case 0: {
      std::string m = *rc::gen::element<std::string>("A", "B", "C", "ARCH");
      return {"defined(" + m + ")", kMacros.count(m) ? 1 : 0};
    }
    case 1: {
      int v = *rc::gen::inRange(0, 2000);
      return {std::to_string(v), v};
    }
    case 2: {
      std::string m = *rc::gen::element<std::string>("ARCH", "N", "UNDEF");
      auto it = kMacros.find(m);
      return {m, it == kMacros.end() ? 0 : it->second};
    }
    case 3: {
      auto e = gen_expr(depth - 1);
      return {"!" + e.text, !e.value};
    }
    case 4: {
      auto a = gen_expr(depth - 1), b = gen_expr(depth - 1);
      return {"(" + a.text + " && " + b.text + ")", a.value && b.value};
    }
    case 5: {
      auto a = gen_expr(depth - 1), b = gen_expr(depth - 1);
      return {"(" + a.text + " || " + b.text + ")", a.value || b.value};
    }
    default: {
      auto a = gen_expr(depth - 1), b = gen_expr(depth - 1);
      std::string op = *rc::gen::element<std::string>("==", "!=", "<", "<=", ">", ">=");
      long long v = op == "=="   ? a.value == b.value
                    : op == "!=" ? a.value != b.value
                    : op == "<"  ? a.value < b.value
                    : op == "<=" ? a.value <= b.value
                    : op == ">"  ? a.value > b.value
                                 : a.value >= b.value;
      return {"(" + a.text + " " + op + " " + b.text + ")", v};
    }
  }
}

RC_GTEST_PROP(KernelGuardProp, ParsesAndEvaluatesLikeTheReference, ()) {
  Expr e = gen_expr(*rc::gen::inRange(0, 5));
  auto g = evaluate_guard(e.text, kMacros);
  RC_ASSERT(g.ok);
  RC_ASSERT(g.value == e.value);
}

RC_GTEST_PROP(KernelGuardProp, ATruncatedExpressionIsAnErrorOrStillValid, ()) {
  Expr e = gen_expr(*rc::gen::inRange(1, 5));
  std::size_t cut = *rc::gen::inRange<std::size_t>(0, e.text.size());
  auto g = evaluate_guard(e.text.substr(0, cut), kMacros);
  if (!g.ok) RC_ASSERT(g.column >= 1 && g.column <= static_cast<int>(cut) + 1);
}

// Class chains: the resolved macros are the flags folded root first, whatever
// the names of the classes (their order in the tree's map) are.
RC_GTEST_PROP(KernelClassProp, ResolutionIsTheRootFirstFoldWhateverTheNames, ()) {
  int n = *rc::gen::inRange(1, 7);
  std::vector<std::string> names;
  for (int i = 0; i < n; ++i) names.push_back("c" + std::to_string(i));
  // Random names so the map order differs from the chain order.
  std::vector<std::string> shuffled = *rc::gen::exec([&] {
    auto v = names;
    for (std::size_t i = v.size(); i > 1; --i)
      std::swap(v[i - 1], v[*rc::gen::inRange<std::size_t>(0, i)]);
    return v;
  });
  KernelTree tree;
  MacroSet expected;
  for (int i = 0; i < n; ++i) {  // chain: shuffled[0] is the root, each inherits the previous
    HardwareClass c;
    c.name = shuffled[i];
    c.inherits = i ? shuffled[i - 1] : "";
    int flags = *rc::gen::inRange(0, 4);
    for (int f = 0; f < flags; ++f) {
      std::string m = *rc::gen::element<std::string>("X", "Y", "Z");
      if (*rc::gen::arbitrary<bool>()) {
        int v = *rc::gen::inRange(0, 100);
        c.flags.push_back("-D" + m + "=" + std::to_string(v));
        expected[m] = v;
      } else {
        c.flags.push_back("-U" + m);
        expected.erase(m);
      }
    }
    tree.classes[c.name] = c;
  }
  auto r = resolve_class(tree, shuffled.back());
  RC_ASSERT(r.resolved.has_value());
  RC_ASSERT(r.resolved->defined == expected);
  RC_ASSERT(static_cast<int>(r.resolved->chain.size()) == n);
  RC_ASSERT(r.resolved->chain.back() == shuffled.front());
}

}  // namespace
}  // namespace hwaccel::kernels
