// Properties of memory fit and sharding over generated models and devices.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "src/plan/planner.h"

namespace hwaccel::plan {
namespace {

rc::Gen<ModelSpec> gen_model() {
  return rc::gen::exec([] {
    ModelSpec m;
    m.name = "gen";
    m.origin = "generated";
    m.layers = *rc::gen::inRange(1, 97);
    int head_dim = *rc::gen::element(64, 96, 128);
    m.kv_heads = *rc::gen::element(1, 2, 4, 8);
    m.heads = m.kv_heads * *rc::gen::element(1, 2, 4, 8);
    m.head_dim = head_dim;
    m.hidden = m.heads * head_dim;
    m.intermediate = m.hidden * *rc::gen::inRange(2, 5);
    m.vocab = *rc::gen::inRange(1000, 200000);
    m.tied_embeddings = *rc::gen::arbitrary<bool>();
    if (*rc::gen::arbitrary<bool>()) {
      m.experts = *rc::gen::element(8, 16, 64);
      m.experts_per_token = *rc::gen::inRange(1, 5);
    }
    if (*rc::gen::arbitrary<bool>()) {
      m.sliding_window = *rc::gen::element(128, 1024, 4096);
      m.sliding_layers = *rc::gen::inRange(0, m.layers + 1);
    }
    return m;
  });
}

rc::Gen<Workload> gen_workload() {
  return rc::gen::exec([] {
    Workload w;
    w.context = *rc::gen::inRange(1, 131072);
    w.batch = *rc::gen::inRange(1, 16);
    w.kv = *rc::gen::element(std::string("fp16"), std::string("fp8"), std::string("q8_0"));
    return w;
  });
}

const QuantLevel& gen_quant() {
  return quant_levels()[*rc::gen::inRange<std::size_t>(0, quant_levels().size())];
}

// The devices of `sku`, each with `capacity` bytes.
DeviceSet devices(const std::string& sku, int n, double capacity, bool cpu, double cpu_capacity) {
  const auto& cat = builtin_catalogue();
  DeviceSet set = synthetic_devices(*cat.find(sku), n, 0, cpu ? 1e12 : 0);
  for (auto& d : set.devices) d.capacity = d.cpu ? cpu_capacity : capacity;
  return set;
}

// Bits of each tensor group, for "lower-bit never needs more memory".
std::vector<double> group_bits(const QuantLevel& q, bool moe) {
  ModelSpec m;
  m.layers = 1, m.hidden = 1, m.heads = 1, m.kv_heads = 1, m.head_dim = 1, m.intermediate = 1,
  m.vocab = 1;
  if (moe) m.experts = 1, m.experts_per_token = 1;
  // Probe each group alone with a unit parameter count.
  std::vector<double> out;
  ParamCounts one;
  for (int g = 0; g < 5; ++g) {
    ParamCounts c;
    c.active_fraction_of_experts = 1;
    double* fields[] = {&c.embedding, &c.attention, &c.routed_experts, &c.norms, &c.lm_head};
    *fields[g] = 8;
    out.push_back(weight_bytes(m, c, q).total);
  }
  return out;
}

RC_GTEST_PROP(PlanProp, MoreMemoryNeverStopsAFit, ()) {
  ModelSpec m = *gen_model();
  Workload w = *gen_workload();
  PlanRequest req{m, gen_quant(), w, 8, "", ""};
  const auto& cat = builtin_catalogue();
  std::string sku = *rc::gen::element(std::string("h100-sxm"), std::string("rtx-4090"),
                                      std::string("mi300x"), std::string("gb10"));
  int n = *rc::gen::element(1, 2, 4, 8);
  double cap = *rc::gen::inRange(1, 400) * 1e9;
  double extra = *rc::gen::inRange(0, 400) * 1e9;
  bool cpu = *rc::gen::arbitrary<bool>();
  double cpu_cap = *rc::gen::inRange(0, 1000) * 1e9;
  auto small = make_plan(req, devices(sku, n, cap, cpu, cpu_cap), cat, false);
  auto big = make_plan(req, devices(sku, n, cap + extra, cpu, cpu_cap + extra), cat, false);
  RC_ASSERT(!small.fits() || big.fits());
}

RC_GTEST_PROP(PlanProp, LowerBitNeverNeedsMoreMemory, ()) {
  ModelSpec m = *gen_model();
  Workload w = *gen_workload();
  const QuantLevel& a = gen_quant();
  const QuantLevel& b = gen_quant();
  auto ba = group_bits(a, m.moe());
  auto bb = group_bits(b, m.moe());
  bool lower = true;
  for (std::size_t i = 0; i < ba.size(); ++i) lower &= ba[i] <= bb[i];
  RC_PRE(lower);
  auto ca = model_cost(m, a, w);
  auto cb = model_cost(m, b, w);
  RC_ASSERT(ca.footprint.total() <= cb.footprint.total() * (1 + 1e-12));
  RC_ASSERT(ca.weights.per_token <= cb.weights.per_token * (1 + 1e-12));
}

RC_GTEST_PROP(PlanProp, ShardsCoverEveryLayerOnceAndChosenShardsFit, ()) {
  ModelSpec m = *gen_model();
  Workload w = *gen_workload();
  PlanRequest req{m, gen_quant(), w, 8, "", ""};
  const auto& cat = builtin_catalogue();
  std::string sku =
      *rc::gen::element(std::string("h100-sxm"), std::string("a100-80gb"), std::string("rtx-4090"));
  auto set = devices(sku, *rc::gen::element(1, 2, 3, 4, 8), *rc::gen::inRange(1, 200) * 1e9,
                     *rc::gen::arbitrary<bool>(), *rc::gen::inRange(0, 500) * 1e9);
  auto r = make_plan(req, set, cat, false);
  for (const auto& c : r.candidates) {
    std::vector<int> covered(m.layers, 0);
    for (const auto& st : c.plan.stages) {
      for (int l = st.first_layer; l < st.first_layer + st.layer_count; ++l) {
        RC_ASSERT(l >= 0 && l < m.layers);
        ++covered[l];
      }
    }
    for (int k : covered) RC_ASSERT(k == 1);
  }
  if (r.chosen) {
    for (const auto& s : r.candidates[*r.chosen].plan.shards) RC_ASSERT(s.total() <= s.capacity);
  }
}

RC_GTEST_PROP(PlanProp, SuggestedQuantisationFits, ()) {
  ModelSpec m = *gen_model();
  Workload w = *gen_workload();
  PlanRequest req{m, *find_quant("bf16"), w, 8, "", ""};
  const auto& cat = builtin_catalogue();
  auto set = devices(*rc::gen::element(std::string("h100-sxm"), std::string("gb10")),
                     *rc::gen::element(1, 2, 4), *rc::gen::inRange(1, 120) * 1e9, false, 0);
  auto r = make_plan(req, set, cat, true);
  if (!r.quant_fits.empty()) {
    PlanRequest s = req;
    s.quant = *find_quant(r.quant_fits.front().quant);
    RC_ASSERT(make_plan(s, set, cat, false).fits());
    // And nothing of better quality (earlier in the list) was skipped.
    for (const auto& q : quant_levels()) {
      if (q.name == r.quant_fits.front().quant) break;
      if (q.name == "fp32") continue;
      PlanRequest better = req;
      better.quant = q;
      RC_ASSERT(!make_plan(better, set, cat, false).fits());
    }
  }
}

}  // namespace
}  // namespace hwaccel::plan
