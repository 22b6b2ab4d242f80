#include "src/kernels/classes.h"

#include <algorithm>

namespace hwaccel::kernels {

ResolveResult resolve_class(const KernelTree& tree, const std::string& cls) {
  ResolveResult r;
  std::vector<const HardwareClass*> chain;
  std::string at = cls;
  while (!at.empty()) {
    auto it = tree.classes.find(at);
    if (it == tree.classes.end()) {
      r.error = chain.empty() ? "no class folder \"" + at + "\" in " + tree.root
                              : chain.back()->file + ": inherits \"" + at + "\": no such class";
      return r;
    }
    for (std::size_t i = 0; i < chain.size(); ++i) {
      if (chain[i]->name == at) {
        std::string cycle;
        for (std::size_t j = i; j < chain.size(); ++j) cycle += chain[j]->name + " -> ";
        r.error = "class chain has a cycle: " + cycle + at + " (" + chain.back()->file + ")";
        return r;
      }
    }
    chain.push_back(&it->second);
    at = it->second.inherits;
  }
  ResolvedClass rc;
  for (const auto* c : chain) rc.chain.push_back(c->name);
  // Root first, so a derived class overrides.
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const HardwareClass& c = **it;
    for (const auto& f : c.flags) {
      rc.flags.push_back(f);
      std::string body = f.substr(2);
      auto eq = body.find('=');
      std::string name = body.substr(0, eq);
      if (f[1] == 'D') {
        rc.defined[name] = eq == std::string::npos ? 1 : std::stoll(body.substr(eq + 1));
        rc.undefined.erase(name);
      } else {
        rc.defined.erase(name);
        rc.undefined.insert(name);
      }
      rc.flag_origin[name] = c.name + ": " + f;
    }
    for (const auto& m : c.modules) {
      rc.modules.insert(m);
      rc.module_removed.erase(m);
    }
    for (const auto& m : c.remove_modules) {
      rc.modules.erase(m);
      rc.module_removed[m] = c.name;
    }
    for (const auto& [k, why] : c.expected_absent) rc.expected_absent[k] = {c.name, why};
    for (const auto& [k, v] : c.defaults) {
      auto old = rc.settings.find(k);
      std::string was = old == rc.settings.end() ? "" : old->second;
      if (&c == chain.front() && was != v) rc.changed.push_back({k, v, was, c.name});
      rc.settings[k] = v;
    }
    if (c.has_policy) {
      rc.policy_class = c.name;
      rc.policy_ops = c.policy_ops;
      rc.policy_exempt = c.policy_exempt;
    }
  }
  std::sort(rc.policy_ops.begin(), rc.policy_ops.end());
  r.resolved = std::move(rc);
  return r;
}

}  // namespace hwaccel::kernels
