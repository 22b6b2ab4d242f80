#include "src/kernels/kernel_report.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "src/plan/devices.h"

namespace hwaccel::kernels {

namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string us(double s) {
  return fixed(s * 1e6, 1);
}

std::string gb(double bytes) {
  return fixed(bytes / 1e9, 2) + " GB";
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string pipe_safe(std::string s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string header(const KernelPlan& p, const ReportContext& ctx) {
  std::ostringstream o;
  o << "# Kernel plan: " << p.model << " (" << p.quant << ") on " << p.device << "\n\n";
  o << "- device: " << p.device_name << " (`" << p.device << "`), target " << p.target
    << ", instructions: " << join(p.instructions, ", ") << "\n";
  o << "- model: " << p.shape << "\n";
  o << "- weights " << p.quant << ", KV cache " << p.workload.kv << ", context "
    << p.workload.context << " tokens, batch 1\n";
  o << "- kernel tree: `" << ctx.tree << "`\n\n";
  if (p.cls) {
    const auto& rc = *p.cls;
    o << "## Class\n\n";
    o << "Chain: " << join(rc.chain, " -> ") << "\n\n";
    o << "Build flags (root class first): `" << join(rc.flags, " ") << "`\n\n";
    if (rc.changed.empty()) {
      o << "Settings the class changed: none\n\n";
    } else {
      o << "Settings " << rc.chain.front() << " changed:\n\n";
      o << "| setting | value | inherited |\n|---|---|---|\n";
      for (const auto& c : rc.changed)
        o << "| " << c.key << " | " << c.value << " | " << (c.was.empty() ? "-" : c.was) << " |\n";
      o << "\n";
    }
  }
  return o.str();
}

std::string step_share(const KernelPlan& p) {
  double share = p.step_roofline_s > 0 ? 100.0 * p.covered_s / p.step_roofline_s : 0;
  return fixed(share, 1) + "%";
}

}  // namespace

std::string render_kernel_report(const KernelPlan& p, const ReportContext& ctx) {
  std::ostringstream o;
  o << header(p, ctx);
  if (!p.errors.empty()) {
    o << "## Errors\n\n";
    for (const auto& e : p.errors) o << "- error: " << e << "\n";
    o << "\nThe build flags contradict the device: no plan is made.\n";
    return o.str();
  }

  o << "## Availability\n\n";
  o << "Every kernel that a fusion rule touching this model's ops could select.\n\n";
  o << "| kernel | family | rules | state | why |\n|---|---|---|---|---|\n";
  for (const auto& k : p.kernels) {
    const auto& a = k.availability;
    o << "| " << k.kernel << " | " << k.family << " | " << join(k.rules, ", ") << " | "
      << to_string(a.reason) << " | " << pipe_safe(a.detail.empty() ? a.where : a.detail) << " |\n";
  }

  o << "\n## Formats\n\n";
  o << "| weights | activations | tensors | execution | runs as | how "
       "|\n|---|---|---|---|---|---|\n";
  for (const auto& f : p.formats) {
    o << "| " << f.pair.weight << " | " << f.pair.activation << " | " << f.pair.scope << " | "
      << to_string(f.kind) << " | " << (f.runs_as.empty() ? "-" : f.runs_as) << " | "
      << pipe_safe(f.detail) << " |\n";
  }

  o << "\n## Decode step (fused, C=1, context " << p.workload.context << ")\n\n";
  o << "Per node: roofline `max(bytes / " << fixed(p.bandwidth / 1e9, 0)
    << " GB/s, FLOPs / peak of its format)` at the device's datasheet figures.\n\n";
  o << "| node | op | x | format | rule | kernels | bytes | bound | µs each | µs all |\n";
  o << "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& n : p.nodes) {
    std::string fmt =
        n.format.empty() ? "-" : n.format + (n.runs_as.empty() ? "" : "->" + n.runs_as);
    std::string rule = n.rule.empty() ? "**GAP**" : (n.rule_span == 0 ? "(fused) " : "") + n.rule;
    o << "| " << n.name << " | " << n.op << " | " << n.repeat << " | " << fmt << " | " << rule
      << " | " << (n.kernels.empty() ? "-" : join(n.kernels, " + ")) << " | "
      << fixed(n.bytes / 1e6, 3) << " MB | " << n.bound << " | " << fixed(n.seconds * 1e6, 2)
      << " | " << us(n.seconds * n.repeat) << " |\n";
  }
  o << "\nCovered: " << us(p.covered_s) << " of " << us(p.step_roofline_s) << " µs ("
    << step_share(p) << " of the step's roofline time).\n";
  bool gaps = false;
  for (const auto& n : p.nodes) {
    if (n.rule.empty()) {
      if (!gaps) o << "\nGaps:\n\n";
      gaps = true;
      o << "- " << n.name << " (" << n.op << ", x" << n.repeat << ", " << us(n.seconds * n.repeat)
        << " µs): " << n.gap << "\n";
    }
  }
  if (!gaps) o << "\nGaps: none.\n";

  o << "\n## Tensor-core audit\n\n";
  if (!p.cls || p.cls->policy_class.empty()) {
    o << "No class of the chain states a tensor-core policy.\n";
  } else {
    const auto& rc = *p.cls;
    o << "Policy of " << rc.policy_class << ": " << join(rc.policy_ops, ", ")
      << " must run on tensor cores";
    std::vector<std::string> ex;
    for (const auto& [node, why] : rc.policy_exempt) ex.push_back(node);
    o << (ex.empty() ? "" : "; exempt: " + join(ex, ", ")) << ".\n\n";
    for (const auto& e : p.exempted) o << "- exempt: " << e << "\n";
    if (p.violations.empty()) {
      o << (p.exempted.empty() ? "" : "\n") << "No violations.\n";
    } else {
      for (const auto& v : p.violations)
        o << "- error: " << v.node << " (" << v.op << ", rule " << v.rule
          << ") runs off tensor cores: " << v.kernels << "\n";
    }
  }

  o << "\n## Estimates\n\n";
  if (!p.estimated) {
    o << "No estimate: " << p.estimate_missing << "\n";
  } else {
    o << "Whole-step model of `src/plan/estimate.cpp` with perf class " << p.perf_class
      << " (decode efficiency " << fixed(p.decode_efficiency, 2) << ", prefill efficiency "
      << fixed(p.prefill_efficiency, 2) << ").\n\n";
    o << "| quantity | value |\n|---|---|\n";
    o << "| decode C=1, one step | " << us(p.decode_s) << " µs |\n";
    o << "| decode C=1 | " << fixed(1 / p.decode_s, 1) << " tok/s |\n";
    o << "| prefill 4,096 tokens | " << fixed(p.prefill_4k_s * 1e3, 1) << " ms ("
      << fixed(4096 / p.prefill_4k_s, 0) << " tok/s) |\n";
    o << "| prefill 32,768 tokens | " << fixed(p.prefill_32k_s * 1e3, 1) << " ms ("
      << fixed(32768 / p.prefill_32k_s, 0) << " tok/s) |\n";
    o << "| weight bytes read per decode step | " << gb(p.weight_bytes_step) << " |\n";
    o << "| per-node roofline sum (no efficiency) | " << us(p.step_roofline_s) << " µs |\n";
    for (const auto& f : p.formats)
      if (f.kind == Execution::unsupported) {
        o << "\nThe estimates price the " << f.pair.weight
          << " tensors at the planner's fallback rate; this tree cannot run them.\n";
        break;
      }
  }

  o << "\n## Footprint\n\n";
  o << "| part | size |\n|---|---|\n";
  o << "| weights | " << plan::gib(p.footprint.weights) << " |\n";
  o << "| KV cache | " << plan::gib(p.footprint.kv_cache) << " |\n";
  o << "| activations and workspace | " << plan::gib(p.footprint.activations) << " |\n";
  o << "| runtime | " << plan::gib(p.footprint.overhead) << " |\n";
  o << "| total | " << plan::gib(p.footprint.total()) << " |\n";
  o << "| memory x usable fraction | " << plan::gib(p.memory) << " x "
    << fixed(p.usable_fraction, 2) << " = " << plan::gib(p.capacity) << " |\n\n";
  if (p.fits()) {
    o << "Fits: " << plan::gib(p.footprint.total()) << " of " << plan::gib(p.capacity) << ".\n";
  } else {
    o << "Does not fit: needs " << plan::gib(p.footprint.total()) << ", has "
      << plan::gib(p.capacity) << ".\n\n";
    o << "Would fit on (devices of " << ctx.tree
      << "/DEVICES.toml): " << (p.fits_on.empty() ? "none" : join(p.fits_on, ", ")) << "\n";
  }

  o << "\n## Verdict\n\n";
  int gap_count = 0;
  for (const auto& n : p.nodes) gap_count += n.rule.empty() ? 1 : 0;
  std::string fit = p.fits() ? "fits" : "does not fit";
  if (!p.violations.empty())
    o << "error: " << p.violations.size() << " tensor-core policy violation"
      << (p.violations.size() == 1 ? "" : "s") << "; " << step_share(p)
      << " of the decode step covered, " << fit << ".\n";
  else if (gap_count > 0)
    o << "gaps: " << gap_count << " op" << (gap_count == 1 ? "" : "s")
      << " of the decode step have no available kernel; " << step_share(p) << " covered, " << fit
      << ".\n";
  else
    o << "ok: " << step_share(p) << " of the decode step covered, " << fit << ".\n";
  return o.str();
}

std::string render_kernel_plan_lines(const KernelPlan& p, const ReportContext& ctx) {
  std::ostringstream o;
  o << "kernel-plan " << p.model << " " << p.quant << " on " << p.device << " ("
    << (p.cls ? join(p.cls->chain, " -> ") : "") << ") tree " << ctx.tree << "\n";
  for (const auto& e : p.errors) o << "error " << e << "\n";
  if (!p.errors.empty()) return o.str();
  for (const auto& n : p.nodes) {
    o << n.name << " " << n.op << " x" << n.repeat;
    if (!n.format.empty()) o << " " << n.format << "->" << (n.runs_as.empty() ? "?" : n.runs_as);
    if (n.rule.empty())
      o << " GAP " << n.gap;
    else
      o << " " << n.rule << " " << join(n.kernels, "+");
    o << " " << us(n.seconds * n.repeat) << "us\n";
  }
  for (const auto& v : p.violations)
    o << "violation " << v.node << " " << v.rule << " " << v.kernels << "\n";
  o << "covered " << step_share(p) << " of " << us(p.step_roofline_s) << "us\n";
  return o.str();
}

std::string render_kernel_json(const KernelPlan& p, const ReportContext& ctx) {
  using nlohmann::json;
  json j;
  j["schema"] = "hwaccel-kernel-plan/1";
  j["tree"] = ctx.tree;
  j["device"] = {{"id", p.device},
                 {"name", p.device_name},
                 {"target", p.target},
                 {"instructions", p.instructions}};
  j["model"] = {{"name", p.model},
                {"quant", p.quant},
                {"kv", p.workload.kv},
                {"context", p.workload.context}};
  if (p.cls) {
    json changed = json::array();
    for (const auto& c : p.cls->changed)
      changed.push_back({{"key", c.key}, {"value", c.value}, {"inherited", c.was}});
    j["class"] = {{"chain", p.cls->chain}, {"flags", p.cls->flags}, {"changed", changed}};
  }
  j["errors"] = p.errors;
  if (p.errors.empty()) {
    json ks = json::array();
    for (const auto& k : p.kernels)
      ks.push_back({{"kernel", k.kernel},
                    {"family", k.family},
                    {"rules", k.rules},
                    {"state", to_string(k.availability.reason)},
                    {"where", k.availability.where},
                    {"detail", k.availability.detail}});
    j["kernels"] = ks;
    json fs = json::array();
    for (const auto& f : p.formats)
      fs.push_back({{"weight", f.pair.weight},
                    {"activation", f.pair.activation},
                    {"tensors", f.pair.scope},
                    {"execution", to_string(f.kind)},
                    {"runs_as", f.runs_as},
                    {"detail", f.detail}});
    j["formats"] = fs;
    json ns = json::array();
    for (const auto& n : p.nodes)
      ns.push_back({{"name", n.name},
                    {"op", n.op},
                    {"repeat", n.repeat},
                    {"format", n.format},
                    {"runs_as", n.runs_as},
                    {"rule", n.rule},
                    {"kernels", n.kernels},
                    {"gap", n.gap},
                    {"bytes", n.bytes},
                    {"flops", n.flops},
                    {"seconds", n.seconds},
                    {"bound", n.bound}});
    j["decode_step"] = {{"nodes", ns},
                        {"roofline_seconds", p.step_roofline_s},
                        {"covered_seconds", p.covered_s},
                        {"weight_bytes", p.weight_bytes_step}};
    json vs = json::array();
    for (const auto& v : p.violations)
      vs.push_back({{"node", v.node}, {"op", v.op}, {"rule", v.rule}, {"kernels", v.kernels}});
    j["tensor_core_audit"] = {{"violations", vs}, {"exempted", p.exempted}};
    if (p.estimated)
      j["estimates"] = {{"decode_seconds", p.decode_s},
                        {"decode_tok_s", 1 / p.decode_s},
                        {"prefill_4096_seconds", p.prefill_4k_s},
                        {"prefill_32768_seconds", p.prefill_32k_s}};
    j["footprint"] = {{"weights", p.footprint.weights},
                      {"kv_cache", p.footprint.kv_cache},
                      {"activations", p.footprint.activations},
                      {"runtime", p.footprint.overhead},
                      {"capacity", p.capacity},
                      {"fits", p.fits()},
                      {"fits_on", p.fits_on}};
  }
  return j.dump(2) + "\n";
}

std::string diff_lines(const std::string& expected, const std::string& actual,
                       const std::string& expected_name) {
  if (expected == actual) return "";
  auto split = [](const std::string& s) {
    std::vector<std::string> v;
    std::istringstream in(s);
    for (std::string l; std::getline(in, l);) v.push_back(l);
    return v;
  };
  auto a = split(expected), b = split(actual);
  std::size_t pre = 0;
  while (pre < a.size() && pre < b.size() && a[pre] == b[pre]) ++pre;
  std::size_t sa = a.size(), sb = b.size();
  while (sa > pre && sb > pre && a[sa - 1] == b[sb - 1]) --sa, --sb;
  std::ostringstream o;
  o << "--- " << expected_name << "\n+++ (this report)\n";
  o << "@@ line " << pre + 1 << " @@\n";
  for (std::size_t i = pre; i < sa; ++i) o << "-" << a[i] << "\n";
  for (std::size_t i = pre; i < sb; ++i) o << "+" << b[i] << "\n";
  if (sa == pre && sb == pre) o << "(the files differ only in their final newline)\n";
  return o.str();
}

}  // namespace hwaccel::kernels
