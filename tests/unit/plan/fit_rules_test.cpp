// The fit decisions that were wrong once: the Neural Engine offered for
// weights, Apple memory discounted twice, binary memory read as decimal,
// formats a device cannot compute accepted silently.
#include <gtest/gtest.h>

#include "src/plan/peak_memory.h"
#include "src/plan/planner.h"
#include "src/registry/detection.h"
#include "src/registry/selection.h"
#include "src/report/plan_report.h"

namespace hwaccel::plan {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;
constexpr double kReserve = 3584.0 * 1024 * 1024;

PlanRequest request(const char* model, const char* quant, const char* runtime = "") {
  PlanRequest r;
  r.spec = *builtin_model(model).spec;
  r.quant = *find_quant(quant);
  r.runtime = runtime;
  return r;
}

// A Mac Studio M2 Ultra 192 GB as the Apple probe reports it.
Detection mac_studio() {
  Detection d;
  Entry gpu;
  gpu.backend = "apple";
  gpu.index = 0;
  gpu.type = DeviceType::gpu;
  gpu.name = "Apple M2 Ultra (76-core GPU)";
  gpu.physical_id = "soc:Apple M2 Ultra:gpu";
  gpu.memory.kind = MemoryKind::unified;
  gpu.memory.total_bytes = 192ull << 30;
  gpu.memory.working_set_limit_bytes = 147456ull << 20;  // llama.cpp's log: 147456.00 MB
  Entry ane = gpu;
  ane.index = 1;
  ane.type = DeviceType::npu;
  ane.name = "Apple M2 Ultra Neural Engine (32-core)";
  ane.physical_id = "soc:Apple M2 Ultra:ane";
  ane.memory.working_set_limit_bytes.reset();
  d.entries = {gpu, ane};
  return d;
}

TEST(FitRules, TheNeuralEngineIsNotAPlaceForWeights) {
  const auto& cat = builtin_catalogue();
  Detection det = mac_studio();
  EXPECT_EQ(cat.match(det.entries[1]), nullptr) << "the ANE must not get the GPU's SKU";
  auto built = build_devices(det, cat, {});
  ASSERT_TRUE(built.set);
  ASSERT_EQ(built.set->devices.size(), 1u);
  EXPECT_EQ(built.set->devices[0].sku_id(), "apple-m2-ultra");
  bool said = false;
  for (const auto& n : built.set->notes) said |= n.find("not a place for weights") != n.npos;
  EXPECT_TRUE(said);
  // Asking for it by name says why instead of planning on it.
  DeviceOptions only_ane;
  only_ane.on = {entry_label(det.entries[1])};
  auto refused = build_devices(det, cat, only_ane);
  EXPECT_FALSE(refused.set);
  EXPECT_NE(refused.error.find("not a place for weights"), std::string::npos) << refused.error;
}

TEST(FitRules, AppleWorkingSetLimitIsNotDiscountedTwice) {
  const auto& cat = builtin_catalogue();
  auto built = build_devices(mac_studio(), cat, {});
  ASSERT_TRUE(built.set);
  const auto& gpu = built.set->devices[0];
  EXPECT_DOUBLE_EQ(gpu.usable_fraction, 1.0);
  EXPECT_DOUBLE_EQ(gpu.capacity, 144 * kGiB);  // the limit itself (no reserve asked here)
}

TEST(FitRules, ProductsSoldInGbOfChipsAreGib) {
  const auto& cat = builtin_catalogue();
  EXPECT_DOUBLE_EQ(cat.find("rtx-4090")->memory_bytes, 24 * kGiB);
  EXPECT_DOUBLE_EQ(cat.find("apple-m2-ultra")->memory_bytes, 192 * kGiB);
  EXPECT_DOUBLE_EQ(cat.find("mi300x")->memory_bytes, 192 * kGiB);
  // Measured byte counts stay decimal: nvidia-smi's 81559 MiB on an H100.
  EXPECT_NEAR(cat.find("h100-sxm")->memory_bytes / (1024.0 * 1024), 81559, 1);
}

TEST(FitRules, SeventyBF16FitsOnAnAddedM2UltraWhereItWasMeasuredRunning) {
  const auto& cat = builtin_catalogue();
  DeviceSet set = synthetic_devices(*cat.find("apple-m2-ultra"), 1, kReserve);
  auto r = make_plan(request("Llama-2-70B", "f16"), set, cat);
  EXPECT_TRUE(r.fits()) << r.why;
  // 192 GiB x 0.75 = 144 GiB, Metal's limit on that machine.
  EXPECT_DOUBLE_EQ(set.devices[0].capacity, 144 * kGiB - kReserve);
}

TEST(FitRules, Fp8OnAmpereAndAppleIsRefusedWithTheReason) {
  const auto& cat = builtin_catalogue();
  for (const char* sku : {"a100-80gb", "apple-m2-ultra"}) {
    DeviceSet set = synthetic_devices(*cat.find(sku), 1, kReserve);
    auto r = make_plan(request("Llama-3-8B", "fp8"), set, cat);
    EXPECT_FALSE(r.fits()) << sku;
    // The refusal, then the runtime's profile (and vLLM's memory share).
    ASSERT_GE(r.notes.size(), 2u) << sku;
    EXPECT_NE(r.notes[0].find("has no FP8 units"), std::string::npos) << r.notes[0];
    EXPECT_NE(r.notes[1].find("profile"), std::string::npos) << r.notes[1];
    EXPECT_EQ(r.runtime_line().rfind("runtime: ", 0), 0u) << r.runtime_line();
    // The suggestion still finds what does run there.
    ASSERT_FALSE(r.quant_fits.empty()) << sku;
    EXPECT_EQ(r.quant_fits[0].quant, "bf16");
  }
  DeviceSet h100 = synthetic_devices(*cat.find("h100-sxm"), 1, kReserve);
  EXPECT_TRUE(make_plan(request("Llama-3-8B", "fp8"), h100, cat).fits());
}

TEST(FitRules, Nvfp4BeforeBlackwellIsRefused) {
  const auto& cat = builtin_catalogue();
  DeviceSet h100 = synthetic_devices(*cat.find("h100-sxm"), 1, kReserve);
  auto r = make_plan(request("Llama-3-8B", "nvfp4"), h100, cat);
  EXPECT_FALSE(r.fits());
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes[0].find("needs Blackwell"), std::string::npos) << r.notes[0];
  for (const auto& f : r.fits_on) EXPECT_NE(f.rfind("h100", 0), 0u) << f;
  DeviceSet b200 = synthetic_devices(*cat.find("b200"), 1, kReserve);
  EXPECT_TRUE(make_plan(request("Llama-3-8B", "nvfp4"), b200, cat).fits());
}

