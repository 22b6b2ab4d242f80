// The calibration table cannot drift: docs/planning.md's block between the
// calibration markers is exactly what the current catalogue gives for
// data/calibration.toml (estimates, errors, leave-one-out, medians, worst).
#include <gtest/gtest.h>

#include "src/plan/calibration.h"
#include "src/plan/calibration_report.h"
#include "tests/support/test_support.h"

namespace hwaccel::plan {
namespace {

using hwaccel::testing::slurp;
using hwaccel::testing::source_path;

TEST(Calibration, TheDocsTableIsWhatTheCodeGives) {
  auto text = slurp(source_path("data/calibration.toml"));
  ASSERT_TRUE(text);
  auto parsed = parse_calibration(*text, "data/calibration.toml");
  ASSERT_TRUE(parsed.error.empty()) << parsed.error;
  ASSERT_GE(parsed.rows.size(), 20u);
  for (const auto& r : parsed.rows) {
    std::string why;
    EXPECT_TRUE(calibration_estimate(r, builtin_catalogue(), &why)) << why;
  }
  auto doc = slurp(source_path("docs/planning.md"));
  ASSERT_TRUE(doc);
  const std::string begin = "<!-- calibration:begin (generated: build/tests/bench_estimates) -->\n";
  const std::string end = "<!-- calibration:end -->";
  auto b = doc->find(begin), e = doc->find(end);
  ASSERT_NE(b, std::string::npos);
  ASSERT_NE(e, std::string::npos);
  std::string block = doc->substr(b + begin.size(), e - b - begin.size());
  EXPECT_EQ(block, calibration_markdown(parsed.rows, builtin_catalogue()))
      << "docs/planning.md's calibration table is stale: paste build/tests/bench_estimates";
}

TEST(Calibration, TheDocsCheckTableIsWhatTheCodeGives) {
  auto text = slurp(source_path("data/calibration_check.toml"));
  ASSERT_TRUE(text);
  auto parsed = parse_calibration(*text, "data/calibration_check.toml");
  ASSERT_TRUE(parsed.error.empty()) << parsed.error;
  auto doc = slurp(source_path("docs/planning.md"));
  ASSERT_TRUE(doc);
  const std::string begin =
      "<!-- check:begin (generated: build/tests/bench_estimates --check) -->\n";
  auto b = doc->find(begin), e = doc->find("<!-- check:end -->");
  ASSERT_NE(b, std::string::npos);
  ASSERT_NE(e, std::string::npos);
  EXPECT_EQ(doc->substr(b + begin.size(), e - b - begin.size()),
            calibration_markdown(parsed.rows, builtin_catalogue(), false));
}

TEST(Calibration, RowsAreReadStrictly) {
  const std::string head =
      "format = \"hwaccel-calibration/1\"\n[[row]]\nid = \"a\"\n"
      "device = \"rtx-4090\"\nmodel = \"Llama-2-7B\"\nquant = \"q4_0\"\n"
      "measured = 10\nsource = \"s\"\n";
  auto ok =
      parse_calibration(head + "runtime = \"llama.cpp\"\nmetric = \"decode\"\ngen = 128\n", "c");
  ASSERT_TRUE(ok.error.empty()) << ok.error;
  EXPECT_EQ(ok.rows.at(0).gen, 128);
  auto rt = parse_calibration(head + "runtime = \"ollama\"\nmetric = \"decode\"\n", "c");
  EXPECT_NE(rt.error.find("not a runtime"), std::string::npos) << rt.error;
  auto pp = parse_calibration(head + "runtime = \"mlx\"\nmetric = \"prefill\"\n", "c");
  EXPECT_NE(pp.error.find("prompt length"), std::string::npos) << pp.error;
  auto m = parse_calibration(head + "runtime = \"mlx\"\nmetric = \"speed\"\n", "c");
  EXPECT_NE(m.error.find("decode or prefill"), std::string::npos) << m.error;
  auto kv =
      parse_calibration(head + "runtime = \"mlx\"\nmetric = \"decode\"\nkv = \"int3\"\n", "c");
  EXPECT_NE(kv.error.find("kv: \"int3\": expected fp16, fp8 or q8_0"), std::string::npos)
      << kv.error;
}

TEST(Calibration, AnFp8KvRowIsPricedWithHalfTheKvBytes) {
  // TensorRT-LLM's FP8 engines keep the KV cache in fp8: at batch 112 and
  // 1152 tokens the KV is most of each step, so the row must say so.
  auto text = slurp(source_path("data/calibration.toml"));
  ASSERT_TRUE(text);
  auto parsed = parse_calibration(*text, "data/calibration.toml");
  ASSERT_TRUE(parsed.error.empty()) << parsed.error;
  const CalibrationRow* row = nullptr;
  for (const auto& r : parsed.rows)
    if (r.id == "trt-h100-l2-7b-fp8-b112-128-2048") row = &r;
  ASSERT_TRUE(row);
  EXPECT_EQ(row->kv, "fp8");
  CalibrationRow fp16 = *row;
  fp16.kv = "fp16";
  auto a = calibration_estimate(*row, builtin_catalogue());
  auto b = calibration_estimate(fp16, builtin_catalogue());
  ASSERT_TRUE(a && b);
  EXPECT_GT(*a / *b, 1.5);  // KV bytes halved: ~33 GB of ~40 GB per step at fp8
}

TEST(Calibration, AMultiDeviceRowIsPricedTensorParallel) {
  // ROCm's MI300X rows ran Llama-3.1-70B over 8 GPUs (TP 8): the row says
  // devices = 8 and is priced on that plan, not on one device.
  auto text = slurp(source_path("data/calibration.toml"));
  ASSERT_TRUE(text);
  auto parsed = parse_calibration(*text, "data/calibration.toml");
  ASSERT_TRUE(parsed.error.empty()) << parsed.error;
  const CalibrationRow* row = nullptr;
  for (const auto& r : parsed.rows)
    if (r.id == "vllm-mi300x8-l31-70b-fp8-b1-128-2048") row = &r;
  ASSERT_TRUE(row);
  EXPECT_EQ(row->devices, 8);
  CalibrationRow one = *row;
  one.devices = 1;
  auto tp8 = calibration_estimate(*row, builtin_catalogue());
  auto single = calibration_estimate(one, builtin_catalogue());
  ASSERT_TRUE(tp8 && single);
  EXPECT_GT(*tp8 / *single, 2.0);  // a fixed cost and all-reduces keep it below 8x
  auto bad = parse_calibration(
      "format = \"hwaccel-calibration/1\"\n[[row]]\nid = \"a\"\ndevice = \"mi300x\"\n"
      "devices = 0\nruntime = \"vllm\"\nmodel = \"Llama-2-7B\"\nquant = \"fp8\"\n"
      "metric = \"decode\"\nmeasured = 1\nsource = \"s\"\n",
      "c");
  EXPECT_NE(bad.error.find("devices"), std::string::npos) << bad.error;
}

TEST(Calibration, AProfileRefitRecoversItsFigures) {
  // Rows made from the profile's own estimates: the fit gives the profile back.
  Catalogue cat = builtin_catalogue();
  RuntimeProfile p;
  p.runtime = "llama.cpp", p.perf_class = "nvidia-consumer", p.activation = "fp16";
  p.decode_efficiency = 0.7, p.prefill_efficiency = 0.6, p.per_token_us = 1500;
  cat.runtimes["llama.cpp"]["nvidia-consumer"] = p;
  std::vector<CalibrationRow> rows;
  for (const char* q : {"fp16", "q8_0", "q4_0"}) {
    CalibrationRow d{std::string("d") + q,
                     "rtx-4090",
                     "llama.cpp",
                     "Llama-2-7B",
                     q,
                     1,
                     0,
                     128,
                     "decode",
                     1,
                     "s"};
    d.measured = *calibration_estimate(d, cat);
    CalibrationRow f = d;
    f.id = std::string("p") + q, f.metric = "prefill", f.prompt = 512, f.gen = 0;
    f.measured = *calibration_estimate(f, cat);
    rows.push_back(d), rows.push_back(f);
  }
  RuntimeProfile start = p;
  start.decode_efficiency = 0.3, start.prefill_efficiency = 0.2, start.per_token_us = 0;
  RuntimeProfile fit = fit_profile(start, rows, cat);
  EXPECT_NEAR(fit.decode_efficiency, 0.7, 1e-3);
  EXPECT_NEAR(fit.per_token_us, 1500, 1);
  EXPECT_NEAR(fit.prefill_efficiency, 0.6, 1e-3);
  for (const auto& l : leave_one_out(rows, cat)) ASSERT_TRUE(l);
}

TEST(Calibration, TheMoeCostIsFittedOnTheMoeRowsAlone) {
  // Decode rows made from a profile with a per-MoE-layer cost: dense rows give
  // the fixed cost and the efficiency back, the MoE rows the MoE cost; a
  // profile that does not give moe_layer_us keeps MoE rows in the dense fit.
  Catalogue cat = builtin_catalogue();
  RuntimeProfile p;
  p.runtime = "vllm", p.perf_class = "nvidia-datacenter";
  p.decode_efficiency = 0.8, p.prefill_efficiency = 0.7, p.per_token_us = 2000;
  p.moe_layer_us = 150, p.moe_layer_fitted = true;
  cat.runtimes["vllm"]["nvidia-datacenter"] = p;
  std::vector<CalibrationRow> rows;
  auto add = [&](const char* id, const char* model, const char* quant) {
    CalibrationRow d{id, "h200-sxm", "vllm", model, quant, 1, 128, 128, "decode", 1, "s"};
    d.measured = *calibration_estimate(d, cat);
    rows.push_back(d);
  };
  add("dense-8b", "Llama-3.1-8B", "bf16");
  add("dense-70b", "Llama-3.1-70B", "fp8");
  add("moe-a3b", "Qwen3-30B-A3B", "bf16");
  add("moe-mixtral", "Mixtral-8x7B", "fp8");
  RuntimeProfile start = p;
  start.decode_efficiency = 0.3, start.per_token_us = 0, start.moe_layer_us = 0;
  RuntimeProfile fit = fit_profile(start, rows, cat);
  EXPECT_NEAR(fit.decode_efficiency, 0.8, 1e-3);
  EXPECT_NEAR(fit.per_token_us, 2000, 1);
  EXPECT_NEAR(fit.moe_layer_us, 150, 0.5);
  // Rows faster than the dense fit allows: the cost is bounded at 0.
  std::vector<CalibrationRow> fast = rows;
  for (auto& r : fast)
    if (r.id.rfind("moe", 0) == 0) r.measured *= 3;
  EXPECT_EQ(fit_profile(start, fast, cat).moe_layer_us, 0);
  // Without moe_layer_us in the catalogue it is neither fitted nor kept apart.
  start.moe_layer_fitted = false;
  EXPECT_EQ(fit_profile(start, rows, cat).moe_layer_us, 0);
}

TEST(Calibration, APrefillRefitRecoversItsFixedCostAndTheEightBitShare) {
  // First-token rows made from a profile with a fixed cost per prefill and an
  // 8-bit share apart from the 16-bit one (TensorRT-LLM's FP8 on H100, FP16
  // on A100): the fit gives the three figures back.
  Catalogue cat = builtin_catalogue();
  RuntimeProfile p = cat.runtimes.at("trt-llm").at("nvidia-datacenter");
  p.prefill_efficiency = 0.7, p.prefill_efficiency_8bit = 0.45, p.prefill_fixed_us = 2000;
  p.prefill_fixed_fitted = true;
  cat.runtimes["trt-llm"]["nvidia-datacenter"] = p;
  std::vector<CalibrationRow> rows;
  for (const auto& [dev, q] : {std::pair{"h100-sxm", "fp8"}, std::pair{"a100-80gb", "fp16"}})
    for (int n : {128, 2048}) {
      CalibrationRow r{std::string(dev) + std::to_string(n),
                       dev,
                       "trt-llm",
                       "Llama-2-7B",
                       q,
                       1,
                       n,
                       0,
                       "prefill",
                       1,
                       "s"};
      r.measured = *calibration_estimate(r, cat);
      rows.push_back(r);
    }
  RuntimeProfile start = p;
  start.prefill_efficiency = 0.3, start.prefill_efficiency_8bit = 0.3, start.prefill_fixed_us = 0;
  RuntimeProfile fit = fit_profile(start, rows, cat);
  EXPECT_NEAR(fit.prefill_fixed_us, 2000, 40);
  EXPECT_NEAR(fit.prefill_efficiency, 0.7, 0.01);
  EXPECT_NEAR(fit.prefill_efficiency_8bit, 0.45, 0.01);
  // Without prefill_fixed_us in the catalogue the fixed cost is not fitted.
  start.prefill_fixed_fitted = false;
  EXPECT_EQ(fit_profile(start, rows, cat).prefill_fixed_us, 0);
}
TEST(Calibration, APrefillRowAboveTheDensePeakIsLeftOutWithItsReason) {
  // Llama-3.1-8B over 2048 tokens is about 3.0e13 FLOPs: at the H100's dense
  // BF16 peak (989 TFLOP/s) that takes 30 ms, so 100k tok/s (20 ms) cannot be
  // a prefill. It is named with the times and the rate it implies, and it
  // moves neither the fit nor anyone's leave-one-out.
  const Catalogue& cat = builtin_catalogue();
  auto row = [](const std::string& id, int prompt, double measured) {
    CalibrationRow r;
    r.id = id, r.device = "h100-sxm", r.runtime = "vllm", r.model = "Llama-3.1-8B";
    r.quant = "bf16", r.prompt = prompt, r.metric = "prefill", r.measured = measured;
    r.source = "s";
    return r;
  };
  std::vector<CalibrationRow> rows{row("a", 1024, 15000), row("b", 4096, 12000)};
  EXPECT_FALSE(above_peak(rows[0], cat));
  EXPECT_FALSE(above_peak(rows[1], cat));
  CalibrationRow impossible = row("impossible", 2048, 100000);
  auto why = above_peak(impossible, cat);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("dense bf16 peak of 1 x"), std::string::npos) << *why;
  EXPECT_NE(why->find("20.5 ms"), std::string::npos) << *why;
  // Four devices in tensor parallel have four times the peak: 7.5 ms of
  // FLOPs and 4 ms of all-reduces, so the same rate is possible there.
  CalibrationRow four = impossible;
  four.devices = 4;
  EXPECT_FALSE(above_peak(four, cat));
  // At 40k tok/s (51 ms) over two, the FLOPs (15 ms) and the 64 all-reduces
  // of TP 2 (3 ms) fit: possible; at 80k (26 ms) on one, not.
  CalibrationRow two = row("two", 2048, 40000);
  two.devices = 2;
  EXPECT_FALSE(above_peak(two, cat));
  EXPECT_TRUE(above_peak(row("one", 2048, 80000), cat));
  CalibrationRow decode = impossible;
  decode.metric = "decode", decode.gen = 128;
  EXPECT_FALSE(above_peak(decode, cat));

  const RuntimeProfile& start = cat.runtimes.at("vllm").at("nvidia-datacenter");
  RuntimeProfile without = fit_profile(start, rows, cat);
  auto with_rows = rows;
  with_rows.push_back(impossible);
  RuntimeProfile with = fit_profile(start, with_rows, cat);
  EXPECT_EQ(with.prefill_efficiency, without.prefill_efficiency);
  EXPECT_EQ(with.prefill_fixed_us, without.prefill_fixed_us);
  auto loo = leave_one_out(with_rows, cat);
  EXPECT_FALSE(loo[2]);
  EXPECT_EQ(loo[0], leave_one_out(rows, cat)[0]);
  auto md = calibration_markdown(with_rows, cat);
  EXPECT_NE(md.find("| impossible | h100-sxm | vllm |"), std::string::npos);
  EXPECT_NE(md.find("| left out | s |"), std::string::npos) << md;
  EXPECT_NE(md.find("- `impossible`: 100000 tok/s over 2048 tokens"), std::string::npos) << md;
  EXPECT_NE(md.find("| vllm on nvidia-datacenter, prefill | 2 |"), std::string::npos) << md;
}
}  // namespace
}  // namespace hwaccel::plan
