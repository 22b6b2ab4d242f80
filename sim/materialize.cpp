#include "sim/materialize.h"

#include <cerrno>
#include <iterator>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "sim/emulate/emulator_plan.h"
#include "sim/emulate/tool_emulator.h"
#include "sim/kernel_fill.h"
#include "sim/run_environment.h"
#include "sim/shim_script.h"
#include "sim/tool_spec.h"
#include "sim/tree_links.h"
#include "src/host/process_runner.h"
#include "src/snapshot/snapshot_codec.h"
#include "src/vocabulary/path.h"

namespace hwaccel::sim {
namespace {

// Letters, digits and ,.:_+@%=- (what no shell treats specially).
bool env_file_safe(const std::string& value) {
  for (char c : value)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
          std::string_view(",.:_+@%=-").find(c) != std::string_view::npos))
      return false;
  return true;
}

bool is_below(const std::string& path, const std::string& dir) {
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
         (dir == "/" || path[dir.size()] == '/');
}

class Planner {
 public:
  Planner(const Snapshot& s, TreePlan& plan, const std::set<std::string>& shim_missing,
          const std::string& sleep_program, const ShimHelpers& helpers)
      : s_(s), plan_(plan), shim_missing_(shim_missing), sleep_(sleep_program), helpers_(helpers) {
    for (const auto& [path, entry] : s_.files)
      if (entry.kind == FileEntry::Kind::link) links_.insert(path);
  }

  void dir(const std::string& path) { put({PlannedEntry::Kind::dir, path, "", "", 0755}); }

  void files() {
    for (const auto& [path, entry] : s_.files) {
      std::string real = resolve(path);
      if (real.empty()) {
        special(path, "not materialized: the links above it loop");
        continue;
      }
      if (real == "/" || is_below(real, kMetaDir) || real == kMetaDir) {
        special(path, "not materialized: the path is reserved");
        continue;
      }
      add(path, real, entry);
    }
    // A listing's names with nothing recorded at or below them: empty placeholders.
    for (const auto& [path, entry] : s_.files) {
      if (entry.kind != FileEntry::Kind::dir) continue;
      std::string real = resolve(path);
      if (real.empty()) continue;
      for (const auto& name : entry.names) {
        std::string child = join_path(real, name);
        if (taken(child)) continue;
        put({PlannedEntry::Kind::file, child, "", "", 0644});
        special(child, "placeholder: listed in its folder, contents never recorded");
      }
    }
  }

  // What the snapshot implies but does not hold (sim/kernel_fill.h): listed.
  void filled(const FilledPaths& paths) {
    // In path order: each lands next to the last (a hinted insert, no search).
    auto hint = special_.begin();
    for (const auto& [path, from] : paths)
      hint = std::next(special_.insert_or_assign(hint, path, "filled: derived from " + from));
  }

