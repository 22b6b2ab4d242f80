#include "cli/common/hwsim_run_command.h"

#include <iostream>
#include <map>
#include <optional>
#include <set>

#include "cli/common/exit_codes.h"
#include "cli/common/hwsim_libraries.h"
#include "cli/common/hwsim_run_cache.h"
#include "cli/common/hwsim_run_vulkan.h"
#include "sim/dev_nodes.h"
#include "sim/emulate/emulator_plan.h"
#include "sim/kernel_fill.h"
#include "sim/materialize.h"
#include "sim/mount_plan.h"
#include "sim/nvidia_software.h"
#include "sim/run_environment.h"
#include "sim/shim_script.h"
#include "sim/tool_spec.h"
#include "src/host/live_host.h"
#include "src/host/process_runner.h"
#include "src/host/sandbox_runner.h"
#include "src/host/snapshot_host.h"
#include "src/host/tree_writer.h"

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

// Tools the snapshot records as not found that this machine would run from the
// simulated PATH (its real folders come after the shims): they get a shim that
// answers as a missing command does, so the real one does not run.
std::set<std::string> real_tools_to_hide(const Snapshot& s, const std::string& path) {
  std::set<std::string> hide;
  for (const auto& name : sim::tools_recorded_missing(s)) {
    if (auto real = find_executable(name, path)) {
      std::cerr << "hwsim run: " << name << " is recorded as not found; this machine has " << *real
                << ": hidden (without a namespace: a shim answers in its place, exit 127, \""
                << name << ": not found\")\n";
      hide.insert(name);
    }
  }
  return hide;
}

// This machine's files that say what kind of machine it is (a container's
// markers): the snapshot's where it records them, else hidden (sandbox_mask.h).
MaskSpec container_markers(const Snapshot& s) {
  MaskSpec masks;
  for (const char* path :
       {"/.dockerenv", "/run/.containerenv", "/run/systemd/container",
        "/run/host/container-manager", "/var/run/secrets/kubernetes.io/serviceaccount"}) {
    auto it = s.files.find(path);
    bool present = it != s.files.end() && (it->second.kind == FileEntry::Kind::content ||
                                           it->second.kind == FileEntry::Kind::dir);
    (present ? masks.show : masks.hide).push_back(path);
  }
  return masks;
}

// Each folder of `search` (a PATH) that holds an executable `name`.
std::vector<std::string> all_on_path(const std::string& name, const std::string& search) {
  std::vector<std::string> found;
  std::size_t at = 0;
  while (at <= search.size()) {
    auto colon = search.find(':', at);
    std::string dir =
        search.substr(at, colon == std::string::npos ? std::string::npos : colon - at);
    if (!dir.empty() && dir[0] == '/')
      if (auto real = find_executable(name, dir)) found.push_back(*real);
    if (colon == std::string::npos) break;
    at = colon + 1;
  }
  return found;
}

// The snapshot's character devices in /dev. Each becomes this machine's /dev/null
// in the namespace (src/host/sandbox_mask.h): a character device that reaches no
// driver; the driver's numbers (sim/dev_nodes.h) are only said, with -v.
std::vector<DevNode> dev_nodes(const Snapshot& s, bool verbose) {
  std::vector<DevNode> nodes;
  for (auto it = s.files.lower_bound("/dev/"); it != s.files.end(); ++it) {
    if (it->first.compare(0, 5, "/dev/") != 0) break;
    if (it->second.kind != FileEntry::Kind::node || it->second.node_type != FileKind::char_device)
      continue;
    std::string real = sim::resolve_through_links(s, it->first);
    if (real.compare(0, 5, "/dev/") != 0) continue;
    auto n = sim::device_number(real);
    nodes.push_back({real, n ? n->major : 0, n ? n->minor : 0, n ? n->mode : 0666});
    if (verbose)
      std::cerr << "hwsim run: note: " << sim::display_quote(real)
                << ": a character device 1:3 (this machine's /dev/null: it reaches no driver)"
                << (n ? "; the driver's would be " + std::to_string(n->major) + ":" +
                            std::to_string(n->minor)
                      : std::string())
                << "\n";
  }
  return nodes;
}

