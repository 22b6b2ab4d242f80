#include "src/kernels/formats.h"

#include <gtest/gtest.h>

#include "src/plan/model_spec.h"

namespace hwaccel::kernels {
namespace {

plan::Sku sku(std::map<std::string, double> peaks, std::vector<std::string> instructions) {
  plan::Sku s;
  s.id = "dev";
  for (auto& [f, v] : peaks) {
    s.peak_flops[f] = v * 1e12;
    s.native.push_back(f);
  }
  s.instructions = std::move(instructions);
  return s;
}

const plan::Sku kAmpere = sku({{"bf16", 312}, {"int8", 624}}, {"mma_sync"});
const plan::Sku kHopper =
    sku({{"bf16", 989}, {"fp8", 1979}, {"int8", 1979}}, {"mma_sync", "mma_sync_fp8", "wgmma"});
const plan::Sku kBlackwell = sku({{"bf16", 2250}, {"fp8", 4500}, {"fp4", 9000}},
                                 {"mma_sync", "mma_sync_fp8", "tcgen05", "fp4_block_scale"});

TEST(Formats, Native) {
  auto e = execute({"nvfp4", "nvfp4", "linear", 4.5}, kBlackwell);
  EXPECT_EQ(e.kind, Execution::native);
  EXPECT_EQ(e.runs_as, "fp4");
  EXPECT_EQ(execute({"fp8_e4m3", "fp8_e4m3", "linear", 8}, kHopper).kind, Execution::native);
}

TEST(Formats, ConvertedExactly) {
  auto nv = execute({"nvfp4", "nvfp4", "linear", 4.5}, kHopper);
  EXPECT_EQ(nv.kind, Execution::converted);
  EXPECT_EQ(nv.runs_as, "fp8");  // E2M1 -> E4M3, at the FP8 rate
  EXPECT_NE(nv.detail.find("E2M1 -> E4M3 is exact"), std::string::npos);
  auto f8 = execute({"fp8_e4m3", "fp8_e4m3", "linear", 8}, kAmpere);
  EXPECT_EQ(f8.kind, Execution::converted);
  EXPECT_EQ(f8.runs_as, "bf16");
}

TEST(Formats, UnsupportedNeverASilentUpcast) {
  auto mx = execute({"mxfp4", "bf16", "experts", 4.25}, kHopper);
  EXPECT_EQ(mx.kind, Execution::unsupported);
  EXPECT_TRUE(mx.runs_as.empty());
  auto i8 = execute({"int8", "int8", "linear", 8}, kBlackwell);  // no int8 peak here
  EXPECT_EQ(i8.kind, Execution::unsupported);
  EXPECT_NE(i8.detail.find("not exact"), std::string::npos);
  EXPECT_EQ(execute({"q4_k_m", "bf16", "whole", 4.89}, kHopper).kind, Execution::unsupported);
}

TEST(Formats, DeclaredPairsFollowTheQuantisation) {
  auto m = plan::builtin_model("gpt-oss-20B");
  ASSERT_TRUE(m.spec);
  auto pairs = declared_pairs(*m.spec, *plan::find_quant("mxfp4"));
  ASSERT_EQ(pairs.size(), 3u);
  EXPECT_EQ(pairs[0].weight, "mxfp4");
  EXPECT_EQ(pairs[0].activation, "bf16");
  EXPECT_EQ(pairs[2].scope, "embedding and lm_head");
}

}  // namespace
}  // namespace hwaccel::kernels