TEST(FitRules, QuantAcceptsLlamaCppAndHuggingFaceSpellings) {
  const std::pair<const char*, const char*> cases[] = {
      {"Q4_0", "q4_0"},         {"Q4_K_M", "q4_k_m"}, {"q4_k", "q4_k_m"},   {"f16", "fp16"},
      {"F32", "fp32"},          {"BF16", "bf16"},     {"bfloat16", "bf16"}, {"float16", "fp16"},
      {"float8_e4m3fn", "fp8"}, {"IQ4_XS", "iq4_xs"}, {"Q3_K_L", "q3_k_l"}, {"bnb-4bit", "nf4"},
      {"gptq", "gptq-int4"},    {"AWQ", "awq-int4"},  {"MXFP4", "mxfp4"},
  };
  for (const auto& [spelling, level] : cases) {
    const QuantLevel* q = find_quant(spelling);
    ASSERT_NE(q, nullptr) << spelling;
    EXPECT_EQ(q->name, level) << spelling;
  }
  EXPECT_EQ(find_quant("q4_k_x"), nullptr);
  EXPECT_EQ(find_quant(""), nullptr);
}

TEST(FitRules, PromptAndGenSetPrefillLengthAndDecodeContext) {
  const auto& cat = builtin_catalogue();
  DeviceSet set = synthetic_devices(*cat.find("h100-sxm"), 1, kReserve);
  PlanRequest req = request("Llama-3-8B", "bf16");
  req.workload.prompt = 512;
  req.workload.gen = 128;
  req.workload.context = 640;
  auto r = make_plan(req, set, cat, false);
  ASSERT_TRUE(r.fits());
  const auto& e = r.candidates[*r.chosen].estimate;
  ASSERT_TRUE(e.available);
  EXPECT_EQ(e.prompt, 512);
  EXPECT_EQ(e.decode_context, 576);                        // the middle of the generation
  EXPECT_GT(e.prefill_tok_s_prompt, e.prefill_tok_s_32k);  // short prompts attend less
}