  void shims(const std::string& root) {
    std::map<std::string, std::vector<ShimRun>> by_name, by_path;
    int id = 0;
    for (const auto& [argv, tool] : s_.tools) {
      if (!shim_answerable(argv)) {
        plan_.warnings.push_back("no shim answers `" + display_join(argv) +
                                 "`: a word holds a NUL byte, which no program can pass");
        continue;
      }
      std::string data_id = std::to_string(id++);
      if (!tool.run.out.empty())
        put({PlannedEntry::Kind::file, std::string(kMetaDir) + "/tools/" + data_id + ".out",
             tool.run.out, "", 0644});
      if (!tool.run.err.empty())
        put({PlannedEntry::Kind::file, std::string(kMetaDir) + "/tools/" + data_id + ".err",
             tool.run.err, "", 0644});
      // Run by absolute path (/opt/qti-aic/tools/qaic-util): the shim sits at that
      // path in the tree, and `hwsim run` puts it in place (check_tool_names vetted it).
      if (argv[0][0] == '/')
        by_path[*normalize_absolute(argv[0])].push_back({&tool, data_id});
      else
        by_name[argv[0]].push_back({&tool, data_id});
    }
    put({PlannedEntry::Kind::dir, kShimDir, "", "", 0755});
    // Always there: a shim finds the data and the emulator through it ("$data"/../emu).
    put({PlannedEntry::Kind::dir, std::string(kMetaDir) + "/tools", "", "", 0755});
    for (const auto& [path, runs] : by_path) {
      unsigned mode = shim_mode(runs);
      if (mode == 0) continue;
      std::string script = shim_script(path, runs, root + kMetaDir + "/tools", sleep_, false,
                                       find_tool_emulator(path) != nullptr, helpers_);
      put({PlannedEntry::Kind::file, path, script, "", mode});
      // The copy `hwsim run` mounts: a folder that holds shims and nothing from the
      // snapshot's files, whatever the snapshot records at the same path.
      put({PlannedEntry::Kind::file, std::string(kShimPathsDir) + path, script, "", mode});
      special(path, "tool shim (run by absolute path)");
    }
    for (const auto& [name, runs] : by_name) {
      unsigned mode = shim_mode(runs);
      if (mode == 0 && shim_missing_.count(name)) {
        mode = 0755;
        special(std::string(kShimDir) + "/" + name,
                "shim for a tool recorded as not found that this machine has (exit 127)");
      }
      if (mode == 0) continue;
      put({PlannedEntry::Kind::file, std::string(kShimDir) + "/" + name,
           shim_script(name, runs, "../tools", sleep_, is_system_utility(name),
                       find_tool_emulator(name) != nullptr, helpers_),
           "", mode});
    }
    for (const auto& name : unrecorded_emulated_tools(s_)) {
      if (by_name.count(name)) continue;
      put({PlannedEntry::Kind::file, std::string(kShimDir) + "/" + name,
           shim_script(name, {}, "../tools", sleep_, false, true, helpers_), "", 0755});
      special(std::string(kShimDir) + "/" + name,
              "tool shim: never recorded; every argv answered from the device model");
    }
    // Of the snapshot's environment only the device view (sim/run_environment.h).
    const DeviceView view = device_view(s_);
    for (const auto& why : view.refused) plan_.warnings.push_back(why);
    if (auto note = not_passed_note(view); !note.empty()) plan_.notes.push_back("env: " + note);
    std::string env_lines;
    for (const auto& [k, v] : view.passed) {
      // A NAME=VALUE file is sourced by shells too (`set -a; . env`): only values
      // that mean the same unquoted go there.
      if (!env_file_safe(v)) {
        plan_.notes.push_back("env " + k + ": not in " + std::string(kMetaDir + 1) +
                              "/env (its value holds a shell character; env.sh has it)");
        continue;
      }
      env_lines += k + "=" + v + "\n";
    }
    put({PlannedEntry::Kind::file, std::string(kMetaDir) + "/env", env_lines, "", 0644});
    put({PlannedEntry::Kind::file, std::string(kMetaDir) + "/env.sh", env_sh(view, root + kShimDir),
         "", 0644});
    std::string special_text;
    for (const auto& [path, what] : special_) {
      if (path.find_first_of("\t\n") == std::string::npos)
        special_text += path;
      else
        special_text += display_quote(path);
      special_text += '\t';
      special_text += what;
      special_text += '\n';
    }
    put({PlannedEntry::Kind::file, std::string(kMetaDir) + "/special", special_text, "", 0644});
  }

 private:
  // 0: recorded as missing every time, no shim (a PATH search or exec fails as it
  // did); 0644: recorded as not executable, a shim without the x bit (EACCES).
  static unsigned shim_mode(const std::vector<ShimRun>& runs) {
    bool all_not_found = true, all_denied = true;
    for (const auto& r : runs) {
      all_not_found = all_not_found && r.tool->run.outcome == ToolOutcome::not_found;
      all_denied = all_denied && r.tool->run.outcome == ToolOutcome::permission_denied;
    }
    return all_not_found ? 0u : all_denied ? 0644u : 0755u;
  }

  // resolve_through_links, at once for a path with no recorded link above it (a
  // snapshot's thousands of files against its few hundred links).
  std::string resolve(const std::string& path) const {
    const bool plain = !path.empty() && path[0] == '/' && path.back() != '/' &&
                       path.find("//") == std::string::npos;
    if (!plain) return resolve_through_links(s_, path);
    for (auto slash = path.find('/', 1); slash != std::string::npos;
         slash = path.find('/', slash + 1))
      if (links_.count(std::string_view(path).substr(0, slash)))
        return resolve_through_links(s_, path);
    return path;
  }

