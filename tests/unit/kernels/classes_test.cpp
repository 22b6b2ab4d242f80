#include "src/kernels/classes.h"

#include <gtest/gtest.h>

#include "tests/unit/kernels/tiny_tree.h"

namespace hwaccel::kernels {
namespace {

TEST(Classes, ChainFlagsModulesAndChangedSettings) {
  auto tree = testing::tiny_tree();
  auto r = resolve_class(tree, "derived");
  ASSERT_TRUE(r.resolved) << r.error;
  const auto& rc = *r.resolved;
  EXPECT_EQ(rc.chain, (std::vector<std::string>{"derived", "base"}));
  EXPECT_EQ(rc.defined, (MacroSet{{"ARCH", 900}}));
  EXPECT_TRUE(rc.undefined.count("SPLIT"));
  EXPECT_EQ(rc.modules, (std::set<std::string>{"k/a.cu", "k/c.cu"}));
  ASSERT_EQ(rc.changed.size(), 1u);  // smem is set again to the same value: not a change
  EXPECT_EQ(rc.changed[0].key, "backend");
  EXPECT_EQ(rc.changed[0].value, "y");
  EXPECT_EQ(rc.changed[0].was, "x");
  EXPECT_EQ(rc.policy_class, "base");  // inherited
}

TEST(Classes, ACycleIsAnErrorThatNamesIt) {
  auto files = testing::tiny_files();
  files["base/HARDWARE.toml"] = "inherits = \"derived\"\n" + files["base/HARDWARE.toml"];
  auto tree = parse_tree(files, "tiny");
  ASSERT_TRUE(tree.tree) << tree.error;
  auto r = resolve_class(*tree.tree, "derived");
  EXPECT_FALSE(r.resolved);
  EXPECT_EQ(r.error.rfind("class chain has a cycle: derived -> base -> derived", 0), 0u) << r.error;
}

TEST(Classes, UnknownParentIsRefusedWhenTheTreeIsRead) {
  auto files = testing::tiny_files();
  files["base/HARDWARE.toml"] = "inherits = \"sm70\"\n" + files["base/HARDWARE.toml"];
  auto tree = parse_tree(files, "tiny");
  EXPECT_FALSE(tree.tree);
  EXPECT_EQ(tree.error, "tiny/base/HARDWARE.toml: inherits \"sm70\": no such class folder");
}

}  // namespace
}  // namespace hwaccel::kernels
