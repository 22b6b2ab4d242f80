#include "cli/common/hwsim_run_command.h"

#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "cli/common/exit_codes.h"
#include "cli/common/hwsim_libraries.h"
#include "cli/common/hwsim_run_cache.h"
#include "cli/common/hwsim_run_vulkan.h"
#include "cli/common/output_format.h"
#include "sim/dev_nodes.h"
#include "sim/emulate/emulator_plan.h"
#include "sim/kernel_fill.h"
#include "sim/materialize.h"
#include "sim/mount_plan.h"
#include "sim/nvidia_software.h"
#include "sim/run_environment.h"
#include "sim/run_plan.h"
#include "sim/shim_script.h"
#include "sim/tool_spec.h"
#include "src/host/live_host.h"
#include "src/host/process_runner.h"
#include "src/host/run_plan_cache.h"
#include "src/host/sandbox_runner.h"
#include "src/host/sha256.h"
#include "src/host/snapshot_host.h"
#include "src/host/tree_writer.h"
#include "src/snapshot/limits.h"
#include "src/vocabulary/sanitizer.h"

namespace hwaccel::cli {

struct RunArgs {
  std::string host_path;
  std::string dir;                   // materialize
  std::vector<std::string> command;  // run
  bool no_namespace = false;
  bool verbose = false;
  bool keep = false;
  bool latency = false;   // shims wait each run's recorded ms
  bool no_cache = false;  // run: write the tree anew, in memory (no tree cache)
};

namespace {

std::optional<Snapshot> load(const std::string& path, std::string* text = nullptr) {
  auto loaded = load_snapshot_file(path, text != nullptr);
  if (!loaded.snapshot) {
    std::cerr << "error: " << (loaded.error ? loaded.error->to_string() : path) << "\n";
    return std::nullopt;
  }
  if (text) *text = std::move(loaded.text);
  return std::move(loaded.snapshot);
}

std::string absolute(const std::string& dir, const std::string& cwd) {
  return !dir.empty() && dir[0] == '/' ? dir : cwd + "/" + dir;
}

// Where `name` is on `search` (a PATH), in one walk of it: a copy in each of its
// absolute folders (a folder named twice, twice), and what a PATH search runs
// (find_executable: the first executable copy, else the first file), asked again
// of the folders that hold one only.
struct OnPath {
  std::optional<std::string> found;
  std::vector<std::string> absolute;
};

OnPath on_path(const std::string& name, const std::string& search) {
  OnPath out;
  std::map<std::string, std::optional<std::string>, std::less<>> seen;
  std::string holding;
  std::size_t at = 0;
  while (at <= search.size()) {
    auto colon = search.find(':', at);
    std::string dir =
        search.substr(at, colon == std::string::npos ? std::string::npos : colon - at);
    at = colon == std::string::npos ? search.size() + 1 : colon + 1;
    if (dir.empty()) continue;
    auto [it, fresh] = seen.try_emplace(dir);
    if (fresh) it->second = find_executable(name, dir);
    if (!it->second) continue;
    if (dir[0] == '/') out.absolute.push_back(*it->second);
    if (fresh) holding += (holding.empty() ? "" : ":") + dir;
  }
  if (!holding.empty()) out.found = find_executable(name, holding);
  return out;
}

// Tools the snapshot records as not found that this machine would run from the
// simulated PATH (its real folders come after the shims): they get a shim that
// answers as a missing command does, so the real one does not run. Each, with
// every copy of it in PATH's folders (SandboxSpec::hidden_tools).
std::map<std::string, std::vector<std::string>> real_tools_to_hide(
    const std::set<std::string>& missing, const std::string& path) {
  std::map<std::string, std::vector<std::string>> hide;
  for (const auto& name : missing) {
    OnPath real = on_path(name, path);
    if (real.found) {
      std::cerr << "hwsim run: " << name << " is recorded as not found; this machine has "
                << *real.found
                << ": hidden (without a namespace: a shim answers in its place, exit 127, \""
                << name << ": not found\")\n";
      hide[name] = std::move(real.absolute);
    }
  }
  return hide;
}

// This machine's files that say what kind of machine it is (a container's
// markers): the snapshot's where it records them, else hidden (sandbox_mask.h).
MaskSpec container_markers(const sim::RunPlan& plan) {
  MaskSpec masks;
  masks.show = plan.markers_shown;
  masks.hide = plan.markers_hidden;
  return masks;
}

// The snapshot's character devices in /dev. Each becomes this machine's /dev/null
// in the namespace (src/host/sandbox_mask.h): a character device that reaches no
// driver; the driver's numbers (sim/dev_nodes.h) are only said, with -v.
std::vector<DevNode> dev_nodes(const sim::RunPlan& plan, bool verbose) {
  std::vector<DevNode> nodes;
  for (const auto& d : plan.dev_nodes) {
    nodes.push_back(d.node);
    if (verbose)
      std::cerr << "hwsim run: note: " << sim::display_quote(d.node.path)
                << ": a character device 1:3 (this machine's /dev/null: it reaches no driver)"
                << (d.known ? "; the driver's would be " + std::to_string(d.node.major) + ":" +
                                  std::to_string(d.node.minor)
                            : std::string())
                << "\n";
  }
  return nodes;
}

// What a namespace cannot change, said where it differs from the host (and,
// with -v, what it never changes).
void say_limits(const sim::RunPlan& s, bool verbose) {
  if (verbose)
    std::cerr << "hwsim run: limits: the CPU's own answers (cpuid: lscpu's flags and "
                 "hypervisor vendor) are this machine's; /proc/1 is the namespace's init, "
                 "/proc/*/cgroup read \"/\" (a cgroup namespace), /proc/self/mountinfo lists "
                 "the namespace's mounts (file systems of the simulated /sys, /dev and /proc "
                 "files: overlay or tmpfs)\n";
  LiveHost live;
  const Facts& here = live.facts();
  if (!s.kernel.empty() && (here.kernel != s.kernel || here.arch != s.arch))
    std::cerr << "hwsim run: limits: uname(2) gives this machine's kernel and arch (" << here.kernel
              << " " << here.arch << "; the host's: " << sim::display_quote(s.kernel) << " "
              << sim::display_quote(s.arch)
              << "); /proc/sys/kernel/osrelease and /proc/version are the host's\n";
  if (s.cpus > 0 && here.cpus != s.cpus)
    std::cerr << "hwsim run: limits: nproc and sched_getaffinity(2) give this machine's "
              << here.cpus << " CPUs (the host's: " << s.cpus
              << "); /sys/devices/system/cpu and /proc/cpuinfo are the host's\n";
}
// Where this machine's own programs are found: its PATH's absolute folders (never
// a shim folder: a `hwsim run` inside another has one first), then the default list.
std::string own_search_path() {
  LiveHost live;
  std::string search;
  const std::string entries = sim::absolute_entries(live.env("PATH").value_or(""));
  for (std::string_view rest = entries; !rest.empty();) {
    auto colon = rest.find(':');
    std::string_view dir = rest.substr(0, colon);
    if (dir.find("/.hwsim/") == std::string_view::npos)
      search += (search.empty() ? "" : ":") + std::string(dir);
    rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
  }
  return search + (search.empty() ? "" : ":") + std::string(kDefaultSearchPath);
}

// The shims' own helpers, this machine's `cat` and `sleep` by absolute path, found
// before any shim (sim/shim_script.h); a plain name where this machine has none.
sim::ShimHelpers shim_helpers() {
  const std::string search = own_search_path();
  sim::ShimHelpers helpers;
  if (auto cat = find_executable("cat", search)) helpers.cat = *cat;
  if (auto sleep = find_executable("sleep", search)) helpers.sleep = *sleep;
  return helpers;
}

// --latency: the shims wait with this machine's `sleep` (by absolute path: the
// snapshot's PATH need not lead to it). "" and a message when there is none.
std::string latency_sleep(bool tool_times, const char* who) {
  const std::string search = own_search_path();
  auto sleep = find_executable("sleep", search);
  if (!sleep) {
    std::cerr << "error: " << who << " --latency: no `sleep` program on this machine (searched "
              << search << ")\n";
    return "";
  }
  if (!tool_times)
    std::cerr << who << ": --latency: the snapshot records no tool wall times (ms > 0): "
              << "the shims answer at once\n";
  return *sleep;
}

// The tree's tool emulator (sim/emulate/emulator_plan.h) is this very program;
// "" where no recorded tool has one, or this program cannot be found.
std::string emulator_program(bool emulated_tools) {
  if (!emulated_tools) return "";
  LiveHost live;
  auto exe = live.readlink("/proc/self/exe");
  return exe.ok() && !exe->empty() && (*exe)[0] == '/' ? *exe : "";
}

// A private folder holding the empty log the namespace's emulator appends to
// (the tree itself is a tmpfs there, gone with it); "" on failure.
std::string emulator_log_dir(std::string& error, const std::string& in) {
  std::string dir = make_private_temp_dir("hwsim-emu-", error, in);
  if (dir.empty()) return "";
  TreePlan log;
  log.entries.push_back({PlannedEntry::Kind::file, "/log", "", "", 0600});
  if (!write_tree(log, dir).empty()) {
    remove_tree(dir);
    return "";
  }
  return dir;
}

// After CMD: which answers the emulators synthesised (their log in the tree).
void say_synthesised(const std::string& log) {
  LiveHost live;
  auto text = live.read(log);
  if (!text.ok()) return;
  for (const auto& line : sim::synthesised_lines(*text))
    std::cerr << "hwsim run: synthesised: " << line << "\n";
}

// A snapshot whose tool names cannot be shims is refused before anything is written.
bool refuse_unfit(const Snapshot& s, const std::string& path) {
  std::string why = sim::check_tool_names(s);
  if (why.empty()) return true;
  std::cerr << "error: " << path << ": " << why << "\n";
  return false;
}

// What a run takes from its snapshot: the plan (sim/run_plan.h), and the
// snapshot itself only where a tree must be planned.
struct RunInputs {
  std::string path;
  std::string text;  // the snapshot's bytes (a cacheable run's)
  std::optional<Snapshot> snapshot;
  sim::RunPlan plan;
  bool plan_cached = false;