TEST(FitRules, ConfigWithoutKvHeadsPrintsTheAssumption) {
  auto r = parse_hf_config(R"({"num_hidden_layers": 32, "hidden_size": 4096,
      "num_attention_heads": 32, "intermediate_size": 14336, "vocab_size": 128256})",
                           "m/config.json");
  ASSERT_TRUE(r.spec) << r.error;
  EXPECT_EQ(r.spec->kv_heads, 32);
  bool kv = false, tied = false;
  for (const auto& a : r.spec->assumptions) {
    kv |= a.find("no num_key_value_heads") != a.npos;
    tied |= a.find("no tie_word_embeddings") != a.npos;
  }
  EXPECT_TRUE(kv);
  EXPECT_TRUE(tied);
}

// Peak memory per runtime (src/plan/peak_memory.h, docs/planning.md).

// Measured from outside: TensorRT-LLM could not build a 70B 4-bit engine on a
// 48 GB GPU, where serving it would fit; trtllm-build holds the checkpoint's
// weights and the engine it writes (NVIDIA/TensorRT-LLM issues 346 and 772).
TEST(FitRules, TensorRtLlmEngineBuildOf70B4BitDoesNotFitOn48GB) {
  const auto& cat = builtin_catalogue();
  DeviceSet set = synthetic_devices(*cat.find("l40s"), 1, kReserve);
  auto r = make_plan(request("Llama-3-70B", "awq-int4", "trt-llm"), set, cat);
  EXPECT_FALSE(r.fits()) << r.why;
  EXPECT_TRUE(r.build_limited);
  ASSERT_EQ(r.candidates.size(), 1u);
  const Shard& s = r.candidates[0].plan.shards.at(0);
  EXPECT_TRUE(s.runtime_fits()) << s.total() / kGiB << " of " << s.capacity / kGiB;
  EXPECT_FALSE(s.build_fits());
  EXPECT_DOUBLE_EQ(s.build, 2 * s.weights + kRuntimeOverheadBytes);
  EXPECT_EQ(r.why.rfind("does not fit: the engine build is the limit: trtllm-build", 0), 0u)
      << r.why;
  // The report says it in one line, and the plans table tells it apart.
  std::string text = render_plan_text(r, set, {"test", "built-in", "3584 MiB"});
  EXPECT_NE(text.find("\ndoes not fit: the engine build is the limit"), std::string::npos) << text;
  EXPECT_NE(text.find("no (build)"), std::string::npos) << text;
  std::string json = render_plan_json(r, set, {"test", "built-in", "3584 MiB"});
  EXPECT_NE(json.find("\"limit\": \"engine build\""), std::string::npos);
  EXPECT_NE(json.find("\"build_bytes\""), std::string::npos);
  // Two of them hold half the weights each: the build fits there.
  bool two = false;
  for (const auto& f : r.fits_on) two |= f == "l40s x2";
  EXPECT_TRUE(two) << ::testing::PrintToString(r.fits_on);
}

TEST(FitRules, The70B4BitWithLlamaCppStillFitsOn48GB) {
  const auto& cat = builtin_catalogue();
  DeviceSet set = synthetic_devices(*cat.find("l40s"), 1, kReserve);
  auto r = make_plan(request("Llama-3-70B", "q4_0", "llama.cpp"), set, cat);
  EXPECT_TRUE(r.fits()) << r.why;
  EXPECT_FALSE(r.build_limited);
  EXPECT_EQ(r.candidates.at(*r.chosen).plan.shards.at(0).build, 0.0);
  // Nor does another runtime without a build step pay one.
  auto v = make_plan(request("Llama-3-70B", "awq-int4", "vllm"), set, cat);
  EXPECT_TRUE(v.fits()) << v.why;
}

