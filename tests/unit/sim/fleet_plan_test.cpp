// The fleet's planning verdict: the same plan `hwaccel plan` makes on the host,
// in words the aggregate can count.
#include "sim/fleet_plan.h"

#include <gtest/gtest.h>

#include "sim/fleet.h"
#include "src/host/snapshot_host.h"
#include "src/plan/model_spec.h"
#include "src/plan/quant.h"
#include "tests/support/test_support.h"

namespace hwaccel::sim {
namespace {

plan::PlanRequest request(const std::string& model, const std::string& quant) {
  plan::PlanRequest r;
  r.spec = *plan::builtin_model(model).spec;
  r.quant = *plan::find_quant(quant);
  return r;
}

Detection detect_fixture(const std::string& name) {
  auto loaded = load_snapshot_file(testing::source_path("fixtures/hosts/" + name + ".yaml"));
  EXPECT_FALSE(loaded.error);
  SnapshotHost host(std::move(*loaded.snapshot));
  return detect(host);
}

TEST(FleetPlan, ShortfallBucketsArePowersOfTwo) {
  EXPECT_EQ(shortfall_bucket(0.5 * (1 << 30)), "under 1 GiB");
  EXPECT_EQ(shortfall_bucket(1.0 * (1 << 30)), "up to 1 GiB");
  EXPECT_EQ(shortfall_bucket(3.2 * (1 << 30)), "up to 4 GiB");
  EXPECT_EQ(shortfall_bucket(100.0 * (1 << 30)), "up to 128 GiB");
}

TEST(FleetPlan, EightH100sServeA70BModelInFp16) {
  const auto v = plan_verdict(detect_fixture("dgx-h100"), 3584ull << 20,
                              request("Llama-3-70B", "fp16"), plan::builtin_catalogue());
  EXPECT_EQ(v.rfind("fits: ", 0), 0u) << v;
}

TEST(FleetPlan, A405BModelDoesNotFitOnOneGpuAndSaysByHowMuch) {
  const auto v = plan_verdict(detect_fixture("ws-4090-busy"), 3584ull << 20,
                              request("Llama-3.1-405B", "fp16"), plan::builtin_catalogue());
  EXPECT_EQ(v.rfind("does not fit: short by up to ", 0), 0u) << v;
}

TEST(FleetPlan, TheAggregateCountsVerdicts) {
  FleetAggregate a;
  auto loaded = load_snapshot_file(testing::source_path("fixtures/hosts/dgx-h100.yaml"));
  ASSERT_FALSE(loaded.error);
  const auto req = request("Llama-3-70B", "fp16");
  HostVerdict verdict = [&](const Detection& d, std::uint64_t reserve) {
    return plan_verdict(d, reserve, req, plan::builtin_catalogue());
  };
  add_snapshot(a, *loaded.snapshot, Reserve{}, verdict);
  add_snapshot(a, *loaded.snapshot, Reserve{}, verdict);
  ASSERT_EQ(a.verdicts.size(), 1u);
  EXPECT_EQ(a.verdicts.begin()->second, 2u);
  EXPECT_NE(render_fleet(a, "SERVES Llama-3-70B fp16").find("SERVES Llama-3-70B fp16"),
            std::string::npos);
}

}  // namespace
}  // namespace hwaccel::sim