  // The entry planned at `path`, null when none.
  const std::size_t* planned(std::string_view path) const {
    auto it = index_.find(path);
    return it == index_.end() ? nullptr : &it->second;
  }

  bool taken(const std::string& real) const {
    if (planned(real)) return true;
    auto it = by_path_.upper_bound(real);
    return it != by_path_.end() && is_below(it->first, real);
  }

  void put(PlannedEntry e) {
    // A file where a folder is needed (or the reverse) cannot be both: first one wins.
    const std::string_view whole = e.path;
    for (auto slash = whole.rfind('/'); slash != std::string_view::npos && slash > 0;
         slash = whole.rfind('/', slash - 1)) {
      const std::string_view p = whole.substr(0, slash);
      const std::size_t* at = planned(p);
      if (at && plan_.entries[*at].kind != PlannedEntry::Kind::dir) {
        plan_.notes.push_back(display_quote(e.path) + ": not materialized: " +
                              display_quote(std::string(p)) + " is not a folder");
        return;
      }
    }
    if (const std::size_t* at = planned(e.path)) {
      PlannedEntry& old = plan_.entries[*at];
      if (old.kind == PlannedEntry::Kind::dir && e.kind == PlannedEntry::Kind::dir) return;
      plan_.notes.push_back(display_quote(e.path) +
                            ": recorded twice (through a link); the first is kept");
      return;
    }
    if (e.kind != PlannedEntry::Kind::dir && taken(e.path)) {
      plan_.notes.push_back(display_quote(e.path) +
                            ": not materialized: files are recorded below it");
      return;
    }
    auto made = by_path_.emplace(e.path, plan_.entries.size()).first;
    index_.emplace(made->first, made->second);
    plan_.entries.push_back(std::move(e));
  }

  void special(const std::string& path, std::string what) { special_[path] = std::move(what); }

  void add(const std::string& path, const std::string& real, const FileEntry& entry) {
    switch (entry.kind) {
      case FileEntry::Kind::content:
        put({PlannedEntry::Kind::file, real, entry.bytes, "", 0644});
        break;
      case FileEntry::Kind::link:
        // Laid only when it leads nowhere but into the tree (sim/tree_links.h).
        if (auto why = link_leaves_view(s_, real, entry.target); !why.empty()) {
          plan_.warnings.push_back(display_quote(path) + ": a link that " + why +
                                   ": not laid (never followed)");
          special(path, "a link out of the tree: not laid");
          break;
        }
        put({PlannedEntry::Kind::link, real, "", entry.target, 0777});
        break;
      case FileEntry::Kind::dir:
        put({PlannedEntry::Kind::dir, real, "", "", 0755});
        break;
      case FileEntry::Kind::absent:
        special(path, "absent (not created)");
        break;
      case FileEntry::Kind::node:
        put({PlannedEntry::Kind::file, real, "", "", 0600});
        special(path, std::string(to_string(entry.node_type)) +
                          " node: an empty plain file here (reads give no bytes, not EIO)");
        break;
      case FileEntry::Kind::error:
        error_entry(path, real, entry.error_code);
        break;
    }
  }

  void error_entry(const std::string& path, const std::string& real, int code) {
    std::string name = errno_name(code);
    if (code == ENOENT) {
      special(path, "error ENOENT (not created)");
    } else if (code == ELOOP) {
      // A link to itself: every open of it fails with ELOOP, as recorded.
      std::string base = path_components(real).back();
      put({PlannedEntry::Kind::link, real, "", base, 0777});
      special(path, "error ELOOP: a link to itself");
    } else if (code == EISDIR) {
      put({PlannedEntry::Kind::dir, real, "", "", 0755});
      special(path, "error EISDIR: an empty folder");
    } else {
      // Unreadable for anyone but root: EACCES for an unprivileged reader.
      put({PlannedEntry::Kind::file, real, "", "", 0000});
      special(path, "error " + name + ": an empty file with mode 0000 (root still reads it)");
    }
  }

