#include "sim/materialize.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <memory_resource>
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

// Paths copied once into large blocks: views of them, and of their parents, stay
// valid however the plan's vector of entries grows (a moved short string would not).
class PlanPathArena {
 public:
  std::string_view keep(std::string_view path) {
    if (blocks_.empty() || used_ + path.size() > size_) {
      size_ = std::max(kBlock, path.size());
      blocks_.push_back(std::make_unique<char[]>(size_));
      used_ = 0;
    }
    char* at = blocks_.back().get() + used_;
    if (!path.empty()) std::memcpy(at, path.data(), path.size());
    used_ += path.size();
    return {at, path.size()};
  }

 private:
  static constexpr std::size_t kBlock = std::size_t{1} << 16;
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::size_t used_ = 0, size_ = 0;
};

class Planner {
 public:
  Planner(const Snapshot& s, TreePlan& plan, const std::set<std::string>& shim_missing,
          const std::string& sleep_program, const ShimHelpers& helpers)
      : s_(s), plan_(plan), shim_missing_(shim_missing), sleep_(sleep_program), helpers_(helpers) {
    // Each path planned and each folder above one has a slot: a DGX's 16,000 entries.
    index_.reserve(s_.files.size() + s_.files.size() / 4 + 64);
    plan_.entries.reserve(s_.files.size() + 64);
  }

  void dir(const std::string& path) { put({PlannedEntry::Kind::dir, path, "", "", 0755}); }

  void files() {
    // In path order a link comes before every path below it, so links_ holds each
    // link above a path by the time the path is resolved.
    std::vector<const std::map<std::string, FileEntry>::value_type*> listings;
    for (const auto& item : s_.files) {
      const auto& [path, entry] = item;
      if (entry.kind == FileEntry::Kind::link) links_.insert(path);
      if (entry.kind == FileEntry::Kind::dir) listings.push_back(&item);
      std::string real = resolve(path);
      if (real.empty()) {
        special(path, "not materialized: the links above it loop");
        continue;
      }
      if (real == "/" || is_below(real, kMetaDir) || real == kMetaDir) {
        special(path, "not materialized: the path is reserved");
        continue;
      }
      add(path, std::move(real), entry);
    }
    // A listing's names with nothing recorded at or below them: empty placeholders.
    for (const auto* item : listings) {
      const auto& [path, entry] = *item;
      std::string real = resolve(path);
      if (real.empty()) continue;
      for (const auto& name : entry.names) {
        std::string child = join_path(real, name);
        if (taken(child)) continue;
        special(child, "placeholder: listed in its folder, contents never recorded");
        put({PlannedEntry::Kind::file, std::move(child), "", "", 0644});
      }
    }
  }

