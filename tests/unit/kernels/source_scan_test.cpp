#include "src/kernels/source_scan.h"

#include <gtest/gtest.h>

namespace hwaccel::kernels {
namespace {

const KernelDef& find(const ScanResult& r, const std::string& name) {
  for (const auto& k : r.kernels)
    if (k.name == name) return k;
  throw std::runtime_error("no kernel " + name);
}

TEST(SourceScan, NestedElifElseRegions) {
  const char* text =
      "#include <cuda.h>\n"
      "__global__ void top(int x) {}\n"
      "#if ARCH >= 900 // hopper\n"
      "#ifdef HAS_TMA\n"
      "__global__ void __launch_bounds__(128) a_tma(float* p) {}\n"
      "#endif\n"
      "#elif ARCH >= 800\n"
      "__global__ void b_mma(float* p) {}\n"
      "#else\n"
      "  __global__ void c_simt(float* p) {}\n"
      "#endif\n"
      "#ifndef NO_X\n"
      "__global__ void d(int) {}\n"
      "#endif\n";
  auto r = scan_source(text, "t/k.cu");
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.kernels.size(), 5u);
  EXPECT_TRUE(find(r, "top").conditions.empty());
  const auto& a = find(r, "a_tma");
  ASSERT_EQ(a.conditions.size(), 2u);
  EXPECT_EQ(a.conditions[0].expr, "ARCH >= 900");
  EXPECT_TRUE(a.conditions[0].want);
  EXPECT_EQ(a.conditions[1].expr, "defined(HAS_TMA)");
  EXPECT_EQ(a.line, 5);
  const auto& b = find(r, "b_mma");
  ASSERT_EQ(b.conditions.size(), 2u);
  EXPECT_FALSE(b.conditions[0].want);  // the #if branch must be false
  EXPECT_EQ(b.conditions[1].expr, "ARCH >= 800");
  const auto& c = find(r, "c_simt");
  ASSERT_EQ(c.conditions.size(), 2u);
  EXPECT_FALSE(c.conditions[0].want);
  EXPECT_FALSE(c.conditions[1].want);
  const auto& d = find(r, "d");
  ASSERT_EQ(d.conditions.size(), 1u);
  EXPECT_EQ(d.conditions[0].expr, "!defined(NO_X)");
}

TEST(SourceScan, BlockCommentsAndContinuationsAreNotDirectives) {
  const char* text =
      "/* #if NOT_A_DIRECTIVE\n"
      "   still a comment */\n"
      "#if defined(A) && \\\n"
      "    defined(B)\n"
      "__global__ void k(int) {}\n"
      "#endif\n";
  auto r = scan_source(text, "k.cu");
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].conditions.size(), 1u);
  EXPECT_EQ(r.kernels[0].line, 5);
}

TEST(SourceScan, UnparseableGuardIsALocatedError) {
  auto r = scan_source("// x\n#if defined(A) &&& B\n#endif\n", "tree/k.cu");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error.rfind("tree/k.cu:2:", 0), 0u) << r.error;
}

TEST(SourceScan, UnbalancedRegionsAreLocatedErrors) {
  EXPECT_EQ(scan_source("#endif\n", "k.cu").error, "k.cu:1:1: #endif without #if");
  EXPECT_EQ(scan_source("\n#ifdef A\n", "k.cu").error,
            "k.cu:2:1: #if without #endif at the end of the file");
  EXPECT_EQ(scan_source("#if A\n#else\n#elif B\n#endif\n", "k.cu").error,
            "k.cu:3:1: #elif after #else");
  EXPECT_EQ(scan_source("#ifdef A B\n#endif\n", "k.cu").error.substr(0, 8), "k.cu:1:9");
}

}  // namespace
}  // namespace hwaccel::kernels
