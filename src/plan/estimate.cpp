#include "src/plan/estimate.h"

#include <algorithm>
#include <cmath>

#include "src/plan/runtime.h"

namespace hwaccel::plan {

namespace {

struct DeviceSpeed {
  double bandwidth = 0;  // bytes/s, already times efficiency
  double flops = 0;      // FLOP/s at the quant's compute format, times efficiency
  double overhead_per_layer = 0;
  double overhead_per_moe_layer = 0;  // decode, on top of overhead_per_layer (the profile's)
  double per_token = 0;               // fixed per decode step (the runtime profile's)
  double prefill_fixed = 0;           // fixed per prefill (the runtime profile's)
};

bool eight_bit(const std::string& format) {
  return format == "fp8" || format == "int8";
}

std::optional<DeviceSpeed> speed(const PlanDevice& d, const ModelCost& c, const Catalogue& cat,
                                 std::string* missing) {
  if (!d.known()) {
    if (missing) *missing = d.label + " " + d.name + ": unknown device (not in the catalogue)";
    return std::nullopt;
  }
  const PerfClass* perf = nullptr;
  if (d.sku) perf = cat.perf(*d.sku);
  if (!perf) {
    auto it = cat.perf_classes.find("cpu");
    if (it != cat.perf_classes.end()) perf = &it->second;
  }
  PerfClass fallback;
  if (!perf) perf = &fallback;
  const RuntimeProfile* profile = d.sku && !c.workload.runtime.empty()
                                      ? runtime_profile(cat, c.workload.runtime, *d.sku)
                                      : nullptr;
  DeviceSpeed s;
  std::string format =
      d.sku ? activation_format(profile, c.quant, *d.sku, c.workload.runtime) : "fp32";
  if (profile) {
    s.bandwidth = d.bandwidth() * profile->decode_efficiency;
    double eff = eight_bit(format) && profile->prefill_efficiency_8bit > 0
                     ? profile->prefill_efficiency_8bit
                     : profile->prefill_efficiency;
    s.flops = d.peak(format) * eff;
    s.overhead_per_layer = profile->per_layer_us * 1e-6;
    s.overhead_per_moe_layer = profile->moe_layer_us * 1e-6;
    s.per_token = profile->per_token_us * 1e-6;
    s.prefill_fixed = profile->prefill_fixed_us * 1e-6;
  } else {
    s.bandwidth = d.bandwidth() * perf->decode_efficiency;
    s.flops = d.peak(format) * perf->prefill_efficiency;
    s.overhead_per_layer = perf->decode_overhead_us_per_layer * 1e-6;
  }
  if (s.bandwidth <= 0 || s.flops <= 0) {
    if (missing) *missing = d.label + " " + d.name + ": no bandwidth or peak for " + format;
    return std::nullopt;
  }
  return s;
}

// Per-layer parameter count a token touches (for FLOPs).
double active_params_per_layer(const ModelCost& c) {
  const auto& p = c.params;
  double layers = p.attention + p.dense_mlp + p.shared_experts + p.norms +
                  p.routed_experts * p.active_fraction_of_experts;
  if (c.spec.params_given) layers = p.active() - p.lm_head - (p.lm_head > 0 ? 0 : p.embedding);
  return c.spec.layers ? layers / c.spec.layers : 0;
}

double head_params(const ModelCost& c) {
  return c.params.lm_head > 0 ? c.params.lm_head : c.params.embedding;
}

// Share of the routed experts one step touches with `batch` tokens in flight.
double expert_coverage(const ModelSpec& m, int batch) {
  if (!m.moe()) return 1;
  double k = double(m.experts_per_token) / m.experts;
  return 1 - std::pow(1 - k, batch);
}

// The stage's layers with routed experts (DeepSeek's first dense_layers have none).
int stage_moe_layers(const ModelSpec& m, const Stage& st) {
  if (!m.moe()) return 0;
  int first = std::max(st.first_layer, m.dense_layers);
  return std::max(0, st.first_layer + st.layer_count - first);
}

double allreduce_seconds(int tp, double bytes, double link_bytes_s) {
  if (tp <= 1 || link_bytes_s <= 0) return 0;
  return kFastLinkLatency + 2.0 * (tp - 1) / tp * bytes / link_bytes_s;
}

}  // namespace

double attention_flops(const ModelSpec& m, int tokens) {
  double n = tokens;
  double dqk = m.mla() ? m.qk_nope_head_dim + m.qk_rope_head_dim : m.head_dim;
  double dv = m.mla() ? m.v_head_dim : m.head_dim;
  int full = m.layers - m.sliding_layers;
  double attended_full = n / 2;
  double attended_sliding = std::min(double(m.sliding_window), n / 2);
  double per_token = 2.0 * m.heads * (dqk + dv);
  return per_token * n * (full * attended_full + m.sliding_layers * attended_sliding);
}

std::optional<double> decode_step_seconds(const Plan& plan, const ModelCost& c,
                                          const DeviceSet& set, const Catalogue& cat, int batch,
                                          int context, std::string* missing, StepWork* work) {
  const auto& m = c.spec;
  double kv_layer = kv_bytes_per_layer(m, context, c.kv_element) * batch;
  double expert_layer = m.layers ? c.weights.experts_total / m.layers : 0;
  double dense_layer = c.weights.per_layer - expert_layer;
  double layer_bytes = dense_layer + expert_layer * expert_coverage(m, batch);
  double flops_layer = 2.0 * active_params_per_layer(c) * batch;
  double total = 0;
  double per_token = 0;  // the runtime's fixed cost, once per step
  for (std::size_t si = 0; si < plan.stages.size(); ++si) {
    const Stage& st = plan.stages[si];
    int tp = static_cast<int>(st.devices.size());
    double stage = 0;
    for (int di : st.devices) {
      auto s = speed(set.devices[di], c, cat, missing);
      if (!s) return std::nullopt;
      double bytes =
          (layer_bytes * st.layer_count + (st.head ? c.weights.head_read : 0)) / tp +
          kv_layer * st.layer_count / std::min(tp, std::max(1, m.mla() ? 1 : m.kv_heads));
      double flops =
          (flops_layer * st.layer_count + (st.head ? 2.0 * head_params(c) * batch : 0)) / tp;
      if (work) {
        work->flops += flops;
        work->bytes += bytes;
      }
      double t = std::max(bytes / s->bandwidth, flops / s->flops) +
                 s->overhead_per_layer * st.layer_count +
                 s->overhead_per_moe_layer * stage_moe_layers(m, st);
      stage = std::max(stage, t);
      per_token = std::max(per_token, s->per_token);
    }
    // Two all-reduces of the hidden state per layer.
    double comm =
        2.0 * st.layer_count * allreduce_seconds(tp, 2.0 * batch * m.hidden, plan.link_bytes_s);
    stage += comm;
    if (si + 1 < plan.stages.size()) {
      double hop = kSlowLinkLatency + 2.0 * batch * m.hidden / std::max(1.0, plan.pp_link_bytes_s);
      stage += hop, comm += hop;
    }
    if (work) work->comm_seconds += comm;
    total += stage;
  }
  return total + per_token;
}

std::optional<double> prefill_seconds(const Plan& plan, const ModelCost& c, const DeviceSet& set,
                                      const Catalogue& cat, int tokens, StepWork* work) {
  const auto& m = c.spec;
  double attn_layer = m.layers ? attention_flops(m, tokens) / m.layers : 0;
  double flops_layer = 2.0 * active_params_per_layer(c) * tokens + attn_layer;
  // MoE: a prompt reads only the experts its tokens are routed to.
  double expert_layer = m.layers ? c.weights.experts_total / m.layers : 0;
  double touched =
      m.moe() ? experts_touched(m.experts, m.experts_per_token, tokens) / m.experts : 1;
  double layer_bytes = c.weights.per_layer - expert_layer + expert_layer * touched;
  double total = 0;
  double fixed = 0;  // the runtime's fixed cost, once per prefill
  for (std::size_t si = 0; si < plan.stages.size(); ++si) {
    const Stage& st = plan.stages[si];
    int tp = static_cast<int>(st.devices.size());
    double stage = 0;
    for (int di : st.devices) {
      auto s = speed(set.devices[di], c, cat, nullptr);
      if (!s) return std::nullopt;
      double flops = (flops_layer * st.layer_count + (st.head ? 2.0 * head_params(c) : 0)) / tp;
      // Every weight of the stage is read at least once.
      double bytes = (layer_bytes * st.layer_count + (st.head ? c.weights.head : 0)) / tp;
      if (work) {
        work->flops += flops;
        work->bytes += bytes;
      }
      double t = flops / s->flops + bytes / s->bandwidth;
      // Offloaded layers: llama.cpp computes large batches on the GPU, streaming
      // the host's weights over the link once per chunk; the faster of the two.
      if (plan.kind == PlanKind::offload && set.devices[di].cpu && si > 0) {
        auto gpu = speed(set.devices[plan.stages[0].devices[0]], c, cat, nullptr);
        double chunks = std::ceil(double(tokens) / std::max(1, c.workload.prefill_chunk));
        if (gpu && plan.pp_link_bytes_s > 0)
          t = std::min(t, flops / gpu->flops + chunks * bytes / plan.pp_link_bytes_s);
      }
      stage = std::max(stage, t);
      fixed = std::max(fixed, s->prefill_fixed);
    }
    double comm = 2.0 * st.layer_count *
                  allreduce_seconds(tp, 2.0 * double(tokens) * m.hidden, plan.link_bytes_s);
    stage += comm;
    if (si + 1 < plan.stages.size()) {
      double hop = kSlowLinkLatency + 2.0 * tokens * m.hidden / std::max(1.0, plan.pp_link_bytes_s);
      stage += hop, comm += hop;
    }
    if (work) work->comm_seconds += comm;
    total += stage;
  }
  return total + fixed;
}

Estimate estimate(const Plan& plan, const ModelCost& c, const DeviceSet& set, const Catalogue& cat,
                  int batch) {
  Estimate e;
  e.batch = batch;
  int context = c.workload.decode_context();
  e.decode_context = context;
  auto t1 = decode_step_seconds(plan, c, set, cat, 1, context, &e.missing);
  if (!t1) return e;
  auto tb = decode_step_seconds(plan, c, set, cat, batch, context);
  auto p4 = prefill_seconds(plan, c, set, cat, 4096);
  auto p32 = prefill_seconds(plan, c, set, cat, 32768);
  if (!tb || !p4 || !p32) return e;
  if (c.workload.prompt > 0) {
    auto pp = prefill_seconds(plan, c, set, cat, c.workload.prompt);
    if (!pp) return e;
    e.prompt = c.workload.prompt;
    e.prefill_tok_s_prompt = c.workload.prompt / *pp;
  }
  e.available = true;
  e.decode_tok_s_1 = 1 / *t1;
  e.decode_tok_s_b = batch / *tb;
  e.prefill_tok_s_4k = 4096 / *p4;
  e.prefill_tok_s_32k = 32768 / *p32;
  e.bytes_per_token =
      c.weights.per_token + kv_bytes_per_layer(c.spec, context, c.kv_element) * c.spec.layers;
  return e;
}

}  // namespace hwaccel::plan
