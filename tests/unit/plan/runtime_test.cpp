// Runtime profiles: the profile math (fixed per-token cost, bytes over
// efficiency), the activation format prefill is priced at, the experts a MoE
// prompt touches, the runtime assumed, and the formats a runtime refuses or
// emulates.
#include <gtest/gtest.h>

#include <cmath>

#include "src/plan/estimate.h"
#include "src/plan/planner.h"
#include "src/plan/runtime.h"

namespace hwaccel::plan {
namespace {

const Sku& sku(const char* id) {
  return *builtin_catalogue().find(id);
}

TEST(ExpertsTouched, FollowsTheExpectedDistinctCount) {
  EXPECT_DOUBLE_EQ(experts_touched(32, 4, 1), 4);  // one token: its k experts
  // E * (1 - (1 - k/E)^N): 32 * (1 - (7/8)^8) = 20.82...
  EXPECT_NEAR(experts_touched(32, 4, 8), 32 * (1 - std::pow(7.0 / 8, 8)), 1e-9);
  EXPECT_NEAR(experts_touched(128, 8, 512), 128, 1e-6);  // a pp512 touches them all
  EXPECT_DOUBLE_EQ(experts_touched(8, 8, 3), 8);
  EXPECT_DOUBLE_EQ(experts_touched(0, 2, 100), 0);
}

TEST(ActivationFormat, IsTheRuntimesNotTheWeights) {
  RuntimeProfile fp16;
  fp16.activation = "fp16";
  const QuantLevel& q4 = *find_quant("q4_0");  // computed as int8 by its level
  EXPECT_EQ(activation_format(&fp16, q4, sku("rtx-4090")), "fp16");
  RuntimeProfile weights;  // "weights": the level's own format
  EXPECT_EQ(activation_format(&weights, q4, sku("rtx-4090")), "int8");
  EXPECT_EQ(activation_format(nullptr, *find_quant("fp8"), sku("h100-sxm")), "fp8");
  RuntimeProfile fp8;
  fp8.activation = "fp8";  // not on an A100: its best 16-bit format
  EXPECT_EQ(activation_format(&fp8, *find_quant("fp8"), sku("a100-80gb")), "bf16");
}

// One device, one plan, the built-in catalogue with a profile of our own.
struct Bench {
  Catalogue cat = builtin_catalogue();
  DeviceSet set;
  ModelCost cost;
  Plan plan;
  Bench(const char* device, const char* model, const char* quant, const RuntimeProfile& p) {
    cat.runtimes[p.runtime][p.perf_class] = p;
    set = synthetic_devices(*cat.find(device), 1, 0);
    set.devices[0].capacity = 1e15;
    Workload w;
    w.runtime = p.runtime;
    cost = model_cost(*builtin_model(model).spec, *find_quant(quant), w);
    plan = candidate_plans(cost, set).front();
  }
};

TEST(RuntimeProfile, DecodeIsFixedCostPlusBytesOverEfficiency) {
  RuntimeProfile p;
  p.runtime = "vllm", p.perf_class = "nvidia-datacenter";
  p.decode_efficiency = 0.5, p.prefill_efficiency = 0.5;
  Bench none("h100-sxm", "Llama-3-8B", "bf16", p);
  p.per_token_us = 5000;
  Bench fixed("h100-sxm", "Llama-3-8B", "bf16", p);
  StepWork work;
  auto t0 = decode_step_seconds(none.plan, none.cost, none.set, none.cat, 1, 64, nullptr, &work);
  auto t1 = decode_step_seconds(fixed.plan, fixed.cost, fixed.set, fixed.cat, 1, 64);
  ASSERT_TRUE(t0 && t1);
  EXPECT_NEAR(*t1 - *t0, 5e-3, 1e-12);  // once per step, not per layer
  EXPECT_NEAR(*t0, work.bytes / (3350e9 * 0.5), 1e-9);
  p.per_token_us = 0, p.decode_efficiency = 0.25;  // half the efficiency: twice the time
  Bench half("h100-sxm", "Llama-3-8B", "bf16", p);
  auto t2 = decode_step_seconds(half.plan, half.cost, half.set, half.cat, 1, 64);
  EXPECT_NEAR(*t2, 2 * *t0, 1e-9);
}

TEST(RuntimeProfile, DecodePaysTheMoeCostOncePerLayerWithExperts) {
  RuntimeProfile p;
  p.runtime = "vllm", p.perf_class = "nvidia-datacenter";
  p.decode_efficiency = 0.5, p.prefill_efficiency = 0.5;
  Bench moe0("h200-sxm", "DeepSeek-V3", "fp8", p);
  Bench dense0("h200-sxm", "Llama-3-8B", "bf16", p);
  p.moe_layer_us = 100;
  Bench moe1("h200-sxm", "DeepSeek-V3", "fp8", p);
  Bench dense1("h200-sxm", "Llama-3-8B", "bf16", p);
  auto m0 = decode_step_seconds(moe0.plan, moe0.cost, moe0.set, moe0.cat, 1, 64);
  auto m1 = decode_step_seconds(moe1.plan, moe1.cost, moe1.set, moe1.cat, 1, 64);
  auto d0 = decode_step_seconds(dense0.plan, dense0.cost, dense0.set, dense0.cat, 1, 64);
  auto d1 = decode_step_seconds(dense1.plan, dense1.cost, dense1.set, dense1.cat, 1, 64);
  ASSERT_TRUE(m0 && m1 && d0 && d1);
  EXPECT_NEAR(*m1 - *m0, 58 * 100e-6, 1e-12);  // 61 layers, the first 3 dense
  EXPECT_EQ(*d1, *d0);                         // a dense model pays none
  // Prefill does not pay it.
  EXPECT_EQ(prefill_seconds(moe1.plan, moe1.cost, moe1.set, moe1.cat, 512),
            prefill_seconds(moe0.plan, moe0.cost, moe0.set, moe0.cat, 512));
}

TEST(RuntimeProfile, PrefillIsPricedAtTheActivationPeak) {
  RuntimeProfile p;
  p.runtime = "llama.cpp", p.perf_class = "nvidia-consumer";
  p.decode_efficiency = 1, p.prefill_efficiency = 1, p.activation = "weights";
  Bench int8("rtx-4090", "Llama-2-7B", "q4_0", p);
  p.activation = "fp16";
  Bench fp16("rtx-4090", "Llama-2-7B", "q4_0", p);
  StepWork w;
  auto a = prefill_seconds(int8.plan, int8.cost, int8.set, int8.cat, 512, &w);
  auto b = prefill_seconds(fp16.plan, fp16.cost, fp16.set, fp16.cat, 512);
  ASSERT_TRUE(a && b);
  double bytes_t = w.bytes / 1008e9;
  // FLOPs at 165.2 (fp16) instead of 660.6 TFLOPS (int8).
  EXPECT_NEAR((*b - bytes_t) / (*a - bytes_t), 660.6 / 165.2, 1e-6);
  EXPECT_NEAR(*b - bytes_t, w.flops / 165.2e12, 1e-9);
}

TEST(RuntimeProfile, MoePrefillReadsOnlyTheExpertsItsTokensTouch) {
  RuntimeProfile p;
  p.runtime = "llama.cpp", p.perf_class = "nvidia-gb10";
  Bench b("gb10", "gpt-oss-120B", "mxfp4", p);
  StepWork one, many;
  prefill_seconds(b.plan, b.cost, b.set, b.cat, 1, &one);
  prefill_seconds(b.plan, b.cost, b.set, b.cat, 4096, &many);
  const auto& m = b.cost.spec;
  double per_expert = b.cost.weights.experts_total / m.experts;
  // One token reads k experts per layer; 4096 tokens all of them.
  EXPECT_NEAR(many.bytes - one.bytes, per_expert * (m.experts - m.experts_per_token), 1e3);
}

// The MoE prefill as llama.cpp's MUL_MAT_ID runs it: every token computes
// its k experts (FLOPs linear in N at the active parameters), the weights
// read are the experts the prompt touches (a few at small N, all at large
// N), and the time is compute plus that read, at the int8 MMQ peak for MXFP4.
TEST(MoePrefill, ComputesTheActiveExpertsAndReadsTheTouchedOnes) {
  RuntimeProfile p;  // no profile for the class: the perf class's figures
  p.runtime = "llama.cpp";
  Bench b("gb10", "gpt-oss-20B", "mxfp4", p);
  const auto& m = b.cost.spec;
  ASSERT_EQ(m.experts, 32);
  ASSERT_EQ(m.experts_per_token, 4);
  double per_expert = b.cost.weights.experts_total / m.experts;
  auto work = [&](int n) {
    StepWork w;
    EXPECT_TRUE(prefill_seconds(b.plan, b.cost, b.set, b.cat, n, &w));
    return w;
  };
  StepWork w1 = work(1), w8 = work(8), w2k = work(2048);
  // 8 tokens: 32 * (1 - (7/8)^8) = 21.0 experts per layer, not 8 x 4 = 32.
  EXPECT_NEAR(w8.bytes - w1.bytes, per_expert * (experts_touched(32, 4, 8) - 4), 1e3);
  EXPECT_NEAR(experts_touched(32, 4, 8), 21.0, 0.01);
  // 2048 tokens: all 32, once (the whole file's experts).
  EXPECT_NEAR(w2k.bytes - w1.bytes, per_expert * 28, 1e3);
  // FLOPs: 2 x active parameters per token (4 of 32 experts), whatever N
  // (the head's logits once, for the last token).
  const auto& pc = b.cost.params;
  double head = 2 * (pc.lm_head > 0 ? pc.lm_head : pc.embedding);
  auto per_token = [&](const StepWork& w, int n) {
    return (w.flops - attention_flops(m, n) - head) / n;
  };
  EXPECT_NEAR(per_token(w8, 8) - per_token(w2k, 2048), 0, per_token(w2k, 2048) * 1e-3);
  EXPECT_LT(per_token(w2k, 2048), 2 * b.cost.params.total() / 4);
  // Time: compute at the int8 peak (GB10 250 TFLOPS) + the read, at the class's
  // efficiencies; the fp4 peak (500) made gpt-oss prefill +88% on GB10.
  const PerfClass& cls = *b.cat.perf(sku("gb10"));
  auto t = prefill_seconds(b.plan, b.cost, b.set, b.cat, 2048);
  ASSERT_TRUE(t);
  EXPECT_NEAR(
      *t,
      w2k.flops / (250e12 * cls.prefill_efficiency) + w2k.bytes / (273e9 * cls.decode_efficiency),
      1e-9);
}

TEST(ActivationFormat, IsWhatTheRuntimesKernelsComputeIn) {
  const QuantLevel& mx = *find_quant("mxfp4");
  const QuantLevel& nv = *find_quant("nvfp4");
  // llama.cpp: MXFP4 through int8 MMQ on CUDA/HIP, 16-bit on Metal.
  EXPECT_EQ(activation_format(nullptr, mx, sku("gb10"), "llama.cpp"), "int8");
  EXPECT_EQ(activation_format(nullptr, mx, sku("h100-sxm"), "llama.cpp"), "int8");
  EXPECT_EQ(activation_format(nullptr, mx, sku("mi300x"), "llama.cpp"), "int8");
  EXPECT_EQ(activation_format(nullptr, mx, sku("apple-m2-ultra"), "llama.cpp"), "fp16");
  // vLLM: Marlin W4A16 without FP4 units (and for MXFP4 on sm_12x), bf16.
  EXPECT_EQ(activation_format(nullptr, nv, sku("a100-80gb"), "vllm"), "bf16");  // was int8
  EXPECT_EQ(activation_format(nullptr, nv, sku("h100-sxm"), "vllm"), "bf16");   // was fp8
  EXPECT_EQ(activation_format(nullptr, nv, sku("b200"), "vllm"), "fp4");
  EXPECT_EQ(activation_format(nullptr, mx, sku("gb10"), "vllm"), "bf16");
  EXPECT_EQ(activation_format(nullptr, mx, sku("b200"), "vllm"), "fp4");
  EXPECT_EQ(activation_format(nullptr, mx, sku("h100-sxm"), "trt-llm"), "bf16");
  // A profile's named activation format still decides.
  RuntimeProfile fp16;
  fp16.activation = "fp16";
  EXPECT_EQ(activation_format(&fp16, mx, sku("rtx-4090"), "llama.cpp"), "fp16");
}

// Every format a device cannot compute natively, under every runtime: refused
// with the reason, or run as the runtime's emulation, said.
TEST(RuntimeSupport, EveryFormatWithoutUnitsIsRefusedOrSaidEmulated) {
  auto emulated = [](const char* rt, const char* q, const char* dev, const char* word) {
    auto s = runtime_support(rt, *find_quant(q), &sku(dev), false);
    EXPECT_FALSE(s.refused) << rt << " " << q << " " << dev << ": " << s.refused.value_or("");
    ASSERT_TRUE(s.emulation) << rt << " " << q << " " << dev;
    EXPECT_NE(s.emulation->find(word), std::string::npos) << *s.emulation;
  };
  auto refused = [](const char* rt, const char* q, const char* dev, const char* word) {
    auto s = runtime_support(rt, *find_quant(q), &sku(dev), false);
    ASSERT_TRUE(s.refused) << rt << " " << q << " " << dev;
    EXPECT_NE(s.refused->find(word), std::string::npos) << *s.refused;
  };
  // fp8 on Ampere and Apple.
  emulated("vllm", "fp8", "a100-80gb", "Marlin");
  emulated("sglang", "fp8", "rtx-3090", "Marlin");
  refused("trt-llm", "fp8", "a100-80gb", "no FP8 units");
  refused("llama.cpp", "fp8", "a100-80gb", "GGUF");
  refused("mlx", "fp8", "apple-m2-ultra", "MLX runs");
  refused("llama.cpp", "fp8", "apple-m2-ultra", "GGUF");
  refused("vllm", "fp8", "mi250x-gcd", "no FP8 units");
  // nvfp4 before Blackwell.
  emulated("vllm", "nvfp4", "a100-80gb", "Marlin");
  emulated("vllm", "nvfp4", "h100-sxm", "bf16 compute");
  emulated("sglang", "nvfp4", "rtx-4090", "Marlin");
  emulated("trt-llm", "nvfp4", "h100-sxm", "opt-in");
  refused("trt-llm", "nvfp4", "a100-80gb", "no FP4 units");
  refused("vllm", "nvfp4", "mi300x", "no FP4 units");
  emulated("mlx", "nvfp4", "apple-m4-max", "dequantised");
  EXPECT_FALSE(runtime_support("vllm", *find_quant("nvfp4"), &sku("b200"), false).emulation);
  // mxfp4 on older GPUs.
  emulated("llama.cpp", "mxfp4", "a100-80gb", "int8");
  emulated("llama.cpp", "mxfp4", "rtx-3090", "int8");
  emulated("llama.cpp", "mxfp4", "apple-m2-ultra", "dequantises");
  emulated("vllm", "mxfp4", "a100-80gb", "Marlin");
  emulated("vllm", "mxfp4", "h100-sxm", "Triton");
  emulated("vllm", "mxfp4", "gb10", "sm_12x");
  emulated("vllm", "mxfp4", "mi300x", "Triton");
  emulated("trt-llm", "mxfp4", "h100-sxm", "W4A16");
  refused("trt-llm", "mxfp4", "rtx-4090", "W4A16 on Hopper");
  refused("trt-llm", "mxfp4", "a100-80gb", "no FP4 units");
  refused("vllm", "mxfp4", "gaudi2", "no FP4 units");
  emulated("mlx", "mxfp4", "apple-m2-ultra", "dequantised");
  EXPECT_FALSE(runtime_support("vllm", *find_quant("mxfp4"), &sku("b200"), false).emulation);
}

// Without --runtime the assumed runtime's emulation is said too.
TEST(RuntimeSupport, AnAssumedRuntimesEmulationIsSaid) {
  PlanRequest req;
  req.spec = *builtin_model("gpt-oss-20B").spec;
  req.quant = *find_quant("mxfp4");
  auto r = make_plan(req, synthetic_devices(sku("a100-80gb"), 1, 0), builtin_catalogue(), false);
  EXPECT_EQ(r.runtime, "vllm");
  bool said = false;
  for (const auto& n : r.notes) said |= n.find("emulation: vllm runs mxfp4") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(RuntimeSupport, RefusesWithTheReasonOrSaysTheEmulation) {
  auto mlx = runtime_support("mlx", *find_quant("bf16"), &sku("h100-sxm"), false);
  ASSERT_TRUE(mlx.refused);
  EXPECT_NE(mlx.refused->find("Apple silicon only"), std::string::npos);
  EXPECT_TRUE(runtime_support("trt-llm", *find_quant("fp8"), &sku("mi300x"), false).refused);
  EXPECT_TRUE(
      runtime_support("llama.cpp", *find_quant("gptq-int4"), &sku("rtx-4090"), false).refused);
  EXPECT_TRUE(runtime_support("vllm", *find_quant("q4_k_m"), &sku("h100-sxm"), false).refused);
  EXPECT_TRUE(runtime_support("vllm", *find_quant("bf16"), &sku("apple-m2-ultra"), false).refused);
  // FP8 on an A100: vLLM's Marlin weight-only path, priced and said.
  auto marlin = runtime_support("vllm", *find_quant("fp8"), &sku("a100-80gb"), false);
  EXPECT_FALSE(marlin.refused);
  ASSERT_TRUE(marlin.emulation);
  EXPECT_NE(marlin.emulation->find("Marlin"), std::string::npos);
  EXPECT_TRUE(runtime_support("trt-llm", *find_quant("fp8"), &sku("a100-80gb"), false).refused);
  EXPECT_FALSE(runtime_support("trt-llm", *find_quant("fp8"), &sku("h100-sxm"), false).refused);
}

TEST(RuntimeSupport, ANamedRuntimeDecidesThePlan) {
  PlanRequest req;
  req.spec = *builtin_model("Llama-3-8B").spec;
  req.quant = *find_quant("fp8");
  DeviceSet a100 = synthetic_devices(sku("a100-80gb"), 1, 0);
  auto assumed = make_plan(req, a100, builtin_catalogue(), false);
  EXPECT_FALSE(assumed.fits());  // no FP8 units, no runtime named
  req.runtime = "vllm";
  auto vllm = make_plan(req, a100, builtin_catalogue(), false);
  EXPECT_TRUE(vllm.fits());
  bool said = false;
  for (const auto& n : vllm.notes) said |= n.find("emulation") != std::string::npos;
  EXPECT_TRUE(said);
  req.runtime = "mlx";
  auto mlx = make_plan(req, a100, builtin_catalogue(), false);
  EXPECT_FALSE(mlx.fits());
}

TEST(CatalogueRuntimes, AreReadStrictly) {
  const std::string head =
      "format = \"hwaccel-devices/1\"\n[perf_class.c]\ndecode_efficiency = 0.5\n"
      "prefill_efficiency = 0.3\nsource = \"s\"\n";
  const std::string sku =
      "[[sku]]\nid = \"x\"\nname = \"X\"\nvendor = \"V\"\nfamily = \"F\"\ntype = \"gpu\"\n"
      "match = []\npci = []\nmemory_gib = 1\nmemory_type = \"m\"\nusable_fraction = 0.9\n"
      "bandwidth_gbs = 1\npeak_tflops = { bf16 = 1 }\nnative = [\"bf16\"]\ntarget = \"t\"\n"
      "compute_units = 1\nperf_class = \"c\"\nfabric = \"none\"\n"
      "sources = { memory_gib = \"s\", bandwidth_gbs = \"s\", peak_tflops = \"s\", "
      "compute_units = \"s\", usable_fraction = \"s\" }\n";
  auto ok = parse_catalogue(head +
                                "[runtime.\"llama.cpp\".c]\ndecode_efficiency = 0.7\n"
                                "prefill_efficiency = 0.4\nper_token_us = 100\n"
                                "activation = \"fp16\"\nsource = \"fit\"\nrows = [\"a\"]\n" +
                                sku,
                            "d.toml");
  ASSERT_TRUE(ok.catalogue) << ok.error;
  const auto& p = ok.catalogue->runtimes.at("llama.cpp").at("c");
  EXPECT_EQ(p.per_token_us, 100);
  EXPECT_EQ(p.moe_layer_us, 0);
  EXPECT_FALSE(p.moe_layer_fitted);
  EXPECT_EQ(p.activation, "fp16");
  EXPECT_EQ(p.rows, std::vector<std::string>{"a"});
  auto bad_name = parse_catalogue(head +
                                      "[runtime.ollama.c]\ndecode_efficiency = "
                                      "0.7\nprefill_efficiency = 0.4\nsource = \"s\"\n" +
                                      sku,
                                  "d.toml");
  EXPECT_NE(bad_name.error.find("not a runtime"), std::string::npos) << bad_name.error;
  auto bad_class = parse_catalogue(
      head +
          "[runtime.vllm.zz]\ndecode_efficiency = 0.7\nprefill_efficiency = 0.4\nsource = \"s\"\n" +
          sku,
      "d.toml");
  EXPECT_NE(bad_class.error.find("has no [perf_class.zz]"), std::string::npos) << bad_class.error;
  auto bad_act =
      parse_catalogue(head +
                          "[runtime.vllm.c]\ndecode_efficiency = 0.7\n"
                          "prefill_efficiency = 0.4\nactivation = \"int4\"\nsource = \"s\"\n" +
                          sku,
                      "d.toml");
  EXPECT_NE(bad_act.error.find("runtime.vllm.c.activation"), std::string::npos) << bad_act.error;
}

}  // namespace
}  // namespace hwaccel::plan
