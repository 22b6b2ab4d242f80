#include "src/plan/planner.h"

#include <gtest/gtest.h>

namespace hwaccel::plan {
namespace {

PlanRequest request(const char* model, const char* quant, int context = 4096) {
  PlanRequest r;
  r.spec = *builtin_model(model).spec;
  r.quant = *find_quant(quant);
  r.workload.context = context;
  return r;
}

TEST(Sharding, BalanceLayersByRoom) {
  auto n = balance_layers({30, 10}, 1, 80);
  EXPECT_EQ(n[0] + n[1], 80);
  EXPECT_EQ(n[0], 60);
  EXPECT_EQ(n[1], 20);
}

TEST(Planner, Llama70BOnEightH100IsTensorParallel) {
  const auto& cat = builtin_catalogue();
  DeviceSet set = synthetic_devices(*cat.find("h100-sxm"), 8, 3584.0 * 1024 * 1024);
  auto r = make_plan(request("Llama-3-70B", "bf16"), set, cat);
  ASSERT_TRUE(r.fits()) << r.why;
  const auto& chosen = r.candidates[*r.chosen];
  EXPECT_EQ(chosen.plan.kind, PlanKind::tensor);
  EXPECT_EQ(chosen.plan.tp, 8);
  ASSERT_TRUE(chosen.estimate.available);
  EXPECT_GT(chosen.estimate.decode_tok_s_1, 10);
  EXPECT_GT(chosen.estimate.decode_tok_s_b, chosen.estimate.decode_tok_s_1);
}

TEST(Planner, DoesNotFitSaysWhereItWould) {
  const auto& cat = builtin_catalogue();
  DeviceSet set = synthetic_devices(*cat.find("rtx-4090"), 1, 3584.0 * 1024 * 1024);
  auto r = make_plan(request("Llama-3-70B", "bf16"), set, cat);
  EXPECT_FALSE(r.fits());
  EXPECT_EQ(r.why.rfind("does not fit: needs ", 0), 0u);
  EXPECT_FALSE(r.fits_on.empty());
  bool mi300 = false;
  for (const auto& f : r.fits_on) mi300 |= f == "mi300x x1";
  EXPECT_TRUE(mi300);
}

TEST(Planner, OffloadUsesHostMemoryButNotOnUnified) {
  const auto& cat = builtin_catalogue();
  DeviceSet set = synthetic_devices(*cat.find("rtx-4090"), 1, 0, 64e9);
  auto r = make_plan(request("Llama-3-70B", "q4_k_m"), set, cat);
  ASSERT_TRUE(r.fits()) << r.why;
  EXPECT_EQ(r.candidates[*r.chosen].plan.kind, PlanKind::offload);
  DeviceSet gb10 = synthetic_devices(*cat.find("gb10"), 1, 0, 128e9);  // unified: no CPU added
  for (const auto& c : candidate_plans(
           model_cost(request("Llama-3-70B", "bf16").spec, *find_quant("bf16"), {}), gb10))
    EXPECT_NE(c.kind, PlanKind::offload);
}

TEST(Planner, SuggestsTheBestQuantThatFits) {
  const auto& cat = builtin_catalogue();
  DeviceSet set = synthetic_devices(*cat.find("gb10"), 1, 3584.0 * 1024 * 1024);
  auto r = make_plan(request("Llama-3-70B", "bf16"), set, cat);
  EXPECT_FALSE(r.fits());
  ASSERT_FALSE(r.quant_fits.empty());
  EXPECT_EQ(r.quant_fits.front().quant, "fp8");
}

TEST(Estimate, DecodeIsBandwidthBound) {
  const auto& cat = builtin_catalogue();
  DeviceSet set = synthetic_devices(*cat.find("rtx-4090"), 1, 0);
  auto req = request("Llama-2-7B", "q4_0", 64);
  auto cost = model_cost(req.spec, req.quant, req.workload);
  auto plans = candidate_plans(cost, set);
  ASSERT_FALSE(plans.empty());
  auto t = decode_step_seconds(plans[0], cost, set, cat, 1, 64);
  ASSERT_TRUE(t);
  double eff = cat.perf_classes.at("nvidia-consumer").decode_efficiency;
  double expect = cost.weights.per_token / (1008e9 * eff);
  EXPECT_NEAR(*t, expect, expect * 0.05);
}

}  // namespace
}  // namespace hwaccel::plan
