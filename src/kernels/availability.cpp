#include "src/kernels/availability.h"

#include <set>

namespace hwaccel::kernels {

std::string to_string(Reason r) {
  switch (r) {
    case Reason::available:
      return "available";
    case Reason::not_compiled:
      return "not-compiled";
    case Reason::region_excluded:
      return "region-excluded";
    case Reason::lacks_instruction:
      return "lacks-instruction";
    case Reason::expected_absent:
      return "expected-absent";
  }
  return "?";
}

namespace {

const plan::Guard* guard_for(const std::vector<plan::Guard>& guards, const std::string& macro) {
  for (const auto& g : guards)
    if (g.macro == macro) return &g;
  return nullptr;
}

}  // namespace

MacroSet build_macros(const ResolvedClass& rc, const plan::Sku& sku,
                      const std::vector<plan::Guard>& guards) {
  MacroSet m = rc.defined;
  for (const auto& g : guards) {
    if (sku.has_instruction(g.instruction)) {
      if (!m.count(g.macro)) m[g.macro] = 1;
    } else {
      m.erase(g.macro);
    }
  }
  return m;
}

std::vector<std::string> flag_contradictions(const ResolvedClass& rc, const plan::Sku& sku,
                                             const std::vector<plan::Guard>& guards) {
  std::vector<std::string> out;
  const std::string cls = rc.chain.front();
  for (const auto& g : guards) {
    bool has = sku.has_instruction(g.instruction);
    auto origin = rc.flag_origin.find(g.macro);
    std::string from = origin == rc.flag_origin.end() ? "" : " (" + origin->second + ")";
    if (rc.defined.count(g.macro) && !has)
      out.push_back("class " + cls + " defines " + g.macro + from + ", which stands for " +
                    g.instruction + ", but device " + sku.id + " (" + sku.target +
                    ") lacks the instruction " + g.instruction);
    if (rc.undefined.count(g.macro) && has)
      out.push_back("class " + cls + " undefines " + g.macro + from + ", which stands for " +
                    g.instruction + ", but device " + sku.id + " (" + sku.target +
                    ") has the instruction " + g.instruction);
  }
  return out;
}

Availability availability(const KernelDef& k, const ResolvedClass& rc, const plan::Sku& sku,
                          const std::vector<plan::Guard>& guards) {
  Availability a;
  a.kernel = k.name;
  a.where = k.file + ":" + std::to_string(k.line);
  const std::string cls = rc.chain.front();
  // A kernel the class lists as expected-absent is absent, whatever its region
  // says: the listing is the tree's own statement (the cause may not be in a guard).
  auto expected = rc.expected_absent.find(k.name);
  if (expected != rc.expected_absent.end()) {
    a.reason = Reason::expected_absent;
    a.detail =
        "listed as expected-absent by " + expected->second.first + ": " + expected->second.second;
    return a;
  }
  auto absent = [&](Reason r, std::string detail) {
    a.reason = r;
    a.detail = std::move(detail);
    return a;
  };
  if (!rc.modules.count(k.file)) {
    auto removed = rc.module_removed.find(k.file);
    if (removed != rc.module_removed.end())
      return absent(Reason::not_compiled,
                    "module " + k.file + " is removed by class " + removed->second);
    return absent(Reason::not_compiled, "module " + k.file + " is not compiled for class " + cls);
  }
  MacroSet macros = build_macros(rc, sku, guards);
  for (const auto& c : k.conditions) {
    auto g = evaluate_guard(c.expr, macros);
    bool holds = g.ok && ((g.value != 0) == c.want);
    if (holds) continue;
    std::string where = c.directive + " (" + k.file + ":" + std::to_string(c.line) + ")";
    std::string branch = c.want ? "needs " + where : "is in a later branch of " + where;
    // A guard macro the device decides.
    for (const auto& name : g.macros) {
      const plan::Guard* guard = guard_for(guards, name);
      if (!guard) continue;
      bool has = sku.has_instruction(guard->instruction);
      if (!has && c.want)
        return absent(Reason::lacks_instruction, branch + "; " + name + " stands for " +
                                                     guard->instruction + ", which " + sku.id +
                                                     " (" + sku.target + ") lacks");
      if (has && !c.want)
        return absent(Reason::region_excluded, branch + ", which is taken: " + sku.id + " has " +
                                                   guard->instruction + " (" + name + ")");
    }
    // Name the macros that decide: those whose flip alone would change the
    // outcome (all of them when no single one does).
    std::set<std::string> deciding;
    for (const auto& name : g.macros) {
      MacroSet flipped = macros;
      if (flipped.count(name))
        flipped.erase(name);
      else
        flipped[name] = 1;
      auto f = evaluate_guard(c.expr, flipped);
      if (f.ok && (f.value != 0) == c.want) deciding.insert(name);
    }
    if (deciding.empty()) deciding = g.macros;
    std::string why;
    for (const auto& name : deciding) {
      auto origin = rc.flag_origin.find(name);
      if (!why.empty()) why += ", ";
      if (origin != rc.flag_origin.end())
        why += name + (rc.defined.count(name) ? " is set by " : " is removed by ") + origin->second;
      else
        why += name + " is not defined by the flags of " + cls;
    }
    return absent(Reason::region_excluded, branch + "; " + (why.empty() ? "constant" : why));
  }
  return a;
}

}  // namespace hwaccel::kernels