  const Snapshot& s_;
  TreePlan& plan_;
  const std::set<std::string>& shim_missing_;
  const std::string& sleep_;
  const ShimHelpers& helpers_;
  std::map<std::string, std::size_t> by_path_;  // real path -> index in plan_.entries
  // The same by hash (its keys are by_path_'s): the exact look-ups, a few a
  // component for each of a DGX's 16,000 entries, without comparing long paths.
  std::unordered_map<std::string_view, std::size_t> index_;
  std::unordered_set<std::string_view> links_;  // the snapshot's links' paths
  std::map<std::string, std::string> special_;
};

}  // namespace

std::string resolve_through_links(const Snapshot& snapshot, const std::string& path) {
  std::string current = path;
  for (int hops = 0; hops <= 40; ++hops) {
    auto parts = path_components(current);
    std::string prefix = "/";
    bool moved = false;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
      prefix = join_path(prefix, parts[i]);
      auto it = snapshot.files.find(prefix);
      if (it == snapshot.files.end() || it->second.kind != FileEntry::Kind::link) continue;
      const std::string& target = it->second.target;
      std::string base = target.empty() || target[0] != '/' ? parent_dir(prefix) + "/" : "";
      std::string rest;
      for (std::size_t j = i + 1; j < parts.size(); ++j) rest += "/" + parts[j];
      auto next = normalize_absolute(base + target + rest);
      if (!next) return "";
      current = *next;
      moved = true;
      break;
    }
    if (!moved) return current;
  }
  return "";
}

std::string check_tool_names(const Snapshot& snapshot) {
  for (const auto& [argv, tool] : snapshot.tools) {
    if (argv.empty()) return "tools: an entry with an empty argv";
    if (!shim_answerable(argv)) continue;  // no shim: a warning of the plan
    const std::string& name = argv[0];
    std::string where = "tools: the run of `" + display_join(argv) + "`: argv[0] (" +
                        (name.empty() ? std::string("\"\"") : display_quote(name)) + ") is ";
    if (!name.empty() && name[0] == '/') {
      auto normal = normalize_absolute(name);
      if (!normal || has_dotdot(name) || *normal == "/")
        return where + "not a plain absolute path (no \"..\" component, not \"/\")";
      if (*normal == kMetaDir || is_below(*normal, kMetaDir))
        return where + "reserved for hwsim's own files (" + kMetaDir + ")";
    } else if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos) {
      return where +
             "not a tool name (a name run from PATH is not \"\", \".\" or \"..\" and holds no "
             "\"/\"; a path must be absolute)";
    }
  }
  return "";
}

bool is_variable_name(std::string_view key) {
  if (key.empty() || (key[0] >= '0' && key[0] <= '9')) return false;
  for (char c : key)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
      return false;
  return true;
}

std::set<std::string> tools_recorded_missing(const Snapshot& snapshot) {
  std::map<std::string, bool> all_missing;
  for (const auto& [argv, tool] : snapshot.tools) {
    if (argv.empty() || argv[0].find('/') != std::string::npos) continue;
    auto it = all_missing.try_emplace(argv[0], true).first;
    it->second = it->second && tool.run.outcome == ToolOutcome::not_found;
  }
  std::set<std::string> names;
  for (const auto& [name, missing] : all_missing)
    if (missing) names.insert(name);
  return names;
}

TreePlan plan_materialize(const Snapshot& snapshot, const std::string& root,
                          const std::set<std::string>& shim_missing,
                          const std::string& sleep_program, const ShimHelpers& helpers) {
  TreePlan plan;
  // Nothing is planned for a snapshot that cannot be materialized (plan.error).
  plan.error = check_tool_names(snapshot);
  if (!plan.error.empty()) return plan;
  FilledPaths filled;
  const Snapshot host = with_implied(snapshot, &filled);
  Planner planner(host, plan, shim_missing, sleep_program, helpers);
  // The three trees `hwsim run` mounts exist even when the snapshot has nothing there.
  for (const char* top : {"/sys", "/proc", "/dev"}) planner.dir(top);
  planner.files();
  planner.filled(filled);
  planner.shims(root);
  plan.entries.push_back(
      {PlannedEntry::Kind::file, kSnapshotCopy, write_snapshot(snapshot), "", 0644});
  return plan;
}

}  // namespace hwaccel::sim
