#include "src/plan/calibration.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "src/plan/estimate.h"
#include "src/plan/model_spec.h"
#include "src/plan/runtime.h"
#include "src/plan/toml_fields.h"

namespace hwaccel::plan {

CalibrationResult parse_calibration(std::string_view text, const std::string& file) {
  CalibrationResult result;
  try {
    toml::table root = parse_toml(text, file);
    TableReader r(root, file, "");
    r.allow_only({"format", "row"});
    if (r.text("format") != "hwaccel-calibration/1")
      r.fail("format", "expected \"hwaccel-calibration/1\"");
    const auto* rows = root.get("row");
    if (!rows || !rows->is_array_of_tables()) r.fail("row", "expected [[row]] entries");
    std::size_t i = 0;
    for (const auto& node : *rows->as_array()) {
      TableReader t(*node.as_table(), file, "row[" + std::to_string(i++) + "]");
      t.allow_only({"id", "device", "runtime", "model", "quant", "batch", "prompt", "gen", "metric",
                    "measured", "source", "kv", "devices"});
      CalibrationRow row;
      row.id = t.text("id");
      row.device = t.text("device");
      row.runtime = t.text("runtime");
      if (!is_runtime(row.runtime)) t.fail("runtime", "\"" + row.runtime + "\": not a runtime");
      row.model = t.text("model");
      row.quant = t.text("quant");
      if (t.has("kv")) {
        row.kv = t.text("kv");
        if (!kv_bytes_per_element(row.kv))
          t.fail("kv", "\"" + row.kv + "\": expected fp16, fp8 or q8_0");
      }
      row.devices = static_cast<int>(t.number_in_or("devices", 1, 1024, "devices", 1));
      row.batch = static_cast<int>(t.number_in_or("batch", 1, 100000, "sequences", 1));
      row.prompt = static_cast<int>(t.number_in_or("prompt", 0, 10000000, "tokens", 0));
      row.gen = static_cast<int>(t.number_in_or("gen", 0, 10000000, "tokens", 0));
      row.metric = t.text("metric");
      if (row.metric != "decode" && row.metric != "prefill")
        t.fail("metric", "\"" + row.metric + "\": expected decode or prefill");
      if (row.metric == "prefill" && row.prompt <= 0)
        t.fail("prompt", "a prefill row needs its prompt length");
      row.measured = t.number_in("measured", 1e-6, 1e9, "tok/s");
      row.source = t.text("source");
      result.rows.push_back(std::move(row));
    }
  } catch (const LocatedError& e) {
    result.error = e.what();
  }
  return result;
}

namespace {

// The plan of one row on one device of its SKU (speed, not fit).
struct RowPlan {
  ModelCost cost;
  DeviceSet set;
  Plan plan;
  int context = 0;
};

std::optional<RowPlan> row_plan(const CalibrationRow& row, const Catalogue& cat, std::string* why) {
  const Sku* sku = cat.find(row.device);
  auto model = builtin_model(row.model);
  const QuantLevel* q = find_quant(row.quant);
  if (!sku || !model.spec || !q) {
    if (why) *why = row.id + ": unknown device, model or quant";
    return std::nullopt;
  }
  Workload w;
  w.prompt = row.prompt;
  w.gen = row.metric == "decode" ? std::max(1, row.gen) : 1;
  w.context = w.prompt + w.gen;
  w.batch = row.batch;
  w.runtime = row.runtime;
  w.kv = row.kv;
  RowPlan p{model_cost(*model.spec, *q, w),
            synthetic_devices(*sku, row.devices, 0),
            {},
            w.decode_context()};
  for (auto& d : p.set.devices) d.capacity = 1e15;  // calibration measures speed, not fit
  // One device: its single plan; several: tensor parallel over all of them
  // (what the published multi-GPU rows ran), over the SKU's assumed fabric.
  for (const auto& plan : candidate_plans(p.cost, p.set))
    if (row.devices == 1 || (plan.kind == PlanKind::tensor && plan.tp == row.devices)) {
      p.plan = plan;
      return p;
    }
  if (why) *why = row.id + ": no plan";
  return std::nullopt;
}

std::optional<double> estimate_with(const CalibrationRow& row, const Catalogue& cat) {
  auto p = row_plan(row, cat, nullptr);
  if (!p) return std::nullopt;
  if (row.metric == "decode") {
    auto t = decode_step_seconds(p->plan, p->cost, p->set, cat, row.batch, p->context);
    if (!t || *t <= 0) return std::nullopt;
    return row.batch / *t;
  }
  auto t = prefill_seconds(p->plan, p->cost, p->set, cat, row.prompt);
  if (!t || *t <= 0) return std::nullopt;
  return row.prompt / *t;
}

// A copy of the catalogue whose profile for (runtime, class) is `p`.
Catalogue with_profile(const Catalogue& cat, const RuntimeProfile& p) {
  Catalogue c = cat;
  c.runtimes[p.runtime][p.perf_class] = p;
  return c;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

bool of_profile(const CalibrationRow& row, const RuntimeProfile& p, const Catalogue& cat) {
  const Sku* sku = cat.find(row.device);
  return sku && row.runtime == p.runtime && sku->perf_class == p.perf_class;
}

// Seconds of one step of the row with the profile's efficiencies at 1 and no
// fixed costs, and with prefill efficiency 1/2 (to split FLOPs from bytes).
struct Parts {
  double bytes_time = 0;  // decode: weights + KV over the bandwidth; prefill: the bytes term
  double flops_time = 0;  // prefill: FLOPs over the activation format's peak
  double per_layer_time = 0;
  int moe_layers = 0;      // the model's layers with routed experts
  bool eight_bit = false;  // prefill GEMMs in an 8-bit format (fp8, int8)
};

std::optional<Parts> parts(const CalibrationRow& row, const RuntimeProfile& p,
                           const Catalogue& cat) {
  RuntimeProfile unit = p;
  unit.decode_efficiency = 1, unit.prefill_efficiency = 1, unit.per_token_us = 0;
  unit.per_layer_us = 0, unit.prefill_fixed_us = 0, unit.prefill_efficiency_8bit = 0;
  unit.moe_layer_us = 0;
  Catalogue c1 = with_profile(cat, unit);
  auto e1 = estimate_with(row, c1);
  if (!e1) return std::nullopt;
  double t1 = (row.metric == "decode" ? row.batch : row.prompt) / *e1;
  Parts out;
  auto model = builtin_model(row.model);
  out.per_layer_time = p.per_layer_us * 1e-6 * (model.spec ? model.spec->layers : 0);
  if (model.spec && model.spec->moe())
    out.moe_layers = std::max(0, model.spec->layers - model.spec->dense_layers);
  if (row.metric == "decode") {
    out.bytes_time = t1;
    return out;
  }
  const Sku* sku = cat.find(row.device);
  const QuantLevel* q = find_quant(row.quant);
  if (sku && q) {
    std::string f = activation_format(&p, *q, *sku, row.runtime);
    out.eight_bit = f == "fp8" || f == "int8";
  }
  unit.prefill_efficiency = 0.5;
  auto e2 = estimate_with(row, with_profile(cat, unit));
  if (!e2) return std::nullopt;
  double t2 = row.prompt / *e2;
  out.flops_time = t2 - t1;
  out.bytes_time = t1 - out.flops_time;
  return out;
}

// One prefill row: FLOPs time at efficiency 1, the time left after the bytes,
// the measured time, and whether its GEMMs ran in an 8-bit format.
struct PrefillPoint {
  double flops_time = 0, left = 0, time = 0;
  bool eight_bit = false;
};

struct PrefillFit {
  double eff16 = 0, eff8 = 0, err = 0;  // 0: no row of that kind
};

// Efficiencies as the median over the rows of FLOPs time / (time left - the
// fixed cost), 8-bit rows apart when `split`; err: the sum of the squared
// relative errors of the rows' times.
PrefillFit prefill_medians(const std::vector<PrefillPoint>& pts, double fixed, bool split) {
  std::vector<double> e16, e8;
  for (const auto& q : pts)
    if (q.left - fixed > 0)
      (split && q.eight_bit ? e8 : e16).push_back(std::min(1.0, q.flops_time / (q.left - fixed)));
  PrefillFit f;
  if (!e16.empty()) f.eff16 = median(e16);
  if (!e8.empty()) f.eff8 = median(e8);
  for (const auto& q : pts) {
    double eff = split && q.eight_bit ? f.eff8 : f.eff16;
    if (eff <= 0) continue;
    double r = (fixed + q.flops_time / eff - q.left) / q.time;
    f.err += r * r;
  }
  return f;
}

// Prefill: time = fixed + FLOPs time / efficiency + bytes time. One
// efficiency for 16-bit activations and one for 8-bit ones where the rows
// have both (TensorRT-LLM's FP8 on H100 reaches a smaller share of the FP8
// peak than FP16 on A100 of its own). The fixed cost is fitted only for a
// profile that gives one (prefill_fixed_us) and where a group of rows spans
// prompt sizes (FLOPs 1.2x apart), as the one that
// minimises the squared relative errors over [0, bound] in 1/200 steps; it is
// bounded by what the shortest row leaves after its bytes, so it can never
// exceed what any row measures, and a cost that needs an efficiency of 1 is
// not taken. Else the profile's is kept (within the bound).
void fit_prefill(RuntimeProfile& p, const std::vector<PrefillPoint>& pts) {
  bool has8 = false, has16 = false;
  double bound = pts.front().left;
  for (const auto& q : pts) (q.eight_bit ? has8 : has16) = true, bound = std::min(bound, q.left);
  bound = std::max(0.0, bound);
  const bool split = has8 && has16;
  bool spans = false;
  for (bool g : {false, true}) {
    double lo = 0, hi = 0;
    int n = 0;
    for (const auto& q : pts)
      if (!split || q.eight_bit == g) {
        lo = n ? std::min(lo, q.flops_time) : q.flops_time;
        hi = n ? std::max(hi, q.flops_time) : q.flops_time;
        ++n;
      }
    spans = spans || (n >= 2 && hi > 1.2 * lo);
  }
  double fixed = std::min(p.prefill_fixed_us * 1e-6, bound);
  if (spans && p.prefill_fixed_fitted) {
    double best = -1;
    for (int k = 0; k <= 200; ++k) {
      double a = bound * k / 200;
      PrefillFit f = prefill_medians(pts, a, split);
      if (f.eff16 >= 1 || f.eff8 >= 1) continue;  // a share of 1 is not physical
      if (best < 0 || f.err < best) best = f.err, fixed = a;
    }
  }
  PrefillFit f = prefill_medians(pts, fixed, split);
  p.prefill_fixed_us = fixed * 1e6;
  if (split) {
    if (f.eff16 > 0) p.prefill_efficiency = f.eff16;
    if (f.eff8 > 0) p.prefill_efficiency_8bit = f.eff8;
  } else if (f.eff16 > 0) {
    // All rows of one kind: 8-bit rows refit the 8-bit share the profile has.
    (has8 && p.prefill_efficiency_8bit > 0 ? p.prefill_efficiency_8bit : p.prefill_efficiency) =
        f.eff16;
  }
}

// "1960 TFLOP/s"
std::string fmt_rate(double flops_per_s) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.0f TFLOP/s", flops_per_s / 1e12);
  return buf;
}

}  // namespace

std::optional<double> calibration_estimate(const CalibrationRow& row, const Catalogue& cat,
                                           std::string* why) {
  if (!row_plan(row, cat, why)) return std::nullopt;
  auto e = estimate_with(row, cat);
  if (!e && why) *why = row.id + ": no estimate";
  return e;
}

std::optional<std::string> above_peak(const CalibrationRow& row, const Catalogue& cat) {
  if (row.metric != "prefill" || row.prompt <= 0 || row.measured <= 0) return std::nullopt;
  const Sku* sku = cat.find(row.device);
  const QuantLevel* q = find_quant(row.quant);
  auto p = row_plan(row, cat, nullptr);
  if (!sku || !q || !p) return std::nullopt;
  StepWork work;
  if (!prefill_seconds(p->plan, p->cost, p->set, cat, row.prompt, &work) || work.flops <= 0)
    return std::nullopt;
  const std::string format =
      activation_format(runtime_profile(cat, row.runtime, *sku), *q, *sku, row.runtime);
  int devices = 0;
  for (const auto& st : p->plan.stages) devices += static_cast<int>(st.devices.size());
  const double peak = sku->peak(format) * devices;
  if (peak <= 0) return std::nullopt;
  // The floor: the FLOPs at the dense peak of every device, then the
  // all-reduces a layer waits for at the link's full rate; the weights'
  // bytes are left out (they can overlap the GEMMs), as are launches,
  // scheduling and the request's round trip.
  const double compute = work.flops / peak, least = compute + work.comm_seconds;
  const double seconds = row.prompt / row.measured;
  if (seconds >= least) return std::nullopt;
  char buf[400];
  std::snprintf(buf, sizeof buf,
                "%.0f tok/s over %d tokens is %.1f ms; its %.3g FLOPs (weights and attention) "
                "take %.1f ms at the dense %s peak of %d x %s (%.0f TFLOP/s)",
                row.measured, row.prompt, seconds * 1e3, work.flops, compute * 1e3, format.c_str(),
                devices, sku->name.c_str(), peak / 1e12);
  std::string why = buf;
  if (work.comm_seconds > 0) {
    std::snprintf(buf, sizeof buf,
                  " and its tensor-parallel all-reduces %.1f ms at the assumed link rate: "
                  "%.1f ms at the least",
                  work.comm_seconds * 1e3, least * 1e3);
    why += buf;
  }
  return why + " (" + fmt_rate(work.flops / seconds) + " implied)";
}

RuntimeProfile fit_profile(const RuntimeProfile& start, const std::vector<CalibrationRow>& rows,
                           const Catalogue& cat) {
  RuntimeProfile p = start;
  std::vector<std::pair<double, double>> dec;  // (bytes time, measured time - per layer)
  // MoE rows of a profile that fits moe_layer_us: (bytes time, time - per
  // layer, MoE layers), kept out of the dense fit.
  struct MoePoint {
    double x = 0, y = 0;
    int layers = 0;
  };
  std::vector<MoePoint> moe;
  std::vector<const CalibrationRow*> pre;
  for (const auto& row : rows) {
    if (!of_profile(row, start, cat) || above_peak(row, cat)) continue;
    if (row.metric == "prefill") {
      pre.push_back(&row);
      continue;
    }
    auto pt = parts(row, start, cat);
    if (!pt) continue;
    double y = row.batch / row.measured - pt->per_layer_time;
    if (start.moe_layer_fitted && pt->moe_layers > 0)
      moe.push_back({pt->bytes_time, y, pt->moe_layers});
    else
      dec.emplace_back(pt->bytes_time, y);
  }
  if (!dec.empty()) {
    double a = p.per_token_us * 1e-6;
    double b = 1 / p.decode_efficiency;
    double xmin = dec.front().first, xmax = xmin;
    for (auto& [x, y] : dec) xmin = std::min(xmin, x), xmax = std::max(xmax, x);
    // The fixed cost can never exceed what any row leaves after reading its
    // bytes at full bandwidth: the fastest small-model row bounds it (a fit
    // pulled up by large or old-build rows put 14.6 ms under MLX, whose 0.6B
    // model measures 2.6 ms a token).
    double a_max = dec.front().second - dec.front().first;
    for (auto& [x, y] : dec) a_max = std::min(a_max, y - x);
    a_max = std::max(0.0, a_max);
    if (dec.size() >= 2 && xmax > 1.2 * xmin) {
      double n = double(dec.size()), sx = 0, sy = 0, sxx = 0, sxy = 0;
      for (auto& [x, y] : dec) sx += x, sy += y, sxx += x * x, sxy += x * y;
      b = (n * sxy - sx * sy) / (n * sxx - sx * sx);
      b = std::max(b, 1.0);  // an efficiency above 1 is not physical
      a = std::clamp((sy - b * sx) / n, 0.0, a_max);
      // With the cost at its bound, the slope is refitted through it.
      if (a == a_max && sxx > 0) b = std::max(1.0, (sxy - a * sx) / sxx);
    } else {
      a = std::min(a, a_max);
      std::vector<double> bs;
      for (auto& [x, y] : dec)
        if (y - a > 0) bs.push_back((y - a) / x);
      if (!bs.empty()) b = std::max(1.0, median(bs));
    }
    p.per_token_us = a * 1e6;
    p.decode_efficiency = 1 / b;
  }
  // The MoE cost: the median over the MoE rows of what each leaves per MoE
  // layer after the dense fit's fixed cost and bytes time, at least 0.
  if (!moe.empty()) {
    const double a = p.per_token_us * 1e-6, b = 1 / p.decode_efficiency;
    std::vector<double> per_layer;
    for (const auto& q : moe) per_layer.push_back((q.y - a - b * q.x) / q.layers);
    p.moe_layer_us = std::max(0.0, median(per_layer)) * 1e6;
  }
  std::vector<PrefillPoint> pts;
  for (const auto* row : pre) {
    auto pt = parts(*row, p, cat);
    if (!pt || pt->flops_time <= 0) continue;
    double t = row->prompt / row->measured;
    pts.push_back({pt->flops_time, t - pt->bytes_time / p.decode_efficiency, t, pt->eight_bit});
  }
  if (!pts.empty()) fit_prefill(p, pts);
  return p;
}

std::vector<std::optional<double>> leave_one_out(const std::vector<CalibrationRow>& rows,
                                                 const Catalogue& cat) {
  std::vector<std::optional<double>> out(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Sku* sku = cat.find(rows[i].device);
    if (!sku) continue;
    const RuntimeProfile* start = runtime_profile(cat, rows[i].runtime, *sku);
    if (!start || above_peak(rows[i], cat)) continue;
    std::vector<CalibrationRow> others;
    for (std::size_t j = 0; j < rows.size(); ++j)
      if (j != i && rows[j].metric == rows[i].metric && of_profile(rows[j], *start, cat))
        others.push_back(rows[j]);
    if (others.empty()) continue;
    out[i] = estimate_with(rows[i], with_profile(cat, fit_profile(*start, others, cat)));
  }
  return out;
}

}  // namespace hwaccel::plan
