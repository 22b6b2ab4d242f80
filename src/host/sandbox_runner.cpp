#include "src/host/sandbox_runner.h"

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
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

#include "src/host/mount_table.h"
#include "src/host/path.h"
#include "src/host/process_runner.h"
#include "src/host/sandbox_init.h"
#include "src/host/sandbox_namespace.h"
#include "src/host/tree_fd.h"

namespace hwaccel {
namespace {

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

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

bool is_dir(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// Binds the tree's `rel` (reached without following any link in the tree) over
// the real `target`.
bool bind_from_tree(int tree, const std::string& rel, const std::string& target, Walk walk,
                    std::string& why) {
  Fd from = open_in_tree(tree, rel, walk, why);
  if (!from.ok()) return false;
  if (::mount(from.proc_path().c_str(), target.c_str(), nullptr, MS_BIND | MS_REC, nullptr) == 0)
    return true;
  why = "mount --bind (the tree's " + rel + ") " + target + ": " + std::strerror(errno);
  return false;
}

// This machine's `real` bound onto the tree's `rel` (a placeholder made for it,
// reached without following any link in the tree).
bool bind_into_tree(int tree, const std::string& real, const std::string& rel, Walk walk,
                    std::string& why) {
  Fd onto = open_in_tree(tree, rel, walk, why);
  if (!onto.ok()) return false;
  if (::mount(real.c_str(), onto.proc_path().c_str(), nullptr, MS_BIND | MS_REC, nullptr) == 0)
    return true;
  why = "mount --bind " + real + " (onto the tree's " + rel + "): " + std::strerror(errno);
  return false;
}

// The tree at its own path below the namespace's /dev/shm (HWSIM_ROOT and the
// shims name it), with the files bound into it: the tree alone, not what is
// mounted in it (its /dev/shm would hold it again).
void tree_in_own_shm(const SandboxSpec& spec, int tree, std::vector<std::string>& uncovered) {
  std::string why;
  Fd at = open_in_tree(tree, spec.tree, Walk::make_dirs, why);
  Fd self(::openat(tree, ".", O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!at.ok() ||
      ::mount(self.proc_path().c_str(), at.proc_path().c_str(), nullptr, MS_BIND, nullptr) != 0) {
    uncovered.push_back(spec.tree +
                        " (the tree, in /dev/shm): " + (at.ok() ? std::strerror(errno) : why));
    return;
  }
  Fd copy = open_in_tree(tree, spec.tree, Walk::open, why);
  for (const auto& [from, rel] : spec.tree_binds) {
    Fd to = copy.ok() ? open_in_tree(copy.get(), rel, Walk::open, why) : Fd();
    if (!to.ok() || ::mount(from.c_str(), to.proc_path().c_str(), nullptr, MS_BIND, nullptr) != 0)
      uncovered.push_back(spec.tree + rel +
                          " (in /dev/shm): " + (to.ok() ? std::strerror(errno) : why));
  }
}

// /dev of the simulated host, plus what any program needs to run at all.
void cover_dev(const SandboxSpec& spec, int tree, std::vector<std::string>& uncovered,
               std::vector<std::string>& covered) {
  make_dev_nodes(tree, spec.dev_nodes, uncovered, covered);
  std::string why;
  Fd dev = open_in_tree(tree, "/dev", Walk::make_dirs, why);
  if (!dev.ok()) {
    uncovered.push_back("/dev: " + why);
    return;
  }
  struct stat st {};
  for (const char* name : {"null", "zero", "full", "random", "urandom", "tty"}) {
    std::string real = std::string("/dev/") + name;
    if (!exists(real)) continue;
    // Whatever the snapshot put there (a link included) gives way to a plain file.
    ::unlinkat(dev.get(), name, 0);
    int fd = ::openat(dev.get(), name, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) ::close(fd);
    if (!bind_into_tree(tree, real, real, Walk::open, why))
      uncovered.push_back(real + " (basic device): " + why);
  }
  // A /dev/shm of its own, as a host's is (this machine's holds other programs'
  // files, and the tree cache); a tree cached there is put at its path in it.
  Fd shm = open_in_tree(tree, "/dev/shm", Walk::make_dirs, why);
  if (!shm.ok() ||
      ::mount("tmpfs", shm.proc_path().c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777") != 0)
    uncovered.push_back("/dev/shm: " + (shm.ok() ? std::string(std::strerror(errno)) : why));
  else if (spec.tree.compare(0, 9, "/dev/shm/") == 0)
    tree_in_own_shm(spec, tree, uncovered);
  for (const char* name : {"pts", "mqueue"}) {
    std::string real = std::string("/dev/") + name;
    if (!is_dir(real)) continue;
    if (::fstatat(dev.get(), name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(st.st_mode))
      ::unlinkat(dev.get(), name, 0);
    if (!bind_into_tree(tree, real, real, Walk::make_dirs, why))
      uncovered.push_back(real + " (basic device): " + why);
  }
  for (auto [name, target] :
       {std::pair{"fd", "/proc/self/fd"}, std::pair{"stdin", "/proc/self/fd/0"},
        std::pair{"stdout", "/proc/self/fd/1"}, std::pair{"stderr", "/proc/self/fd/2"},
        std::pair{"ptmx", "pts/ptmx"}}) {
    if (::fstatat(dev.get(), name, &st, AT_SYMLINK_NOFOLLOW) != 0)
      ::symlinkat(target, dev.get(), name);
  }
  if (bind_from_tree(tree, "/dev", "/dev", Walk::open, why))
    covered.push_back("/dev");
  else
    uncovered.push_back("/dev: " + why);
}

bool under_any(const std::string& path, const std::vector<std::string>& dirs) {
  for (const auto& d : dirs)
    if (path == d ||
        (path.size() > d.size() && path.compare(0, d.size(), d) == 0 && path[d.size()] == '/'))
      return true;
  return false;
}

// The recorded /proc paths: each present one bound over the real one; where the
// real one is missing (procfs holds no new files) its nearest folder below /proc
// is replaced by the tree's; where an absent one exists here, the same. Nothing
// in the tree is reached through a link (a snapshot's `/proc/sys: {link: ...}`).
void cover_proc(const SandboxSpec& spec, int tree, std::vector<std::string>& uncovered,
                std::vector<std::string>& covered) {
  std::vector<std::string> replaced;  // folders below /proc now the tree's
  auto replace_folder = [&](const std::string& dir, const std::string& for_path) {
    if (under_any(dir, replaced)) return;
    if (dir == "/proc") {
      uncovered.push_back(for_path + ": procfs cannot be given or hide entries directly in /proc");
      return;
    }
    std::string why;
    if (bind_from_tree(tree, dir, dir, Walk::make_dirs, why)) {
      replaced.push_back(dir);
      covered.push_back(dir + " (the whole folder, for " + for_path + ")");
    } else {
      uncovered.push_back(for_path + ": " + why);
    }
  };
  std::vector<std::string> present = spec.proc_present;
  std::sort(present.begin(), present.end(), [](const std::string& a, const std::string& b) {
    return std::count(a.begin(), a.end(), '/') < std::count(b.begin(), b.end(), '/') ||
           (std::count(a.begin(), a.end(), '/') == std::count(b.begin(), b.end(), '/') && a < b);
  });
  for (const auto& path : spec.proc_absent) {
    if (under_any(path, replaced) || !exists(path)) continue;
    replace_folder(parent_dir(path), path + " (absent in the snapshot)");
  }
  std::vector<std::string> bound;
  for (const auto& path : present) {
    if (under_any(path, replaced) || under_any(path, bound)) continue;
    if (exists(path)) {
      std::string why;
      if (bind_from_tree(tree, path, path, Walk::open, why)) {
        bound.push_back(path);
        covered.push_back(path);
      } else {
        uncovered.push_back(path + ": " + why);
      }
      continue;
    }
    // The highest missing component decides which folder is replaced.
    std::string probe = "/proc";
    for (const auto& part : path_components(path)) {
      if (part == "proc" && probe == "/proc") continue;
      std::string next = probe + "/" + part;
      if (!exists(next)) break;
      probe = next;
    }
    replace_folder(probe, path);
  }
}

// Whether a shim may be bound over this machine's `path`: an executable regular
// file (what runs it gets the shim; nothing reads one as its settings), not in /etc,
// and not the shell the shims themselves run.
std::string why_not_bind_over(const std::string& path) {
  struct stat st {
  }, shell{};
  if (::stat(path.c_str(), &st) != 0) return std::string("stat: ") + std::strerror(errno);
  if (!S_ISREG(st.st_mode) || (st.st_mode & 0111) == 0)
    return "this machine's is not an executable file (a shim is bound only over one)";
  if (under_any(path, {"/etc"})) return "a shim is never put in /etc";
  if (::stat("/bin/sh", &shell) == 0 && shell.st_dev == st.st_dev && shell.st_ino == st.st_ino)
    return "this machine's is the shell the shims run (/bin/sh)";
  return "";
}

// Folders a missing tool path may be created in with an overlay: vendor trees.
// Laying even a shim into a system folder (/etc, /usr, /lib) changes what every
// program there reads, so those tools are not presented.
bool may_overlay(const std::string& dir) {
  return under_any(dir, {"/opt"}) && dir.find_first_of(",:\\") == std::string::npos;
}

// Tools run by absolute path (their shims only, from the tree's .hwsim/paths, which
// holds nothing of the snapshot's files): bound over the real file where that is
// safe; where there is none and the nearest real folder is below /opt, that
// folder gets the shims laid over it with a read-only overlay (its real entries
// stay visible beside them). Anything else is not presented, and said so.
void cover_tools(const SandboxSpec& spec, int tree, std::vector<std::string>& uncovered,
                 std::vector<std::string>& covered) {
  std::vector<std::string> overlaid;
  for (const auto& path : spec.tool_paths) {
    if (under_any(path, overlaid)) continue;
    const std::string shim = spec.shim_paths + path;
    std::string why;
    if (exists(path)) {
      why = why_not_bind_over(path);
      if (why.empty() && bind_from_tree(tree, shim, path, Walk::open, why))
        covered.push_back(path + " (tool shim)");
      else
        uncovered.push_back(path + " (tool shim, not presented): " + why);
      continue;
    }
    std::string dir = parent_dir(path);
    while (dir != "/" && !is_dir(dir)) dir = parent_dir(dir);
    if (!may_overlay(dir)) {
      uncovered.push_back(path + " (tool shim, not presented): no such file here, and " +
                          (dir == "/" ? std::string("/") : dir) +
                          " is not below /opt (only folders there get a shim laid in)");
      continue;
    }
    Fd layer = open_in_tree(tree, spec.shim_paths + dir, Walk::open, why);
    if (!layer.ok()) {
      uncovered.push_back(path + " (tool shim, not presented): " + why);
      continue;
    }
    std::string options = "lowerdir=" + layer.proc_path() + ":" + dir;
    if (::mount("overlay", dir.c_str(), "overlay", MS_RDONLY, options.c_str()) == 0) {
      overlaid.push_back(dir);
      covered.push_back(path + " (tool shim, " + dir + " overlaid)");
    } else {
      uncovered.push_back(path + " (tool shim): overlay on " + dir + ": " + std::strerror(errno));
    }
  }
}

// A tool recorded as not found whose every real copy is now hidden needs no
// stand-in shim: without it a PATH search fails with ENOENT, as on the host.
// spec.tree_binds: each file of this machine over its placeholder in the tree.
void bind_into_tree(const SandboxSpec& spec, int tree, std::vector<std::string>& uncovered,
                    std::vector<std::string>& covered) {
  for (const auto& [from, rel] : spec.tree_binds) {
    std::string why;
    Fd to = open_in_tree(tree, rel, Walk::open, why);
    if (to.ok() && ::mount(from.c_str(), to.proc_path().c_str(), nullptr, MS_BIND, nullptr) != 0)
      why = "mount --bind " + from + ": " + std::strerror(errno);
    if (why.empty())
      covered.push_back(rel + " (" + from + ")");
    else
      uncovered.push_back(rel + ": " + why);
  }
}

void hide_stand_in_shims(const SandboxSpec& spec, int tree) {
  std::string why;
  Fd bin = open_in_tree(tree, spec.shim_dir, Walk::open, why);
  if (!bin.ok()) return;
  for (const auto& [name, paths] : spec.hidden_tools) {
    if (std::any_of(paths.begin(), paths.end(), [](const std::string& p) { return exists(p); }))
      continue;
    ::unlinkat(bin.get(), name.c_str(), 0);
  }
}

// The cached tree, read-only below a writable overlay whose upper layer is a
// tmpfs on the run's own folder. "" or why not.
std::string overlay_cached_tree(const SandboxSpec& spec) {
  if (::mount("tmpfs", spec.overlay_scratch.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "mode=0700") !=
      0)
    return std::string("mount tmpfs: ") + std::strerror(errno);
  Fd scratch(::open(spec.overlay_scratch.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  Fd lower(::open(spec.tree.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!scratch.ok() || !lower.ok()) return std::string("open: ") + std::strerror(errno);
  if (::mkdirat(scratch.get(), "u", 0755) != 0 || ::mkdirat(scratch.get(), "w", 0700) != 0)
    return std::string("mkdir (overlay layers): ") + std::strerror(errno);
  const std::string options = "lowerdir=" + lower.proc_path() + ",upperdir=" + scratch.proc_path() +
                              "/u,workdir=" + scratch.proc_path() + "/w";
  if (::mount("overlay", spec.tree.c_str(), "overlay", MS_NOSUID, options.c_str()) != 0)
    return std::string("overlay: ") + std::strerror(errno);
  return "";
}

// The command itself, with the simulated environment; 127/126 when it cannot start.
[[noreturn]] void exec_command(const SandboxSpec& spec) {
  std::vector<std::string> env_strings;
  for (const auto& [k, v] : spec.env) env_strings.push_back(k + "=" + v);
  std::vector<char*> envp, argv;
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = spec.argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::string program = args[0];
  if (program.find('/') == std::string::npos) {
    auto path = spec.env.find("PATH");
    auto found = find_executable(
        program, path == spec.env.end() ? kDefaultSearchPath : std::string_view(path->second));
    if (!found) {
      say(program + ": command not found on the simulated PATH");
      ::_exit(127);
    }
    program = *found;
  }
  ::execve(program.c_str(), argv.data(), envp.data());
  int code = errno;
  say(program + ": " + std::strerror(code));
  ::_exit(code == ENOENT ? 127 : 126);
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
  // PID 1 and every /proc/PID are the namespace's processes; /proc/self/cgroup,
  // mountinfo and mounts follow the namespaces (a host's, not this machine's).
  if (why.empty() && got.pid) {
    if (::mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) == 0)
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
  if (why.empty() && !spec.overlay_scratch.empty()) {
    if (auto failed = overlay_cached_tree(spec); !failed.empty()) {
      say("the cached tree cannot be laid under an overlay here (" + failed +
          "): written anew, in memory");
      if (!spec.fresh_plan) {
        say("error: no plan to write the tree from");
        ::_exit(125);
      }
      const TreePlan fresh = spec.fresh_plan();
      if (::mount("tmpfs", spec.tree.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "mode=0700") != 0) {
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
    // files, and a disk makes each one cost.
    if (why.empty() &&
        ::mount("tmpfs", spec.tree.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "mode=0700") != 0)
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
  if (why.empty()) {
    // First: /dev/shm is bound in (recursively) below, and the tree may live there
    // (the tree cache): the tree's own binds must already be in place to be seen.
    bind_into_tree(spec, tree.get(), uncovered, covered);
    std::string bind_why;
    if (bind_from_tree(tree.get(), "/sys", "/sys", Walk::open, bind_why))
      covered.push_back("/sys");
    else
      uncovered.push_back("/sys: " + bind_why);
    cover_dev(spec, tree.get(), uncovered, covered);
    cover_proc(spec, tree.get(), uncovered, covered);
    cover_tools(spec, tree.get(), uncovered, covered);
    if (got.uts && !spec.hostname.empty() &&
        ::sethostname(spec.hostname.data(), spec.hostname.size()) != 0)
      uncovered.push_back("hostname: sethostname: " + std::string(std::strerror(errno)));
    MaskSpec masks = spec.masks;
    for (const auto& [name, paths] : spec.hidden_tools)
      masks.hide.insert(masks.hide.end(), paths.begin(), paths.end());
    masks.new_root = true;
    masks.foreign = foreign_mounts(before, is_dir);
    apply_masks(tree.get(), spec.tree, masks, cwd, uncovered, covered);
    hide_stand_in_shims(spec, tree.get());
  } else {
    say("no private mount namespace (" + why + "); the command sees this machine's files at:");
    uncovered.push_back("/sys (the simulated one is at " + spec.tree + "/sys)");
    uncovered.push_back("/dev (the simulated one is at " + spec.tree + "/dev)");
    for (const auto& p : spec.proc_present) uncovered.push_back(p);
    for (const auto& p : spec.proc_absent) uncovered.push_back(p + " (absent in the snapshot)");
    for (const auto& p : spec.tool_paths) uncovered.push_back(p + " (tool shim)");
    if (!spec.hostname.empty()) uncovered.push_back("hostname (this machine's)");
    for (const auto& p : spec.masks.hide)
      if (exists(p))
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

  if (status_fd >= 0) {
    pid_t command = ::fork();
    if (command < 0) {
      say(std::string("error: fork: ") + std::strerror(errno));
      ::_exit(125);
    }
    if (command > 0) run_as_init(command, status_fd);
  }
  exec_command(spec);
}

pid_t g_child = -1;

void forward(int sig) {
  if (g_child > 0) ::kill(g_child, sig);
}

}  // namespace

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
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGQUIT, &old_quit, nullptr);
  ::sigaction(SIGTERM, &old_term, nullptr);
  ::sigaction(SIGHUP, &old_hup, nullptr);
  g_child = -1;
  int command = 0;
  ssize_t n;
  while ((n = ::read(fds[0], &command, sizeof command)) < 0 && errno == EINTR) {
  }
  ::close(fds[0]);
  if (n == static_cast<ssize_t>(sizeof command)) status = command;  // PID 1 passed it on
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