  // What the snapshot implies but does not hold (sim/kernel_fill.h): listed in
  // `special` (merged in path order when it is written, not copied here). Notes
  // made after this one replace a filled path's, as the fill's replace earlier ones.
  void filled(const FilledPaths& paths) { filled_ = &paths; }

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
             PlannedBytes::lent(tool.run.out), "", 0644});
      if (!tool.run.err.empty())
        put({PlannedEntry::Kind::file, std::string(kMetaDir) + "/tools/" + data_id + ".err",
             PlannedBytes::lent(tool.run.err), "", 0644});
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
      put({PlannedEntry::Kind::file, std::string(kShimPathsDir) + path, std::move(script), "",
           mode});
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
    put({PlannedEntry::Kind::file, std::string(kMetaDir) + "/special", special_text(), "", 0644});
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
  // snapshot's thousands of files against its few hundred links). The last folder
  // found with no link at or above it is remembered: in path order most files
  // share their folder with the one before.
  std::string resolve(const std::string& path) {
    const bool plain = !path.empty() && path[0] == '/' && path.back() != '/' &&
                       path.find("//") == std::string::npos;
    if (!plain) return resolve_through_links(s_, path);
    const std::string_view folder = std::string_view(path).substr(0, path.rfind('/'));
    if (clear_valid_ && folder == clear_folder_) return path;
    for (auto slash = path.find('/', 1); slash != std::string::npos;
         slash = path.find('/', slash + 1))
      if (links_.count(std::string_view(path).substr(0, slash)))
        return resolve_through_links(s_, path);
    clear_folder_.assign(folder);
    clear_valid_ = true;
    return path;
  }

  // A planned path or a folder above one: the entry planned there (kNone: none),
  // and whether entries are planned below it.
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  struct Slot {
    std::size_t entry = kNone;
    bool below = false;
  };

  bool taken(std::string_view real) const {
    auto it = index_.find(real);
    return it != index_.end() && (it->second.entry != kNone || it->second.below);
  }

  void put(PlannedEntry e) {
    const std::string_view whole = arena_.keep(e.path);
    // A file where a folder is needed (or the reverse) cannot be both: first one wins.
    // The walk up stops at a folder that already has entries below it: none above
    // it (nor it) can be planned as anything but a folder, or those were refused.
    parents_.clear();
    // In path order most entries share their folder with the one before: known to
    // hold planned entries, so nothing above it needs a look.
    const auto last_slash = whole.rfind('/');
    const bool same_folder = last_slash != std::string_view::npos && last_folder_ &&
                             whole.substr(0, last_slash) == last_folder_->first;
    for (auto slash = same_folder ? std::string_view::npos : last_slash;
         slash != std::string_view::npos && slash > 0; slash = whole.rfind('/', slash - 1)) {
      const std::string_view p = whole.substr(0, slash);
      Slot& slot = index_.try_emplace(p).first->second;
      if (slot.below) break;
      if (slot.entry != kNone && plan_.entries[slot.entry].kind != PlannedEntry::Kind::dir) {
        plan_.notes.push_back(display_quote(e.path) + ": not materialized: " +
                              display_quote(std::string(p)) + " is not a folder");
        return;
      }
      parents_.push_back(&slot);
    }
    Slot& self = index_.try_emplace(whole).first->second;
    if (self.entry != kNone) {
      PlannedEntry& old = plan_.entries[self.entry];
      if (old.kind == PlannedEntry::Kind::dir && e.kind == PlannedEntry::Kind::dir) return;
      plan_.notes.push_back(display_quote(e.path) +
                            ": recorded twice (through a link); the first is kept");
      return;
    }
    if (e.kind != PlannedEntry::Kind::dir && self.below) {
      plan_.notes.push_back(display_quote(e.path) +
                            ": not materialized: files are recorded below it");
      return;
    }
    self.entry = plan_.entries.size();
    for (Slot* parent : parents_) parent->below = true;
    if (last_slash != std::string_view::npos && last_slash > 0 && !same_folder)
      last_folder_ = &*index_.find(whole.substr(0, last_slash));
    plan_.entries.push_back(std::move(e));
  }

  void special(const std::string& path, std::string what) {
    (filled_ ? late_special_ : special_)[path] = std::move(what);
  }

  // PATH<TAB>what lines in path order: a note made after the fill over the fill's,
  // the fill's over one made before it.
  std::string special_text() const {
    static const FilledPaths kNothing;
    const FilledPaths& filled = filled_ ? *filled_ : kNothing;
    std::string text;
    text.reserve(filled.size() * 96);
    auto line = [&text](const std::string& path, std::string_view what1, std::string_view what2) {
      // Two memchr, not find_first_of's test of each byte against the set.
      if (path.find('\t') == std::string::npos && path.find('\n') == std::string::npos)
        text += path;
      else
        text += display_quote(path);
      text += '\t';
      text += what1;
      text += what2;
      text += '\n';
    };
    auto early = special_.begin(), fill = filled.begin(), late = late_special_.begin();
    while (early != special_.end() || fill != filled.end() || late != late_special_.end()) {
      // The least path of the three; each of them that holds it moves on.
      const std::string* least = nullptr;
      for (const std::string* p : {early != special_.end() ? &early->first : nullptr,
                                   fill != filled.end() ? &fill->first : nullptr,
                                   late != late_special_.end() ? &late->first : nullptr})
        if (p && (!least || *p < *least)) least = p;
      const std::string& path = *least;
      const bool in_early = early != special_.end() && early->first == path;
      const bool in_fill = fill != filled.end() && fill->first == path;
      const bool in_late = late != late_special_.end() && late->first == path;
      if (in_late)
        line(path, late->second, "");
      else if (in_fill)
        line(path, "filled: derived from ", fill->second);
      else
        line(path, early->second, "");
      if (in_early) ++early;
      if (in_fill) ++fill;
      if (in_late) ++late;
    }
    return text;
  }

  void add(const std::string& path, std::string real, const FileEntry& entry) {
    switch (entry.kind) {
      case FileEntry::Kind::content:
        put({PlannedEntry::Kind::file, std::move(real), PlannedBytes::lent(entry.bytes), "", 0644});
        break;
      case FileEntry::Kind::link:
        // Laid only when it leads nowhere but into the tree (sim/tree_links.h).
        if (auto why = link_leaves_view(s_, real, entry.target); !why.empty()) {
          plan_.warnings.push_back(display_quote(path) + ": a link that " + why +
                                   ": not laid (never followed)");
          special(path, "a link out of the tree: not laid");
          break;
        }
        put({PlannedEntry::Kind::link, std::move(real), "", entry.target, 0777});
        break;
      case FileEntry::Kind::dir:
        put({PlannedEntry::Kind::dir, std::move(real), "", "", 0755});
        break;
      case FileEntry::Kind::absent:
        special(path, "absent (not created)");
        break;
      case FileEntry::Kind::node:
        put({PlannedEntry::Kind::file, std::move(real), "", "", 0600});
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
  // Every planned path and every folder above one, by hash, its key in arena_.
  PlanPathArena arena_;
  // Its nodes from one pool, handed back at once with it.
  std::pmr::monotonic_buffer_resource index_pool_;
  std::pmr::unordered_map<std::string_view, Slot> index_{&index_pool_};
  std::vector<Slot*> parents_;  // put()'s folders to mark (the nodes do not move)
  // The folder of the last entry planned (it holds planned entries), null at first.
  const std::pair<const std::string_view, Slot>* last_folder_ = nullptr;
  std::unordered_set<std::string_view> links_;  // the snapshot's links' paths
  std::string clear_folder_;                    // resolve(): no link at or above it
  bool clear_valid_ = false;
  const FilledPaths* filled_ = nullptr;
  std::map<std::string, std::string> special_;       // made before the fill was given
  std::map<std::string, std::string> late_special_;  // made after
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
  // The filled snapshot stays with the plan: the entries' bytes are lent from it.
  auto host = std::make_shared<Snapshot>(snapshot);
  auto filled = std::make_shared<const FilledPaths>(fill_implied(*host));
  plan.keep.push_back(host);
  // The list `special` is made from: freed with the plan, not here (a command that
  // holds the plan until it exits leaves both to the exit, cli/common/hwsim_run_cache).
  plan.keep.push_back(filled);
  Planner planner(*host, plan, shim_missing, sleep_program, helpers);
  // The three trees `hwsim run` mounts exist even when the snapshot has nothing there.
  for (const char* top : {"/sys", "/proc", "/dev"}) planner.dir(top);
  planner.files();
  planner.filled(*filled);
  planner.shims(root);
  plan.entries.push_back(
      {PlannedEntry::Kind::file, kSnapshotCopy, write_snapshot(snapshot), "", 0644});
  return plan;
}

}  // namespace hwaccel::sim
