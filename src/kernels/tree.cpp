#include "src/kernels/tree.h"

#include <algorithm>
#include <set>

#include "src/plan/toml_fields.h"

namespace hwaccel::kernels {

using plan::LocatedError;
using plan::TableReader;

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::map<std::string, std::string> text_map(const TableReader& r, const std::string& key) {
  std::map<std::string, std::string> out;
  if (!r.has(key)) return out;
  auto sub = r.sub(key);
  for (const auto& [k, v] : sub.raw()) {
    std::string name(k.str());
    out[name] = sub.text(name);
  }
  return out;
}

std::vector<std::string> texts_or(const TableReader& r, const std::string& key) {
  return r.has(key) ? r.texts(key) : std::vector<std::string>{};
}

HardwareClass read_class(const std::string& text, const std::string& file,
                         const std::string& folder) {
  toml::table root = plan::parse_toml(text, file);
  TableReader r(root, file, "");
  r.allow_only({"class", "inherits", "target", "flags", "modules", "remove_modules",
                "expected_absent", "defaults", "tensor_core_policy"});
  HardwareClass c;
  c.file = file;
  c.name = r.text("class");
  if (c.name != folder)
    r.fail("class", "\"" + c.name + "\" but the folder is \"" + folder + "\" (they must agree)");
  c.inherits = r.text_or("inherits", "");
  c.target = r.text("target");
  c.flags = texts_or(r, "flags");
  for (const auto& f : c.flags) {
    bool ok = f.size() > 2 && (f.rfind("-D", 0) == 0 || f.rfind("-U", 0) == 0);
    if (ok && f[1] == 'U' && f.find('=') != std::string::npos) ok = false;
    if (!ok) r.fail("flags", "\"" + f + "\": expected -DNAME, -DNAME=INTEGER or -UNAME");
    auto eq = f.find('=');
    if (eq != std::string::npos) {
      std::string v = f.substr(eq + 1);
      bool digits = !v.empty() && v.size() < 18 &&
                    std::all_of(v.begin(), v.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
      if (!digits) r.fail("flags", "\"" + f + "\": the value must be a decimal integer");
    }
  }
  c.modules = texts_or(r, "modules");
  c.remove_modules = texts_or(r, "remove_modules");
  c.expected_absent = text_map(r, "expected_absent");
  c.defaults = text_map(r, "defaults");
  if (r.has("tensor_core_policy")) {
    auto p = r.sub("tensor_core_policy");
    p.allow_only({"ops", "exempt"});
    c.has_policy = true;
    c.policy_ops = p.texts("ops");
    c.policy_exempt = text_map(p, "exempt");
  }
  return c;
}

void read_fusions(const std::string& text, const std::string& file, KernelTree& t) {
  toml::table root = plan::parse_toml(text, file);
  TableReader r(root, file, "");
  r.allow_only({"format", "rule", "remove"});
  if (r.text("format") != "hwaccel-fusions/1") r.fail("format", "expected \"hwaccel-fusions/1\"");
  if (const auto* rules = root.get("rule")) {
    if (!rules->is_array_of_tables()) r.fail("rule", "expected [[rule]] entries");
    std::size_t i = 0;
    for (const auto& node : *rules->as_array()) {
      TableReader rr(*node.as_table(), file, "rule[" + std::to_string(i++) + "]");
      rr.allow_only({"id", "class", "ops", "format", "runs_as", "priority", "when", "kernels"});
      FusionRule f;
      f.id = rr.text("id");
      f.cls = rr.text("class");
      f.ops = rr.texts("ops");
      if (f.ops.empty()) rr.fail("ops", "expected at least one op");
      f.format = rr.text_or("format", "");
      f.runs_as = rr.text_or("runs_as", "");
      f.priority = static_cast<int>(rr.number_or("priority", 0));
      bool gemm = std::any_of(f.ops.begin(), f.ops.end(),
                              [](const std::string& o) { return o == "gemm" || o == "moe_gemm"; });
      if (gemm && f.format.empty())
        rr.fail("format", "missing: a rule with a gemm op names the weight format it takes");
      f.when = text_map(rr, "when");
      f.kernels = rr.texts("kernels");
      if (f.kernels.empty()) rr.fail("kernels", "expected at least one kernel");
      f.location = plan::location(file, node.as_table()->source());
      for (const auto& o : t.rules)
        if (o.id == f.id) rr.fail("id", "\"" + f.id + "\" is defined twice");
      if (!t.classes.count(f.cls)) rr.fail("class", "\"" + f.cls + "\": no such class folder");
      t.rules.push_back(std::move(f));
    }
  }
  if (const auto* removes = root.get("remove")) {
    if (!removes->is_array_of_tables()) r.fail("remove", "expected [[remove]] entries");
    std::size_t i = 0;
    for (const auto& node : *removes->as_array()) {
      TableReader rr(*node.as_table(), file, "remove[" + std::to_string(i++) + "]");
      rr.allow_only({"class", "rules"});
      std::string cls = rr.text("class");
      if (!t.classes.count(cls)) rr.fail("class", "\"" + cls + "\": no such class folder");
      for (const auto& id : rr.texts("rules")) {
        bool known = std::any_of(t.rules.begin(), t.rules.end(),
                                 [&](const FusionRule& f) { return f.id == id; });
        if (!known) rr.fail("rules", "\"" + id + "\": no such rule");
        t.removed[cls].push_back(id);
      }
      std::sort(t.removed[cls].begin(), t.removed[cls].end());
    }
  }
  std::sort(t.rules.begin(), t.rules.end(),
            [](const FusionRule& a, const FusionRule& b) { return a.id < b.id; });
}

void read_families(const std::string& text, const std::string& file, KernelTree& t) {
  toml::table root = plan::parse_toml(text, file);
  TableReader r(root, file, "");
  r.allow_only({"format", "family"});
  if (r.text("format") != "hwaccel-kernel-families/1")
    r.fail("format", "expected \"hwaccel-kernel-families/1\"");
  const auto* fams = root.get("family");
  if (!fams || !fams->is_array_of_tables()) r.fail("family", "expected [[family]] entries");
  std::size_t i = 0;
  for (const auto& node : *fams->as_array()) {
    TableReader fr(*node.as_table(), file, "family[" + std::to_string(i++) + "]");
    fr.allow_only({"id", "op", "tensor_cores", "kernels"});
    Family f;
    f.id = fr.text("id");
    f.op = fr.text("op");
    f.tensor_cores = fr.boolean_or("tensor_cores", false);
    f.kernels = fr.texts("kernels");
    std::sort(f.kernels.begin(), f.kernels.end());
    if (t.families.count(f.id)) fr.fail("id", "\"" + f.id + "\" is defined twice");
    for (const auto& k : f.kernels) {
      if (t.family_of.count(k))
        fr.fail("kernels", "\"" + k + "\" is already in family " + t.family_of[k]);
      t.family_of[k] = f.id;
    }
    t.families[f.id] = std::move(f);
  }
}

}  // namespace

TreeResult parse_tree(const std::map<std::string, std::string>& files, const std::string& root) {
  TreeResult result;
  KernelTree t;
  t.root = root;
  try {
    auto need = [&](const std::string& name) -> const std::string& {
      auto it = files.find(name);
      if (it == files.end())
        throw LocatedError(root + "/" + name + ": missing from the kernel tree");
      return it->second;
    };
    auto devices = plan::parse_catalogue(need("DEVICES.toml"), root + "/DEVICES.toml");
    if (!devices.catalogue) throw LocatedError(devices.error);
    t.devices = std::move(*devices.catalogue);
    std::sort(t.devices.skus.begin(), t.devices.skus.end(),
              [](const plan::Sku& a, const plan::Sku& b) { return a.id < b.id; });
    for (const auto& [path, text] : files) {
      auto slash = path.find('/');
      if (slash != std::string::npos && path.substr(slash + 1) == "HARDWARE.toml") {
        std::string folder = path.substr(0, slash);
        t.classes[folder] = read_class(text, root + "/" + path, folder);
      }
    }
    for (const auto& [name, c] : t.classes) {
      if (!c.inherits.empty() && !t.classes.count(c.inherits))
        throw LocatedError(c.file + ": inherits \"" + c.inherits + "\": no such class folder");
    }
    for (const auto& s : t.devices.skus) {
      if (!s.kernel_class.empty() && !t.classes.count(s.kernel_class))
        throw LocatedError(s.location + ": class \"" + s.kernel_class +
                           "\": no such class folder (has HARDWARE.toml)");
    }
    read_families(need("KERNEL_FAMILIES.toml"), root + "/KERNEL_FAMILIES.toml", t);
    read_fusions(need("FUSIONS.toml"), root + "/FUSIONS.toml", t);
    for (const auto& [path, text] : files) {
      if (!ends_with(path, ".cu")) continue;
      t.sources.push_back(path);
      auto scan = scan_source(text, root + "/" + path);
      if (!scan.ok) throw LocatedError(scan.error);
      for (auto& k : scan.kernels) {
        k.file = path;
        auto it = t.kernels.find(k.name);
        if (it != t.kernels.end())
          throw LocatedError(root + "/" + path + ":" + std::to_string(k.line) + ":1: kernel " +
                             k.name + " is also defined at " + it->second.file + ":" +
                             std::to_string(it->second.line));
        if (!t.family_of.count(k.name))
          throw LocatedError(root + "/" + path + ":" + std::to_string(k.line) + ":1: kernel " +
                             k.name + " is in no family of KERNEL_FAMILIES.toml");
        t.kernels[k.name] = std::move(k);
      }
    }
    for (const auto& [kernel, fam] : t.family_of) {
      if (!t.kernels.count(kernel))
        throw LocatedError(root + "/KERNEL_FAMILIES.toml: family " + fam + " names kernel " +
                           kernel + ", which no source defines");
    }
    for (const auto& r : t.rules) {
      for (const auto& k : r.kernels)
        if (!t.kernels.count(k))
          throw LocatedError(r.location + ": rule " + r.id + " names kernel " + k +
                             ", which no source defines");
    }
    std::set<std::string> sources(t.sources.begin(), t.sources.end());
    for (const auto& [name, c] : t.classes) {
      for (const auto* list : {&c.modules, &c.remove_modules})
        for (const auto& m : *list)
          if (!sources.count(m))
            throw LocatedError(c.file + ": module \"" + m + "\" is not a .cu file of the tree");
    }
    result.tree = std::move(t);
  } catch (const LocatedError& e) {
    result.error = e.what();
  }
  return result;
}

namespace {

std::string walk(Host& host, const std::string& dir, const std::string& rel, FilesResult& r,
                 int depth) {
  if (depth > 8) return "";
  auto names = host.list(dir);
  if (!names) return dir + ": " + names.error().message;
  for (const auto& n : *names) {
    std::string path = dir + "/" + n;
    std::string inner = rel.empty() ? n : rel + "/" + n;
    // The tree is what DIR itself holds: a symbolic link, to a folder or a
    // file, inside DIR or out of it, is not followed (a link to ~ would put
    // the user's files into a --record-tree snapshot; one inside DIR would
    // define its kernels twice).
    if (host.readlink(path)) {
      r.notes.push_back(path +
                        ": a symbolic link, not followed (a kernel tree is read only "
                        "inside its own folder)");
      continue;
    }
    auto kind = host.stat(path);
    if (!kind) continue;
    if (*kind == FileKind::directory) {
      if (rel.empty() && n == "plans") continue;  // goldens live beside the tree
      auto err = walk(host, path, inner, r, depth + 1);
      if (!err.empty()) return err;
    } else if (*kind == FileKind::regular && (ends_with(n, ".toml") || ends_with(n, ".cu"))) {
      auto text = host.read(path);
      if (!text) return path + ": " + text.error().message;
      r.files[inner] = *text;
    }
  }
  return "";
}

}  // namespace

FilesResult read_tree_files(Host& host, const std::string& dir) {
  FilesResult r;
  std::string d = dir;
  while (d.size() > 1 && d.back() == '/') d.pop_back();
  r.error = walk(host, d, "", r, 0);
  if (r.error.empty() && r.files.empty()) r.error = d + ": no kernel tree here (no .toml or .cu)";
  return r;
}

}  // namespace hwaccel::kernels
