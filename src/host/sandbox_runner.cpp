#include "src/host/sandbox_runner.h"

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <spawn.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "src/host/mount_table.h"
#include "src/host/process_runner.h"
#include "src/host/sandbox_cover.h"
#include "src/host/sandbox_dev_node.h"
#include "src/host/sandbox_init.h"
#include "src/host/sandbox_namespace.h"
#include "src/host/tree_fd.h"
#include "src/host/tree_layers.h"
#include "src/vocabulary/path.h"

namespace hwaccel {
namespace {

// The UTS namespace's name when the snapshot's cannot be set (sim/run_environment.h
// picks the same one for a name it refuses).
constexpr const char* kPlaceholderHost = "hwsim-host";

// Only what the child prints before exec: plain write(2), no buffering to lose.
void say(const std::string& text) {
  std::string line = "hwsim run: " + text + "\n";
  std::size_t done = 0;
  while (done < line.size()) {
    ssize_t n = ::write(2, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

// The cached tree, read-only below a writable overlay whose upper layer is a
// tmpfs on the run's own folder. "" or why not.
std::string overlay_cached_tree(const SandboxSpec& spec, DevNodeMaker& nodes) {
  if (::mount("tmpfs", spec.overlay_scratch.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "mode=0700") !=
      0)
    return std::string("mount tmpfs: ") + std::strerror(errno);
  Fd scratch(::open(spec.overlay_scratch.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  Fd lower(::open(spec.tree.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!scratch.ok() || !lower.ok()) return std::string("open: ") + std::strerror(errno);
  if (::mkdirat(scratch.get(), "u", 0755) != 0 || ::mkdirat(scratch.get(), "w", 0700) != 0)
    return std::string("mkdir (overlay layers): ") + std::strerror(errno);
  // /dev's nodes made in the upper layer while it is a plain folder (sandbox_dev_node.h).
  if (Fd upper(::openat(scratch.get(), "u", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
      upper.ok()) {
    std::vector<std::string> paths;
    for (const auto& node : spec.dev_nodes) paths.push_back(node.path);
    make_nodes_in_upper(lower.get(), upper.get(), paths, nodes);
  }
  const std::string options = "lowerdir=" + lower.proc_path() + ",upperdir=" + scratch.proc_path() +
                              "/u,workdir=" + scratch.proc_path() + "/w";
  if (::mount("overlay", spec.tree.c_str(), "overlay", MS_NOSUID, options.c_str()) != 0)
    return std::string("overlay: ") + std::strerror(errno);
  // Each layer under an overlay of its own (its entry the lower layer, its writes
  // in this tmpfs too), on `overlay_scratch`/mN; its subtree is bound on the tree's
  // empty folder for it by `tree_binds` (layer_subtree), in the tree and in its copy
  // in the namespace's /dev/shm. Every folder the command sees is in one layer
  // only, so its link count is the written one (a folder merged from two lower
  // layers of one overlay counts 1).
  for (std::size_t i = 0; i < spec.layers.size(); ++i) {
    const auto& [at, entry] = spec.layers[i];
    const std::string n = std::to_string(i);
    Fd layer(::open(entry.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!layer.ok()) return "open the layer for " + at + ": " + std::strerror(errno);
    if (::mkdirat(scratch.get(), ("u" + n).c_str(), 0755) != 0 ||
        ::mkdirat(scratch.get(), ("w" + n).c_str(), 0700) != 0 ||
        ::mkdirat(scratch.get(), ("m" + n).c_str(), 0700) != 0)
      return std::string("mkdir (a layer's overlay): ") + std::strerror(errno);
    const std::string in_scratch = scratch.proc_path() + "/";
    const std::string layer_options = "lowerdir=" + layer.proc_path() + ",upperdir=" +
                                      in_scratch + "u" + n + ",workdir=" + in_scratch + "w" + n;
    const std::string mounted = spec.overlay_scratch + "/m" + n;
    if (::mount("overlay", mounted.c_str(), "overlay", MS_NOSUID, layer_options.c_str()) != 0)
      return "overlay (the layer for " + at + "): " + std::strerror(errno);
  }
  return "";
}

// The command's program, arguments and environment, ready for execve(2).
struct Command {
  std::vector<std::string> env_strings, args;
  std::vector<char*> envp, argv;
  std::string program;  // "" when not found on the simulated PATH (said)

  explicit Command(const SandboxSpec& spec) : args(spec.argv) {
    for (const auto& [k, v] : spec.env) env_strings.push_back(k + "=" + v);
    for (auto& e : env_strings) envp.push_back(e.data());
    envp.push_back(nullptr);
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    program = args[0];
    if (program.find('/') == std::string::npos) {
      auto path = spec.env.find("PATH");
      auto found = find_executable(
          program, path == spec.env.end() ? kDefaultSearchPath : std::string_view(path->second));
      if (!found) say(program + ": command not found on the simulated PATH");
      program = found ? *found : "";
    }
  }
  // What the command's process exits with when execve fails with `code` (said).
  int failed(int code) const {
    say(program + ": " + std::strerror(code));
    return code == ENOENT ? 127 : 126;
  }
};

// The command itself, with the simulated environment; 127/126 when it cannot start.
[[noreturn]] void exec_command(const SandboxSpec& spec) {
  Command command(spec);
  if (command.program.empty()) ::_exit(127);
  ::execve(command.program.c_str(), command.argv.data(), command.envp.data());
  ::_exit(command.failed(errno));
}

// PID 1 of the namespace starts the command and stays its init (sandbox_init.h).
// posix_spawn(3), not fork(2): a fork copies this big process's page tables and
// both sides then fault on every page either writes; posix_spawn's child shares
// them until its execve (CLONE_VM|CLONE_VFORK). The command sees the same: the
// same namespaces, descriptors, signal mask and ignored signals, the same argv
// and environment; a program that cannot start exits 127/126 as before, said the
// same way.
[[noreturn]] void spawn_command_as_init(const SandboxSpec& spec, int status_fd) {
  Command command(spec);
  look_like_init();
  int code = 0;
  if (command.program.empty()) {
    code = 127;
  } else {
    pid_t pid = -1;
    int error = ::posix_spawn(&pid, command.program.c_str(), nullptr, nullptr,
                              command.argv.data(), command.envp.data());
    if (error == 0) run_as_init(pid, status_fd);
    code = command.failed(error);
  }
  // As init reports a command that exited with `code` (run_as_init).
  const int status = code << 8;
  ssize_t ignored = ::write(status_fd, &status, sizeof status);
  (void)ignored;
  ::_exit(code);
}

[[noreturn]] void child(const SandboxSpec& spec, Entered got, int status_fd) {
  std::vector<std::string> uncovered, covered;
  char cwd_buf[4096];
  const std::string cwd = ::getcwd(cwd_buf, sizeof cwd_buf) ? cwd_buf : "/";
  std::string why = !spec.use_namespace ? "--no-namespace was given"
                    : got.cloned        ? (got.user ? write_maps(got.uid, got.gid) : "")
                                        : enter_namespace(got);
  std::vector<MountLine> before;
  if (why.empty()) before = machine_mounts();
  if (!got.cloned && status_fd >= 0) {
    ::close(status_fd);
    status_fd = -1;
  }
  if (why.empty() && got.pid && !got.cloned) {
    // The next process is PID 1 of the namespace; this one stays outside and ends as
    // the command does (sandbox_init.h).
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
      say(std::string("error: pipe: ") + std::strerror(errno));
      ::_exit(125);
    }
    pid_t init = ::fork();
    if (init < 0) {
      say(std::string("error: fork (PID 1 of the namespace): ") + std::strerror(errno));
      ::_exit(125);
    }
    if (init > 0) {
      ::close(fds[1]);
      end_as_command(init, fds[0]);
    }
    ::close(fds[0]);
    status_fd = fds[1];
  }
  if (why.empty() && ::mount("none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
    why = std::string("making / private: ") + std::strerror(errno);
  bool overlaid = false;
  // /dev's device nodes: made (mknodat) where this process may, else bound. Its
  // umask is set aside while they are made, given back before the command starts.
  DevNodeMaker nodes;
  if (why.empty() && !spec.overlay_scratch.empty()) {
    overlaid = true;
    if (auto failed = overlay_cached_tree(spec, nodes); !failed.empty()) {
      overlaid = false;
      nodes.forget_premade();
      say("the cached tree cannot be laid under an overlay here (" + failed +
          "): written anew, in memory");
      if (!spec.fresh_plan) {
        say("error: no plan to write the tree from");
        ::_exit(125);
      }
      const TreePlan fresh = spec.fresh_plan();
      if (::mount("tmpfs", spec.tree.c_str(), "tmpfs", MS_NOSUID, "mode=0700") != 0) {
        say(std::string("error: mount tmpfs on the tree: ") + std::strerror(errno));
        ::_exit(125);
      }
      if (auto bad = write_tree(fresh, spec.tree); !bad.empty()) {
        say("error: " + bad);
        ::_exit(125);
      }
    }
  } else if (spec.plan) {
    // In memory when we have a namespace: the tree of a big host is thousands of
    // files, and a disk makes each one cost. Not nodev: /dev's nodes are made in it
    // (sandbox_dev_node.h); only a process that may make nodes anyway makes them.
    if (why.empty() && ::mount("tmpfs", spec.tree.c_str(), "tmpfs", MS_NOSUID, "mode=0700") != 0)
      say(std::string("the tree goes to disk: mount tmpfs: ") + std::strerror(errno));
    if (auto failed = write_tree(*spec.plan, spec.tree); !failed.empty()) {
      say("error: " + failed);
      ::_exit(125);
    }
  }
  // The tree is walked from this descriptor only, never by path (src/host/tree_fd.h).
  Fd tree(why.empty() ? ::open(spec.tree.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                      : -1);
  if (why.empty() && !tree.ok()) why = spec.tree + ": " + std::strerror(errno);
  // The command's new root first of the mounts it sees (sandbox_mask.h: mountinfo's
  // order); where it cannot be made, apply_masks tries again and says why.
  // Its scratch is stacked on the run's own folder where the cached tree's overlay
  // took it (that folder is a tmpfs of this namespace then): no folder is made in the
  // tree's upper layer for it.
  MaskScratch scratch(tree.get(), spec.tree, overlaid ? spec.overlay_scratch : "");
  std::string root_why;
  if (why.empty()) scratch.prepare_root(root_why);
  // PID 1 and every /proc/PID are the namespace's processes; /proc/self/cgroup,
  // mountinfo and mounts follow the namespaces (a host's, not this machine's).
  bool own_proc = false;
  if (why.empty() && got.pid) {
    own_proc = ::mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) == 0;
    if (own_proc)
      covered.push_back("/proc (a procfs of the namespace's own processes)");
    else
      uncovered.push_back(
          std::string("/proc/PID, /proc/1: this machine's processes (mount proc: ") +
          std::strerror(errno) + ")");
  } else if (why.empty()) {
    uncovered.push_back(
        "/proc/PID, /proc/1, /proc/self/cgroup: this machine's (no PID or cgroup "
        "namespace here)");
  }
  if (why.empty()) {
    // First: /dev/shm is bound in (recursively) below, and the tree may live there
    // (the tree cache): the tree's own binds must already be in place to be seen.
    sandbox::cover_tree_binds(spec, tree.get(), uncovered, covered);
    MaskSpec masks = spec.masks;
    if (own_proc) masks.move_in.push_back("/proc");
    std::string bind_why;
    if (sandbox::bind_from_tree(tree.get(), "/sys", "/sys", Walk::open, bind_why)) {
      covered.push_back("/sys");
      masks.move_in.push_back("/sys");
    } else {
      uncovered.push_back("/sys: " + bind_why);
    }
    if (sandbox::cover_dev(spec, tree.get(), nodes, uncovered, covered))
      masks.move_in.push_back("/dev");
    nodes.restore_umask();
    sandbox::cover_proc(spec, tree.get(), uncovered, covered);
    sandbox::cover_tools(spec, tree.get(), uncovered, covered);
    // Never this machine's name: the host's, else a placeholder.
    if (!got.uts) {
      uncovered.push_back("hostname: no UTS namespace here: this machine's shows");
    } else if (::sethostname(spec.hostname.data(), spec.hostname.size()) != 0 ||
               spec.hostname.empty()) {
      if (!spec.hostname.empty())
        uncovered.push_back("hostname: sethostname: " + std::string(std::strerror(errno)) + ": " +
                            kPlaceholderHost + " instead");
      if (::sethostname(kPlaceholderHost, std::strlen(kPlaceholderHost)) != 0)
        uncovered.push_back("hostname: sethostname: " + std::string(std::strerror(errno)) +
                            ": this machine's shows");
    }
    for (const auto& [name, paths] : spec.hidden_tools)
      masks.hide.insert(masks.hide.end(), paths.begin(), paths.end());
    masks.new_root = true;
    masks.foreign = foreign_mounts(before, sandbox::is_dir);
    apply_masks(tree.get(), scratch, masks, cwd, uncovered, covered);
    sandbox::hide_stand_in_shims(spec, tree.get());
  } else {
    say("no private mount namespace (" + why + "); the command sees this machine's files at:");
    uncovered.push_back("/sys (the simulated one is at " + spec.tree + "/sys)");
    uncovered.push_back("/dev (the simulated one is at " + spec.tree + "/dev)");
    for (const auto& p : spec.proc_present) uncovered.push_back(p);
    for (const auto& p : spec.proc_absent) uncovered.push_back(p + " (absent in the snapshot)");
    for (const auto& p : spec.tool_paths) uncovered.push_back(p + " (tool shim)");
    if (!spec.hostname.empty()) uncovered.push_back("hostname (this machine's)");
    for (const auto& p : spec.masks.hide)
      if (sandbox::exists(p))
        uncovered.push_back(p +
                            " is not in the snapshot and exists on this machine: the command sees "
                            "this machine's");
    for (const auto& p : spec.masks.show) uncovered.push_back(p + " (the snapshot's is not shown)");
    for (const auto& [p, source] : spec.masks.bind_in)
      uncovered.push_back(p + " (" + source + " is not put there: programs load this machine's)");
  }
  for (const auto& u : uncovered) say("not covered: " + u);
  if (spec.verbose)
    for (const auto& c : covered) say("covered: " + c);

  if (status_fd >= 0) spawn_command_as_init(spec, status_fd);
  exec_command(spec);
}

pid_t g_child = -1;

void forward(int sig) {
  if (g_child > 0) ::kill(g_child, sig);
}

// PID 1s of earlier runs still in their exit when run_in_sandbox returned:
// reaped by a later run, else by whoever inherits them when this process ends.
std::vector<pid_t> g_exiting;

void reap_finished_runs() {
  std::erase_if(g_exiting, [](pid_t pid) { return ::waitpid(pid, nullptr, WNOHANG) != 0; });
}

}  // namespace

std::string layer_subtree(const std::string& overlay_scratch, std::size_t i) {
  return overlay_scratch + "/m" + std::to_string(i) + std::string(kLayerTop);
}

SandboxResult run_in_sandbox(const SandboxSpec& spec) {
  SandboxResult result;
  if (spec.argv.empty()) {
    result.error = "no command";
    return result;
  }
  // PID 1 of the namespace writes the command's wait status here (sandbox_init.h).
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    result.error = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  Entered got;
  pid_t pid = spawn(spec.use_namespace, got);
  if (pid < 0) {
    result.error = std::string("fork: ") + std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    return result;
  }
  if (pid == 0) {
    ::close(fds[0]);
    child(spec, got, fds[1]);
  }
  ::close(fds[1]);
  // Like system(3): the terminal's ^C and ^\ reach the command; we wait for it.
  // TERM and HUP sent to us are passed on, so that the cleanup after it still runs.
  g_child = pid;
  struct sigaction ignore {
  }, pass{}, old_int{}, old_quit{}, old_term{}, old_hup{};
  ignore.sa_handler = SIG_IGN;
  pass.sa_handler = forward;
  ::sigaction(SIGINT, &ignore, &old_int);
  ::sigaction(SIGQUIT, &ignore, &old_quit);
  ::sigaction(SIGTERM, &pass, &old_term);
  ::sigaction(SIGHUP, &pass, &old_hup);
  // PID 1 writes the command's status once every process of the run has ended
  // (sandbox_init.h); its own exit, the namespace's teardown, is not waited for.
  // Anything else (no PID 1 of ours, PID 1 failed) closes the pipe unwritten, and
  // the child's own status counts.
  reap_finished_runs();
  int command = 0;
  ssize_t n;
  while ((n = ::read(fds[0], &command, sizeof command)) < 0 && errno == EINTR) {
  }
  ::close(fds[0]);
  int status = 0;
  if (n == static_cast<ssize_t>(sizeof command)) {
    status = command;
    if (::waitpid(pid, nullptr, WNOHANG) == 0) g_exiting.push_back(pid);
  } else {
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGQUIT, &old_quit, nullptr);
  ::sigaction(SIGTERM, &old_term, nullptr);
  ::sigaction(SIGHUP, &old_hup, nullptr);
  g_child = -1;
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
    result.exit_code = 128 + result.signal;
  }
  return result;
}

bool private_mounts_available() {
  pid_t pid = ::fork();
  if (pid < 0) return false;
  if (pid == 0) {
    Entered got;
    ::_exit(enter_namespace(got).empty() ? 0 : 1);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace hwaccel
