#include "src/kernels/kernel_plan.h"

#include <algorithm>
#include <map>
#include <set>

#include "src/plan/devices.h"
#include "src/plan/estimate.h"
#include "src/plan/sharding.h"

namespace hwaccel::kernels {

namespace {

bool is_gemm(const std::string& op) {
  return op == "gemm" || op == "moe_gemm";
}

PlanNode node(std::string name, std::string op, int repeat, double bytes, double flops) {
  PlanNode n;
  n.name = std::move(name);
  n.op = std::move(op);
  n.repeat = repeat;
  n.bytes = bytes;
  n.flops = flops;
  return n;
}

PlanNode gemm(std::string name, std::string op, int repeat, double in, double out, double count,
              const FormatPair& pair) {
  PlanNode n;
  n.name = std::move(name);
  n.op = std::move(op);
  n.repeat = repeat;
  n.format = pair.weight;
  double params = in * out * count;
  n.weight_bytes = params * pair.weight_bits / 8;
  n.bytes = n.weight_bytes + (in + out) * count * 2;  // bf16 activations in and out
  n.flops = 2 * params;
  return n;
}

const FormatPair& pair_for(const std::vector<FormatPair>& pairs, bool experts) {
  // pairs[0] is the linear (or expert) pair; the last is embedding/lm_head.
  if (!experts && pairs.size() == 3) return pairs[1];  // mxfp4 MoE: attention in bf16
  return pairs[0];
}

}  // namespace

std::vector<PlanNode> decode_nodes(const plan::ModelSpec& m, const plan::QuantLevel& q,
                                   const plan::Workload& w, const std::vector<FormatPair>& pairs) {
  std::vector<PlanNode> out;
  const double h = m.hidden;
  const int L = m.layers;
  const FormatPair& head_pair = pairs.back();
  const FormatPair& linear = pair_for(pairs, false);
  const FormatPair& experts = pair_for(pairs, true);
  auto counts = plan::count_params(m);
  double attn_layer = L ? counts.attention / L : 0;
  double d_v = m.mla() ? m.v_head_dim : m.head_dim;
  double o_params = m.heads * d_v * h;
  double qkv_out = (attn_layer - o_params) / h;
  double kv_elem = plan::kv_bytes_per_element(w.kv).value_or(2);
  double kv_layer = plan::kv_bytes_per_layer(m, w.context, kv_elem);
  double kv_per_token_layer = m.mla() ? (m.kv_lora_rank + m.qk_rope_head_dim) * kv_elem
                                      : 2.0 * m.kv_heads * m.head_dim * kv_elem;
  double attended = kv_per_token_layer > 0 ? kv_layer / kv_per_token_layer : 0;
  double d_qk = m.mla() ? m.qk_nope_head_dim + m.qk_rope_head_dim : m.head_dim;
  double rope_width =
      m.mla() ? (m.heads + 1.0) * m.qk_rope_head_dim : (m.heads + m.kv_heads) * double(m.head_dim);
  (void)q;

  out.push_back(node("embed", "embedding", 1, 2 * h * 2, 0));
  out.back().weight_bytes = h * 2;
  out.push_back(node("attn_norm", "rmsnorm", L, 6 * h, 4 * h));
  out.back().weight_bytes = 2 * h;
  out.push_back(gemm("qkv_proj", "gemm", L, h, qkv_out, 1, linear));
  out.push_back(node("rope", "rope", L, 4 * rope_width, 3 * rope_width));
  out.push_back(node("attention", "attention_decode", L, kv_layer + 4.0 * m.heads * d_v,
                     2.0 * m.heads * (d_qk + d_v) * attended));
  out.push_back(gemm("o_proj", "gemm", L, m.heads * d_v, h, 1, linear));
  out.push_back(node("mlp_norm", "rmsnorm", L, 6 * h, 4 * h));
  out.back().weight_bytes = 2 * h;
  if (m.moe()) {
    double ie = m.moe_intermediate ? m.moe_intermediate : m.intermediate;
    // The router is its own op: its logits feed the top-k in fp32.
    out.push_back(gemm("router", "router_gemm", L, h, m.experts, 1, head_pair));
    out.back().format.clear();
    out.push_back(node("topk", "moe_topk", L, 4.0 * m.experts, 5.0 * m.experts));
    out.push_back(gemm("experts_gate_up", "moe_gemm", L, h, 2 * ie, m.experts_per_token, experts));
    out.push_back(node("experts_act", "silu_mul", L, 6 * ie * m.experts_per_token,
                       4 * ie * m.experts_per_token));
    out.push_back(gemm("experts_down", "moe_gemm", L, ie, h, m.experts_per_token, experts));
    if (m.shared_experts > 0)
      out.push_back(gemm("shared_experts", "gemm", L, h, 3 * ie, m.shared_experts, linear));
  } else {
    bool gelu =
        m.name.find("Gemma") != std::string::npos || m.name.find("gemma") != std::string::npos;
    double I = m.intermediate;
    out.push_back(gemm("gate_up", "gemm", L, h, 2 * I, 1, linear));
    out.push_back(node("act", gelu ? "gelu_mul" : "silu_mul", L, 6 * I, 4 * I));
    out.push_back(gemm("down", "gemm", L, I, h, 1, linear));
  }
  out.push_back(node("final_norm", "rmsnorm", 1, 6 * h, 4 * h));
  out.back().weight_bytes = 2 * h;
  out.push_back(gemm("lm_head", "gemm", 1, h, m.vocab, 1, head_pair));
  return out;
}

namespace {

struct Segment {
  std::size_t begin, end;
};

std::string gib_text(double bytes) {
  return plan::gib(bytes);
}

}  // namespace

KernelPlanResult make_kernel_plan(const KernelTree& tree, const KernelRequest& req) {
  KernelPlanResult result;
  const plan::Sku* sku = tree.devices.find(req.device);
  if (!sku) {
    std::string known;
    for (const auto& s : tree.devices.skus) known += (known.empty() ? "" : ", ") + s.id;
    result.error = "unknown device id \"" + req.device + "\" in " + tree.root +
                   "/DEVICES.toml; known: " + known;
    return result;
  }
  if (sku->kernel_class.empty()) {
    result.error = sku->location + ": device " + sku->id + " has no kernel class";
    return result;
  }
  auto resolved = resolve_class(tree, sku->kernel_class);
  if (!resolved.resolved) {
    result.error = resolved.error;
    return result;
  }
  const ResolvedClass& rc = *resolved.resolved;
  KernelPlan p;
  p.device = sku->id;
  p.device_name = sku->name;
  p.target = sku->target;
  p.instructions = sku->instructions;
  std::sort(p.instructions.begin(), p.instructions.end());
  p.cls = rc;
  p.model = req.spec.name;
  p.shape = plan::describe_shape(req.spec);
  p.quant = req.quant.name;
  p.workload = req.workload;
  p.errors = flag_contradictions(rc, *sku, tree.devices.guards);
  if (!p.errors.empty()) {
    result.plan = std::move(p);
    return result;
  }

  // Formats, then the op sequence with each gemm's compute format.
  auto pairs = declared_pairs(req.spec, req.quant);
  for (const auto& pair : pairs) p.formats.push_back(execute(pair, *sku));
  p.nodes = decode_nodes(req.spec, req.quant, req.workload, pairs);
  for (auto& n : p.nodes) {
    if (!is_gemm(n.op)) continue;
    for (const auto& f : p.formats)
      if (f.pair.weight == n.format) {
        n.runs_as = f.runs_as;
        break;
      }
  }
  // The rules this class sees: its chain's, less those removed along it.
  std::set<std::string> removed;
  for (const auto& c : rc.chain) {
    auto it = tree.removed.find(c);
    if (it != tree.removed.end()) removed.insert(it->second.begin(), it->second.end());
  }
  std::set<std::string> ops, formats;
  for (const auto& n : p.nodes) {
    ops.insert(n.op);
    if (!n.format.empty()) formats.insert(n.format);
  }
  auto depth = [&](const std::string& cls) {
    return static_cast<int>(std::find(rc.chain.begin(), rc.chain.end(), cls) - rc.chain.begin());
  };
  std::vector<const FusionRule*> rules;
  for (const auto& r : tree.rules) {
    if (depth(r.cls) >= static_cast<int>(rc.chain.size()) || removed.count(r.id)) continue;
    bool when = std::all_of(r.when.begin(), r.when.end(), [&](const auto& kv) {
      auto it = rc.settings.find(kv.first);
      return it != rc.settings.end() && it->second == kv.second;
    });
    bool touches = std::all_of(r.ops.begin(), r.ops.end(),
                               [&](const std::string& o) { return ops.count(o) > 0; });
    if (!when || !touches || (!r.format.empty() && !formats.count(r.format))) continue;
    rules.push_back(&r);
  }
  std::stable_sort(rules.begin(), rules.end(), [&](const FusionRule* a, const FusionRule* b) {
    if (a->ops.size() != b->ops.size()) return a->ops.size() > b->ops.size();
    if (a->priority != b->priority) return a->priority > b->priority;
    if (depth(a->cls) != depth(b->cls)) return depth(a->cls) < depth(b->cls);
    return a->id < b->id;
  });
  std::map<std::string, RuleKernel> kernels;
  for (const auto* r : rules) {
    for (const auto& k : r->kernels) {
      auto& rk = kernels[k];
      if (rk.kernel.empty()) {
        rk.kernel = k;
        rk.family = tree.family_of.at(k);
        rk.availability = availability(tree.kernels.at(k), rc, *sku, tree.devices.guards);
      }
      if (std::find(rk.rules.begin(), rk.rules.end(), r->id) == rk.rules.end())
        rk.rules.push_back(r->id);
    }
  }
  for (auto& [name, rk] : kernels) {
    std::sort(rk.rules.begin(), rk.rules.end());
    p.kernels.push_back(rk);
  }

  // Greedy cover of each segment (the step's prologue, one layer, the epilogue).
  std::vector<Segment> segments;
  std::size_t i0 = 0;
  for (std::size_t i = 1; i <= p.nodes.size(); ++i) {
    if (i == p.nodes.size() || p.nodes[i].repeat != p.nodes[i0].repeat) {
      segments.push_back({i0, i});
      i0 = i;
    }
  }
  auto all_available = [&](const FusionRule& r) {
    return std::all_of(r.kernels.begin(), r.kernels.end(), [&](const std::string& k) {
      return kernels.at(k).availability.available();
    });
  };
  for (const auto& seg : segments) {
    for (std::size_t i = seg.begin; i < seg.end;) {
      const FusionRule* chosen = nullptr;
      std::string near_miss;
      for (const auto* r : rules) {
        if (i + r->ops.size() > seg.end) continue;
        bool match = true;
        for (std::size_t j = 0; j < r->ops.size() && match; ++j) {
          const PlanNode& n = p.nodes[i + j];
          if (n.op != r->ops[j])
            match = false;
          else if (is_gemm(n.op))
            match = !n.runs_as.empty() && n.format == r->format &&
                    (r->runs_as.empty() || r->runs_as == n.runs_as);
        }
        if (!match) continue;
        if (all_available(*r)) {
          chosen = r;
          break;
        }
        if (near_miss.empty()) {
          for (const auto& k : r->kernels) {
            const auto& a = kernels.at(k).availability;
            if (!a.available()) {
              near_miss = "rule " + r->id + " needs " + k + " (" + to_string(a.reason) + ")";
              break;
            }
          }
        }
      }
      PlanNode& n = p.nodes[i];
      if (!chosen) {
        if (is_gemm(n.op) && n.runs_as.empty())
          n.gap = n.format + " is unsupported on " + sku->id;
        else if (!near_miss.empty())
          n.gap = near_miss;
        else
          n.gap = "no rule of " + rc.chain.front() + "'s chain covers " + n.op +
                  (n.format.empty() ? "" : " (" + n.format + ")");
        ++i;
        continue;
      }
      for (std::size_t j = 0; j < chosen->ops.size(); ++j) {
        PlanNode& m = p.nodes[i + j];
        m.rule = chosen->id;
        m.rule_span = j == 0 ? static_cast<int>(chosen->ops.size()) : 0;
        m.kernels = chosen->kernels;
      }
      i += chosen->ops.size();
    }
  }
  // Per-node roofline at the device's raw peaks.
  for (auto& n : p.nodes) {
    double peak =
        is_gemm(n.op) ? sku->peak(n.runs_as.empty() ? "bf16" : n.runs_as) : sku->peak("fp32");
    if (peak <= 0) peak = sku->peak("bf16");
    double tb = n.bytes / sku->bandwidth_bytes_s;
    double tf = peak > 0 ? n.flops / peak : 0;
    n.seconds = std::max(tb, tf);
    n.bound = tf > tb ? "compute" : "memory";
  }

  for (const auto& n : p.nodes) {
    p.step_roofline_s += n.seconds * n.repeat;
    if (!n.rule.empty()) p.covered_s += n.seconds * n.repeat;
    p.weight_bytes_step += n.weight_bytes * n.repeat;
  }

  // Tensor-core audit.
  std::set<std::string> policy(rc.policy_ops.begin(), rc.policy_ops.end());
  for (const auto& n : p.nodes) {
    if (!policy.count(n.op) || n.rule.empty()) continue;
    bool tensor = false;
    std::string used;
    for (const auto& k : n.kernels) {
      const Family& f = tree.families.at(tree.family_of.at(k));
      if (f.op != n.op && !(is_gemm(n.op) && is_gemm(f.op))) continue;
      tensor = tensor || f.tensor_cores;
      used += (used.empty() ? "" : ", ") + k + " (" + f.id + ")";
    }
    if (tensor) continue;
    auto ex = rc.policy_exempt.find(n.name);
    if (ex != rc.policy_exempt.end()) {
      p.exempted.push_back(n.name + ": " + ex->second);
      continue;
    }
    p.violations.push_back({n.name, n.op, n.rule, used.empty() ? "no kernel of op " + n.op : used});
  }

  // Estimates with the planner's model of the step (efficiencies included).
  plan::ModelCost cost = plan::model_cost(req.spec, req.quant, req.workload);
  plan::DeviceSet set = plan::synthetic_devices(*sku, 1, 0);
  plan::Plan single;
  plan::Stage st;
  st.devices = {0};
  st.first_layer = 0;
  st.layer_count = req.spec.layers;
  st.embedding = true;
  st.head = true;
  single.stages.push_back(st);
  plan::fill_shards(single, cost, set);
  auto d = plan::decode_step_seconds(single, cost, set, tree.devices, 1, req.workload.context,
                                     &p.estimate_missing);
  auto p4 = plan::prefill_seconds(single, cost, set, tree.devices, 4096);
  auto p32 = plan::prefill_seconds(single, cost, set, tree.devices, 32768);
  if (d && p4 && p32) {
    p.estimated = true;
    p.decode_s = *d;
    p.prefill_4k_s = *p4;
    p.prefill_32k_s = *p32;
  }
  p.bandwidth = sku->bandwidth_bytes_s;
  if (const auto* perf = tree.devices.perf(*sku)) {
    p.perf_class = perf->name;
    p.decode_efficiency = perf->decode_efficiency;
    p.prefill_efficiency = perf->prefill_efficiency;
  }
  p.footprint = cost.footprint;
  p.memory = sku->memory_bytes;
  p.usable_fraction = sku->usable_fraction;
  p.capacity = sku->memory_bytes * sku->usable_fraction;
  if (!p.fits()) {
    for (const auto& s : tree.devices.skus) {
      double cap = s.memory_bytes * s.usable_fraction;
      if (s.id != sku->id && p.footprint.total() <= cap)
        p.fits_on.push_back(s.id + " (" + gib_text(cap) + " usable)");
    }
  }
  result.plan = std::move(p);
  return result;
}

}  // namespace hwaccel::kernels