TEST(FitRules, VllmBudgetsItsGpuMemoryUtilizationShare) {
  const auto& cat = builtin_catalogue();
  const Sku& h100 = *cat.find("h100-sxm");
  // No reserve: the budget is 0.92 of the memory, vLLM's default.
  DeviceSet bare = synthetic_devices(h100, 1, 0);
  auto r = make_plan(request("Llama-3-8B", "bf16", "vllm"), bare, cat);
  ASSERT_EQ(r.capacities.size(), 1u);
  EXPECT_DOUBLE_EQ(kVllmGpuMemoryUtilization, 0.92);
  EXPECT_DOUBLE_EQ(r.capacities[0], 0.92 * h100.memory_bytes);
  EXPECT_DOUBLE_EQ(r.candidates.at(*r.chosen).plan.shards.at(0).capacity, 0.92 * h100.memory_bytes);
  EXPECT_EQ(r.budget_rule, "vllm");
  bool said = false;
  for (const auto& n : r.notes) said |= n.find("gpu_memory_utilization") != n.npos;
  EXPECT_TRUE(said);
  // With the default reserve the share is still 0.92 on an 80 GB part (its
  // 8% left over is more than the reserve); the report says whose share.
  DeviceSet set = synthetic_devices(h100, 1, kReserve);
  auto fp8 = make_plan(request("Llama-3-70B", "fp8", "vllm"), set, cat);
  EXPECT_DOUBLE_EQ(fp8.capacities.at(0), 0.92 * h100.memory_bytes);
  // 69.6 GiB: more than 0.9 x total - reserve (68.2), within vLLM's 73.3.
  EXPECT_TRUE(fp8.fits()) << fp8.why;
  std::string text = render_plan_text(fp8, set, {"test", "built-in", "3584 MiB"});
  EXPECT_NE(text.find(gib(0.92 * h100.memory_bytes) + " (vLLM x0.92)"), std::string::npos) << text;
  // Where the reserve must stay free of the share (a 24 GiB card keeps 1.9
  // GiB over, less than 3.5), the budget is what the reserve leaves.
  const Sku& rtx = *cat.find("rtx-4090");
  DeviceSet small = synthetic_devices(rtx, 1, kReserve);
  auto s = make_plan(request("Llama-3-8B", "fp8", "vllm"), small, cat);
  EXPECT_DOUBLE_EQ(s.capacities.at(0), rtx.memory_bytes - kReserve);
  // Other runtimes keep the device's usable memory.
  auto l = make_plan(request("Llama-3-8B", "q4_0", "llama.cpp"), set, cat);
  EXPECT_DOUBLE_EQ(l.capacities.at(0), h100.memory_bytes * h100.usable_fraction - kReserve);
  EXPECT_TRUE(l.budget_rule.empty());
}

TEST(FitRules, VllmShareFollowsGpuMemoryUtilizationWhenGiven) {
  const auto& cat = builtin_catalogue();
  const Sku& h100 = *cat.find("h100-sxm");
  DeviceSet set = synthetic_devices(h100, 1, kReserve);
  // Llama-3-70B fp8 (69.6 GiB) fits vLLM's default share; at 0.8 (63.7 GiB)
  // it does not, and the note and the USABLE column say the share given.
  auto req = request("Llama-3-70B", "fp8", "vllm");
  req.workload.gpu_memory_utilization = 0.8;
  auto r = make_plan(req, set, cat);
  EXPECT_DOUBLE_EQ(r.budget_share, 0.8);
  EXPECT_DOUBLE_EQ(r.capacities.at(0), 0.8 * h100.memory_bytes);
  EXPECT_FALSE(r.fits());
  bool said = false;
  for (const auto& n : r.notes)
    said |= n.find("0.80 of each GPU's memory") != n.npos &&
            n.find("--gpu-memory-utilization") != n.npos;
  EXPECT_TRUE(said);
  std::string text = render_plan_text(r, set, {"test", "built-in", "3584 MiB"});
  EXPECT_NE(text.find("(vLLM x0.80)"), std::string::npos) << text;
}

TEST(FitRules, FlashAttentionOffGrowsLlamaCppComputeBuffer) {
  const auto& cat = builtin_catalogue();
  DeviceSet set = synthetic_devices(*cat.find("rtx-4090"), 1, kReserve);
  auto req = request("Llama-3-8B", "q8_0", "llama.cpp");
  req.workload.context = 65536;
  auto on = make_plan(req, set, cat);
  req.workload.flash_attention = false;
  auto off = make_plan(req, set, cat);
  // Off: one layer's f32 scores, 65536 cells x 512 tokens x 32 heads x 4 B
  // (4 GiB), on top of what fits with it on.
  EXPECT_TRUE(on.fits()) << on.why;
  EXPECT_FALSE(off.fits());
  EXPECT_TRUE(off.compute_limited) << off.why;
}

}  // namespace
}  // namespace hwaccel::plan