  // The snapshot the plan was made of, parsed from the same bytes; null and `why`
  // when those are not the plan's (a cached plan whose SHA-256 disagrees).
  const Snapshot* parsed(std::string& why) {
    if (snapshot) return &*snapshot;
    if (text.empty()) {  // a warm run only stamped the file: its bytes now
      auto read = read_stamped_file(path, kMaxSnapshotBytes);
      if (!read) {
        why = read.error().message;
        return nullptr;
      }
      text = std::move(read.value().text);
    }
    Snapshot s;
    if (auto error = parse_snapshot(text, path, s)) {
      why = error->to_string();
      return nullptr;
    }
    if (sha256_hex(text) != plan.snapshot_sha256) {
      why = path + ": the cached run plan is not this snapshot's (its SHA-256 differs)";
      return nullptr;
    }
    snapshot = std::move(s);
    return &*snapshot;
  }
};

// The run's plan: from the plan cache when the snapshot file is as it was when
// the plan was made (src/host/run_plan_cache.h), else made from the parsed
// snapshot (and stored). False when the snapshot cannot be run (said).
bool load_run_inputs(const std::string& path, bool cacheable, const TreeCacheDir& cache,
                     bool verbose, RunInputs& in) {
  in.path = path;
  std::optional<FileStamp> stamp;
  if (!cache.plans.empty()) {
    // Not readable here: the plain load below says why. A hit needs the file's
    // stamp only: from fstat where the entry is settled, else with its bytes hashed
    // through a small buffer, never held; a miss reads the bytes again, with the
    // stamp of the very bytes the plan is made of.
    auto stamped = stat_file_stamp(path, kMaxSnapshotBytes);
    CachedPlan found;
    if (stamped) found = find_cached_plan(cache, *stamped);
    if (found.unsettled) {
      stamped = stamp_file(path, kMaxSnapshotBytes);
      found = {};
      if (stamped) found = find_cached_plan(cache, *stamped);
    }
    if (found.hit) {
      std::string why;
      if (auto plan = sim::decode_run_plan(found.body, why)) {
        in.plan = std::move(*plan);
        in.plan_cached = true;
        if (verbose) std::cerr << "hwsim run: note: the run's plan is the cached one\n";
        return true;
      }
      drop_cached_plan(cache, *stamped);
      found = {false, "", "it does not read as a plan (" + why + "): removed", true};
    }
    Result<StampedFile> read = stamped ? read_stamped_file(path, kMaxSnapshotBytes)
                                       : Result<StampedFile>(stamped.error());
    if (read) {
      in.text = std::move(read.value().text);
      stamp = read->stamp;
      if (found.refused)
        std::cerr << "hwsim run: the cached run plan of " << path << " is refused (" << found.miss
                  << "): made anew\n";
      else if (verbose && !found.miss.empty())
        std::cerr << "hwsim run: note: the cached run plan is not used (" << found.miss
                  << "): made anew\n";
      Snapshot s;
      if (auto error = parse_snapshot(in.text, path, s)) {
        std::cerr << "error: " << error->to_string() << "\n";
        return false;
      }
      in.snapshot = std::move(s);
    }
  }
  if (!in.snapshot) {
    stamp.reset();
    in.text.clear();
    in.snapshot = load(path, cacheable ? &in.text : nullptr);
    if (!in.snapshot) return false;
  }
  if (!refuse_unfit(*in.snapshot, path)) return false;
  in.plan = sim::make_run_plan(*in.snapshot);
  if (cacheable) in.plan.snapshot_sha256 = sha256_hex(in.text);
  if (stamp) {
    if (auto why = store_cached_plan(cache, *stamp, sim::encode_run_plan(in.plan));
        !why.empty() && verbose)
      std::cerr << "hwsim run: note: the run's plan cannot be cached (" << why << ")\n";
  }
  return true;
}
}  // namespace

MaterializeCommand add_materialize_command(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  auto* cmd = app.add_subcommand("materialize",
                                 "Write a snapshot as a tree laid out like / plus tool shims");
  cmd->add_option("file", args->host_path, "The snapshot")->required();
  cmd->add_option("dir", args->dir, "Where to write it (missing or empty)")->required();
  cmd->add_flag("--latency", args->latency,
                "Shims wait each run's recorded wall time (ms) before answering");
  return {cmd, args};
}

int MaterializeCommand::run() const {
  auto snapshot = load(args->host_path);
  if (!snapshot) return kExitBadInput;
  if (!refuse_unfit(*snapshot, args->host_path)) return kExitBadInput;
  std::string error;
  std::string cwd = current_directory(error);
  if (cwd.empty()) {
    std::cerr << "error: " << error << "\n";
    return kExitCannotWrite;
  }
  std::string root = absolute(args->dir, cwd);
  std::string sleep;
  if (args->latency && (sleep = latency_sleep(sim::recorded_tool_times(*snapshot), "hwsim materialize")).empty())
    return kExitUsage;
  TreePlan plan = sim::plan_materialize(*snapshot, root, {}, sleep, shim_helpers());
  sim::plan_emulator(plan, emulator_program(sim::has_emulated_tools(*snapshot)), true);
  for (auto& entry : plan.entries)
    if (entry.path == std::string(sim::kMetaDir) + "/env.sh")
      entry.bytes += libraries_env_sh(*snapshot, root);
  if (auto why = write_tree(plan, root); !why.empty()) {
    std::cerr << "error: " << why << "\n";
    return kExitCannotWrite;
  }
  for (const auto& left : plan.warnings) std::cerr << "note: left out: " << left << "\n";
  for (const auto& note : plan.notes) std::cerr << "note: " << note << "\n";
  if (auto note = sim::not_passed_note(sim::device_view(*snapshot)); !note.empty())
    std::cerr << "note: env: " << note << "\n";
  std::cerr << "materialized " << args->host_path << " -> " << root << ": " << plan.entries.size()
            << " entries; shims in " << root << sim::kShimDir << ", environment in " << root
            << sim::kMetaDir << "/env.sh\n";
  return kExitOk;
}

RunCommand add_run_command(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  auto* cmd = app.add_subcommand(
      "run", "Run CMD on a snapshot's host: its tools, environment, /sys, /dev and /proc files");
  cmd->add_option("file", args->host_path, "The snapshot")->required();
  cmd->add_option("command", args->command, "-- CMD [ARGS...]")->required();
  cmd->add_flag("--no-namespace", args->no_namespace,
                "Do not mount anything (only shims and environment); says what is not covered");
  cmd->add_flag("-v,--verbose", args->verbose, "Also say what was covered");
  cmd->add_flag("--keep", args->keep, "Keep the materialized tree and print where it is");
  cmd->add_flag("--latency", args->latency,
                "Shims wait each run's recorded wall time (ms) before answering, so CMD "
                "sees the recorded host's tool latencies (default: at once)");
  cmd->add_flag("--no-cache", args->no_cache,
                "Write the tree anew, in memory, instead of mounting it from the tree cache "
                "($XDG_CACHE_HOME/hwsim/trees)");
  return {cmd, args};
}

int RunCommand::run() const {
  // A namespace run mounts its tree from the cache (written there once,
  // hwsim_run_cache.h), and finds the run's plan in the plan cache beside it
  // (src/host/run_plan_cache.h); kept and namespace-less trees are written here,
  // on disk; the others by the command's process in its namespace, to a tmpfs.
  // Its lines held and written together, before the command starts and at the end.
  HeldStderr held;
  const bool cacheable = !args->keep && !args->no_namespace && !args->no_cache;
  TreeCacheDir cache;
  if (cacheable && !program_build_id().empty()) cache = open_run_tree_cache();
  auto inputs = std::make_unique<RunInputs>();
  RunInputs& in = *inputs;
  if (!load_run_inputs(args->host_path, cacheable, cache, args->verbose, in)) return kExitBadInput;
  const sim::RunPlan& run_plan = in.plan;
  std::string sleep;
  if (args->latency && (sleep = latency_sleep(run_plan.tool_times, "hwsim run")).empty())
    return kExitUsage;
  std::string error;
  // The run's scratch folders (the overlay's upper layer, the emulator's log) in
  // the cache's private folder when there is one: in memory where the cache is
  // (a /tmp on a busy disk made each mkdir and rmdir cost milliseconds).
  const std::string scratch =
      cache.path.empty() ? "" : cache.path.substr(0, cache.path.rfind('/'));
  std::string root = make_private_temp_dir("hwsim-run-", error, scratch);
  if (root.empty()) {
    std::cerr << "error: " << error << "\n";
    return kExitCannotWrite;
  }
  // CMD's environment is this machine's plus the snapshot's device view
  // (sim/run_environment.h); its PATH, less the shims, is where real tools are found.
  LiveHost live;
  const auto here = live.environment();
  const auto real_path = sim::run_environment(run_plan.device_view, here, "").at("PATH");
  const auto hidden_tools = real_tools_to_hide(run_plan.tools_missing, real_path);
  std::set<std::string> hide;
  for (const auto& [name, copies] : hidden_tools) hide.insert(name);
  const sim::ShimHelpers helpers = shim_helpers();
  // The emulator: in a tree on disk a link to this program; in the namespace a
  // placeholder this program is bound over, its log bound from outside.
  const std::string emulator = emulator_program(run_plan.emulated_tools);
  // The parsed snapshot, for a tree to plan (not needed on a warm run).
  auto snapshot = [&in, &error]() { return in.parsed(error); };
  RunTree cached;
  const std::string key =
      cacheable ? run_tree_key(run_plan.snapshot_sha256, hide, sleep, helpers) : "";
  if (!key.empty())
    cached = cached_run_tree(cache, key, snapshot, hide, sleep, helpers, !emulator.empty(),
                             args->verbose);
  if (cached.root.empty() && !snapshot()) {
    std::cerr << "error: " << error << "\n";
    remove_tree(root);
    return kExitBadInput;
  }
  TreePlan plan;
  if (cached.root.empty()) plan = sim::plan_materialize(*snapshot(), root, hide, sleep, helpers);
  const bool write_here =
      cached.root.empty() && (args->keep || args->no_namespace || !plan.error.empty());
  if (cached.root.empty()) sim::plan_emulator(plan, emulator, write_here);
  std::string log_dir;
  if (!write_here && !emulator.empty()) log_dir = emulator_log_dir(error, scratch);
  if (auto why = write_here ? write_tree(plan, root) : ""; !why.empty()) {
    std::cerr << "error: " << why << "\n";
    remove_tree(root);
    return kExitCannotWrite;
  }
  const auto& warnings = cached.root.empty() ? plan.warnings : cached.warnings;
  const auto& notes = cached.root.empty() ? plan.notes : cached.notes;
  for (const auto& left : warnings) std::cerr << "hwsim run: left out: " << left << "\n";
  if (args->verbose)
    for (const auto& note : notes) std::cerr << "hwsim run: note: " << note << "\n";
  const sim::MountPlan& mounts = run_plan.mounts;
  SandboxSpec spec;
  spec.tree = cached.root.empty() ? root : cached.root;
  if (!cached.root.empty()) {
    spec.overlay_scratch = root;
    spec.layers = cached.layers;
    for (std::size_t i = 0; i < cached.layers.size(); ++i)
      spec.tree_binds.push_back({layer_subtree(root, i), cached.layers[i].first});
    spec.fresh_plan = [&in, &cached, &hide, &sleep, &helpers, &emulator] {
      std::string why;
      const Snapshot* parsed = in.parsed(why);
      if (!parsed) {
        TreePlan none;
        none.error = why;  // written as nothing: the run says it and stops
        return none;
      }
      TreePlan fresh = sim::plan_materialize(*parsed, cached.root, hide, sleep, helpers);
      sim::plan_emulator(fresh, emulator, false);
      return fresh;
    };
  } else if (!write_here) {
    spec.plan = &plan;
  }
  spec.argv = args->command;
  std::vector<std::string> env_notes;
  // The refused values are among the plan's warnings, said above.
  spec.env =
      sim::run_environment(run_plan.device_view, here, spec.tree + sim::kShimDir, nullptr, &env_notes);
  for (const auto& note : env_notes) std::cerr << "hwsim run: note: env: " << note << "\n";
  spec.env["HWSIM_ROOT"] = spec.tree;
  // The simulated libnvidia-ml's nvmlInit then takes the recorded host's start-up too.
  spec.env.erase("HWSIM_LATENCY");
  if (args->latency) spec.env["HWSIM_LATENCY"] = "1";
  std::string hostname_note;
  spec.hostname = sim::run_hostname(run_plan.hostname, &hostname_note);
  if (!hostname_note.empty()) std::cerr << "hwsim run: note: " << hostname_note << "\n";
  spec.proc_present = mounts.proc_present;
  spec.proc_absent = mounts.proc_absent;
  spec.tool_paths = mounts.tool_paths;
  spec.shim_paths = sim::kShimPathsDir;
  spec.use_namespace = !args->no_namespace;
  spec.verbose = args->verbose;
  for (const auto& skipped : mounts.proc_skipped)
    std::cerr << "hwsim run: not covered: " << skipped << "\n";
  for (const auto& [path, why] : mounts.tools_refused)
    std::cerr << "hwsim run: not covered: " << sim::display_quote(path)
              << " (tool shim, not presented): " << why
              << ": a snapshot adds to this machine's programs, never replaces one\n";
  for (const auto& path : mounts.not_presented)
    std::cerr << "hwsim run: not presented: " << sim::display_quote(path)
              << " (recorded outside /sys, /proc and /dev: the command sees this machine's)\n";
  spec.masks = container_markers(run_plan);
  if (run_plan.nvidia_present) {
    simulate_nvml(spec.masks, spec.use_namespace, args->verbose);
    simulate_cuda(spec.masks, spec.use_namespace, args->verbose);
  } else {
    hide_nvidia_libraries(spec.masks, spec.use_namespace, args->verbose, run_plan.nvidia_why);
  }
  simulate_vulkan(run_plan.vulkan_driver, run_plan.tools_missing.contains("vulkaninfo"), spec,
                  real_path, args->verbose);
  spec.dev_nodes = dev_nodes(run_plan, args->verbose);
  spec.hidden_tools = hidden_tools;
  if (!args->no_namespace) say_limits(run_plan, args->verbose);

  if (!log_dir.empty()) {
    spec.tree_binds.push_back({emulator, sim::kEmulatorFile});
    spec.tree_binds.push_back({log_dir + "/log", sim::kSynthesisedLog});
  }

  held.flush();  // before anything the command or its namespace's PID 1 says
  SandboxResult result = run_in_sandbox(spec);
  if (!emulator.empty())
    say_synthesised(log_dir.empty() ? root + sim::kSynthesisedLog : log_dir + "/log");
  if (!log_dir.empty()) remove_tree(log_dir);
  if (args->keep)
    std::cerr << "hwsim run: the materialized host is kept at " << root << "\n";
  else if (auto why = remove_tree(root); !why.empty())
    std::cerr << "warning: " << why << "\n";
  // The parsed snapshot and a plan written here: the exit frees them (sanitizer.h).
  free_at_exit(std::move(inputs));
  free_at_exit(std::make_unique<TreePlan>(std::move(plan)));
  if (!result.error.empty()) {
    std::cerr << "error: " << result.error << "\n";
    return kExitInternal;
  }
  return result.exit_code;
}

}  // namespace hwaccel::cli
