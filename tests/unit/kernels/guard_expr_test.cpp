#include "src/kernels/guard_expr.h"

#include <gtest/gtest.h>

namespace hwaccel::kernels {
namespace {

long long eval(const char* expr, const MacroSet& m = {{"A", 1}, {"ARCH", 900}}) {
  auto g = evaluate_guard(expr, m);
  EXPECT_TRUE(g.ok) << expr << ": " << g.error;
  return g.value;
}

TEST(GuardExpr, DefinedNotAndOrParentheses) {
  EXPECT_EQ(eval("defined(A)"), 1);
  EXPECT_EQ(eval("defined A"), 1);
  EXPECT_EQ(eval("defined(B)"), 0);
  EXPECT_EQ(eval("!defined(B)"), 1);
  EXPECT_EQ(eval("defined(A) && defined(B)"), 0);
  EXPECT_EQ(eval("defined(A) || defined(B)"), 1);
  EXPECT_EQ(eval("!(defined(A) && !defined(B))"), 0);
  EXPECT_EQ(eval("defined(B) || (defined(A) && ARCH >= 900)"), 1);
}

TEST(GuardExpr, IntegerComparisonsAndUndefinedMacrosAreZero) {
  EXPECT_EQ(eval("ARCH >= 900"), 1);
  EXPECT_EQ(eval("ARCH > 900"), 0);
  EXPECT_EQ(eval("ARCH == 900"), 1);
  EXPECT_EQ(eval("ARCH != 800"), 1);
  EXPECT_EQ(eval("ARCH < 1000 && ARCH <= 900"), 1);
  EXPECT_EQ(eval("UNDEFINED_MACRO"), 0);
  EXPECT_EQ(eval("UNDEFINED_MACRO >= 1"), 0);
  EXPECT_EQ(eval("1000L > ARCH"), 1);
}

TEST(GuardExpr, NamesEveryMacro) {
  auto g = evaluate_guard("defined(X) && (Y > 2 || !defined Z)", {});
  ASSERT_TRUE(g.ok);
  EXPECT_EQ(g.macros, (std::set<std::string>{"X", "Y", "Z"}));
}

TEST(GuardExpr, UnparseableIsLocatedNeverGuessed) {
  struct Case {
    const char* expr;
    int column;
  } cases[] = {{"defined(A", 10}, {"A &&", 5},  {"(A", 3},        {"A B", 3},
               {"FOO(1)", 1},     {"12abc", 3}, {"defined()", 9}, {"A & B", 3}};
  for (const auto& c : cases) {
    auto g = evaluate_guard(c.expr, {});
    EXPECT_FALSE(g.ok) << c.expr;
    EXPECT_EQ(g.column, c.column) << c.expr << ": " << g.error;
    EXPECT_FALSE(g.error.empty());
  }
}

}  // namespace
}  // namespace hwaccel::kernels