// What a namespace cannot change, said where it differs from the host (and,
// with -v, what it never changes).
void say_limits(const Snapshot& s, bool verbose) {
  if (verbose)
    std::cerr << "hwsim run: limits: the CPU's own answers (cpuid: lscpu's flags and "
                 "hypervisor vendor) are this machine's; /proc/1 is the namespace's init, "
                 "/proc/*/cgroup read \"/\" (a cgroup namespace), /proc/self/mountinfo lists "
                 "the namespace's mounts (file systems of the simulated /sys, /dev and /proc "
                 "files: overlay or tmpfs)\n";
  LiveHost live;
  const Facts& here = live.facts();
  if (!s.facts.kernel.empty() && (here.kernel != s.facts.kernel || here.arch != s.facts.arch))
    std::cerr << "hwsim run: limits: uname(2) gives this machine's kernel and arch (" << here.kernel
              << " " << here.arch << "; the host's: " << sim::display_quote(s.facts.kernel) << " "
              << sim::display_quote(s.facts.arch)
              << "); /proc/sys/kernel/osrelease and /proc/version are the host's\n";
  if (s.facts.cpus > 0 && here.cpus != s.facts.cpus)
    std::cerr << "hwsim run: limits: nproc and sched_getaffinity(2) give this machine's "
              << here.cpus << " CPUs (the host's: " << s.facts.cpus
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
std::string latency_sleep(const Snapshot& s, const char* who) {
  const std::string search = own_search_path();
  auto sleep = find_executable("sleep", search);
  if (!sleep) {
    std::cerr << "error: " << who << " --latency: no `sleep` program on this machine (searched "
              << search << ")\n";
    return "";
  }
  bool any = false;
  for (const auto& [argv, tool] : s.tools) any = any || tool.run.ms > 0;
  if (!any)
    std::cerr << who << ": --latency: the snapshot records no tool wall times (ms > 0): "
              << "the shims answer at once\n";
  return *sleep;
}

// The tree's tool emulator (sim/emulate/emulator_plan.h) is this very program;
// "" where no recorded tool has one, or this program cannot be found.
std::string emulator_program(const Snapshot& s) {
  if (!sim::has_emulated_tools(s)) return "";
  LiveHost live;
  auto exe = live.readlink("/proc/self/exe");
  return exe.ok() && !exe->empty() && (*exe)[0] == '/' ? *exe : "";
}

// A private folder holding the empty log the namespace's emulator appends to
// (the tree itself is a tmpfs there, gone with it); "" on failure.
std::string emulator_log_dir(std::string& error) {
  std::string dir = make_private_temp_dir("hwsim-emu-", error);
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
  if (args->latency && (sleep = latency_sleep(*snapshot, "hwsim materialize")).empty())
    return kExitUsage;
  TreePlan plan = sim::plan_materialize(*snapshot, root, {}, sleep, shim_helpers());
  sim::plan_emulator(plan, emulator_program(*snapshot), true);
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
  std::string text;
  auto snapshot = load(args->host_path, &text);
  if (!snapshot) return kExitBadInput;
  if (!refuse_unfit(*snapshot, args->host_path)) return kExitBadInput;
  std::string sleep;
  if (args->latency && (sleep = latency_sleep(*snapshot, "hwsim run")).empty()) return kExitUsage;
  std::string error;
  std::string root = make_private_temp_dir("hwsim-run-", error);
  if (root.empty()) {
    std::cerr << "error: " << error << "\n";
    return kExitCannotWrite;
  }
  // CMD's environment is this machine's plus the snapshot's device view
  // (sim/run_environment.h); its PATH, less the shims, is where real tools are found.
  LiveHost live;
  const auto here = live.environment();
  const auto real_path = sim::run_environment(*snapshot, here, "").at("PATH");
  const auto hide = real_tools_to_hide(*snapshot, real_path);
  const sim::ShimHelpers helpers = shim_helpers();
  // The emulator: in a tree on disk a link to this program; in the namespace a
  // placeholder this program is bound over, its log bound from outside.
  const std::string emulator = emulator_program(*snapshot);
  // A namespace run mounts its tree from the cache (written there once,
  // hwsim_run_cache.h); kept and namespace-less trees are written here, on disk;
  // the others by the command's process in its namespace, to a tmpfs.
  RunTree cached;
  const bool cacheable = !args->keep && !args->no_namespace && !args->no_cache;
  const std::string key = cacheable ? run_tree_key(text, hide, sleep, helpers) : "";
  if (!key.empty())
    cached =
        cached_run_tree(key, *snapshot, hide, sleep, helpers, !emulator.empty(), args->verbose);
  TreePlan plan;
  if (cached.root.empty()) plan = sim::plan_materialize(*snapshot, root, hide, sleep, helpers);
  const bool write_here =
      cached.root.empty() && (args->keep || args->no_namespace || !plan.error.empty());
  if (cached.root.empty()) sim::plan_emulator(plan, emulator, write_here);
  std::string log_dir;
  if (!write_here && !emulator.empty()) log_dir = emulator_log_dir(error);
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
  sim::MountPlan mounts = sim::plan_mounts(sim::with_implied_proc(*snapshot));
  SandboxSpec spec;
  spec.tree = cached.root.empty() ? root : cached.root;
  if (!cached.root.empty()) {
    spec.overlay_scratch = root;
    spec.fresh_plan = [&snapshot, &cached, &hide, &sleep, &helpers, &emulator] {
      TreePlan fresh = sim::plan_materialize(*snapshot, cached.root, hide, sleep, helpers);
      sim::plan_emulator(fresh, emulator, false);
      return fresh;
    };
  } else if (!write_here) {
    spec.plan = &plan;
  }
  spec.argv = args->command;
  std::vector<std::string> env_notes;
  // The refused values are among the plan's warnings, said above.
  spec.env = sim::run_environment(*snapshot, here, spec.tree + sim::kShimDir, nullptr, &env_notes);
  for (const auto& note : env_notes) std::cerr << "hwsim run: note: env: " << note << "\n";
  spec.env["HWSIM_ROOT"] = spec.tree;
  // The simulated libnvidia-ml's nvmlInit then takes the recorded host's start-up too.
  spec.env.erase("HWSIM_LATENCY");
  if (args->latency) spec.env["HWSIM_LATENCY"] = "1";
  std::string hostname_note;
  spec.hostname = sim::run_hostname(snapshot->facts.hostname, &hostname_note);
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
  spec.masks = container_markers(*snapshot);
  if (auto nvidia = sim::nvidia_software(*snapshot); nvidia.present) {
    simulate_nvml(spec.masks, spec.use_namespace, args->verbose);
    simulate_cuda(spec.masks, spec.use_namespace, args->verbose);
  } else {
    hide_nvidia_libraries(spec.masks, spec.use_namespace, args->verbose, nvidia.why);
  }
  simulate_vulkan(*snapshot, spec, real_path, args->verbose);
  spec.dev_nodes = dev_nodes(*snapshot, args->verbose);
  for (const auto& name : hide) spec.hidden_tools[name] = all_on_path(name, real_path);
  if (!args->no_namespace) say_limits(*snapshot, args->verbose);

  if (!log_dir.empty()) {
    spec.tree_binds.push_back({emulator, sim::kEmulatorFile});
    spec.tree_binds.push_back({log_dir + "/log", sim::kSynthesisedLog});
  }

  SandboxResult result = run_in_sandbox(spec);
  if (!emulator.empty())
    say_synthesised(log_dir.empty() ? root + sim::kSynthesisedLog : log_dir + "/log");
  if (!log_dir.empty()) remove_tree(log_dir);
  if (args->keep)
    std::cerr << "hwsim run: the materialized host is kept at " << root << "\n";
  else if (auto why = remove_tree(root); !why.empty())
    std::cerr << "warning: " << why << "\n";
  if (!result.error.empty()) {
    std::cerr << "error: " << result.error << "\n";
    return kExitInternal;
  }
  return result.exit_code;
}

}  // namespace hwaccel::cli
