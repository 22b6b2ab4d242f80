#include "src/kernels/availability.h"

#include <gtest/gtest.h>

#include "tests/unit/kernels/tiny_tree.h"

namespace hwaccel::kernels {
namespace {

struct Fixture {
  KernelTree tree = testing::tiny_tree();
  Availability of(const std::string& device, const std::string& kernel) {
    const plan::Sku* sku = tree.devices.find(device);
    auto rc = resolve_class(tree, sku->kernel_class);
    EXPECT_TRUE(rc.resolved) << rc.error;
    return availability(tree.kernels.at(kernel), *rc.resolved, *sku, tree.devices.guards);
  }
};

TEST(Availability, AvailableInsideATrueRegion) {
  Fixture f;
  auto a = f.of("hopper", "needs_wgmma");
  EXPECT_EQ(a.reason, Reason::available);
  EXPECT_EQ(a.where, "k/a.cu:3");
}

TEST(Availability, ModuleNotCompiledForTheClass) {
  Fixture f;
  auto a = f.of("ampere", "derived_only");  // k/c.cu is a module of `derived` only
  EXPECT_EQ(a.reason, Reason::not_compiled);
  EXPECT_EQ(a.detail, "module k/c.cu is not compiled for class base");
  auto b = f.of("hopper", "removed");
  EXPECT_EQ(b.reason, Reason::not_compiled);
  EXPECT_EQ(b.detail, "module k/b.cu is removed by class derived");
}

TEST(Availability, RegionExcludedByTheClassFlags) {
  Fixture f;
  EXPECT_EQ(f.of("ampere", "split").reason, Reason::available);
  auto a = f.of("hopper", "split");  // derived: -USPLIT
  EXPECT_EQ(a.reason, Reason::region_excluded);
  EXPECT_NE(a.detail.find("SPLIT is removed by derived: -USPLIT"), std::string::npos) << a.detail;
}

TEST(Availability, RegionExcludedBecauseAnEarlierBranchIsTaken) {
  Fixture f;
  auto a = f.of("hopper", "without_wgmma");
  EXPECT_EQ(a.reason, Reason::region_excluded);
  EXPECT_NE(a.detail.find("which is taken: hopper has wgmma"), std::string::npos) << a.detail;
  EXPECT_EQ(f.of("ampere", "without_wgmma").reason, Reason::available);
}

TEST(Availability, DeviceLacksTheInstructionTheGuardStandsFor) {
  Fixture f;
  auto a = f.of("ampere", "needs_wgmma");
  EXPECT_EQ(a.reason, Reason::lacks_instruction);
  EXPECT_NE(a.detail.find("HAS_WGMMA stands for wgmma, which ampere (sm_90) lacks"),
            std::string::npos)
      << a.detail;
}

TEST(Availability, ListedAsExpectedAbsent) {
  Fixture f;
  auto a = f.of("hopper", "listed");
  EXPECT_EQ(a.reason, Reason::expected_absent);
  EXPECT_EQ(a.detail, "listed as expected-absent by derived: not built here");
  EXPECT_EQ(f.of("ampere", "listed").reason, Reason::available);
}

TEST(Availability, FlagsContradictingTheDeviceNameClassMacroDeviceInstruction) {
  auto files = testing::tiny_files();
  files["base/HARDWARE.toml"] += "";
  auto text = files["base/HARDWARE.toml"];
  text.replace(text.find("\"-DSPLIT\""), 9, "\"-DSPLIT\", \"-DHAS_WGMMA\"");
  files["base/HARDWARE.toml"] = text;
  auto tree = parse_tree(files, "tiny");
  ASSERT_TRUE(tree.tree) << tree.error;
  const plan::Sku* ampere = tree.tree->devices.find("ampere");
  auto rc = resolve_class(*tree.tree, "base");
  auto errors = flag_contradictions(*rc.resolved, *ampere, tree.tree->devices.guards);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0],
            "class base defines HAS_WGMMA (base: -DHAS_WGMMA), which stands for wgmma, but "
            "device ampere (sm_90) lacks the instruction wgmma");
  // The reverse: a class that undefines a guard the device has.
  text = files["derived/HARDWARE.toml"];
  text.replace(text.find("\"-USPLIT\""), 9, "\"-USPLIT\", \"-UHAS_WGMMA\"");
  files["derived/HARDWARE.toml"] = text;
  tree = parse_tree(files, "tiny");
  ASSERT_TRUE(tree.tree) << tree.error;
  rc = resolve_class(*tree.tree, "derived");
  errors = flag_contradictions(*rc.resolved, *tree.tree->devices.find("hopper"),
                               tree.tree->devices.guards);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("class derived undefines HAS_WGMMA"), std::string::npos);
  EXPECT_NE(errors[0].find("has the instruction wgmma"), std::string::npos);
}

}  // namespace
}  // namespace hwaccel::kernels
