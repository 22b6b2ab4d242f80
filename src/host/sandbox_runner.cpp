#include "src/host/sandbox_runner.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <string>

#include "src/host/path.h"
#include "src/host/process_runner.h"

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

bool write_proc(const char* path, const std::string& text) {
  int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  return ok;
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

bool is_dir(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool bind(const std::string& from, const std::string& to, std::string& why) {
  if (::mount(from.c_str(), to.c_str(), nullptr, MS_BIND | MS_REC, nullptr) == 0) return true;
  why = std::string("mount --bind ") + from + " " + to + ": " + std::strerror(errno);
  return false;
}

// A private mount (and UTS) namespace for this process: as root directly, else
// through a user namespace that maps our own uid and gid. Returns "" or why not.
std::string enter_namespace(bool& uts) {
  uts = true;
  if (::unshare(CLONE_NEWNS | CLONE_NEWUTS) == 0) return "";
  std::string first = std::string("unshare(CLONE_NEWNS): ") + std::strerror(errno);
  uid_t uid = ::geteuid();
  gid_t gid = ::getegid();
  if (::unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWUTS) != 0)
    return first + "; unshare(CLONE_NEWUSER|CLONE_NEWNS): " + std::strerror(errno);
  write_proc("/proc/self/setgroups", "deny");
  if (!write_proc("/proc/self/uid_map", std::to_string(uid) + " " + std::to_string(uid) + " 1\n") ||
      !write_proc("/proc/self/gid_map", std::to_string(gid) + " " + std::to_string(gid) + " 1\n"))
    return first + "; user namespace: cannot write its uid/gid map: " + std::strerror(errno);
  return "";
}

// /dev of the simulated host, plus what any program needs to run at all.
void cover_dev(const std::string& tree, std::vector<std::string>& uncovered,
               std::vector<std::string>& covered) {
  const std::string dev = tree + "/dev";
  for (const char* name : {"null", "zero", "full", "random", "urandom", "tty"}) {
    std::string real = std::string("/dev/") + name;
    if (!exists(real)) continue;
    std::string spot = dev + "/" + name;
    ::unlink(spot.c_str());
    int fd = ::open(spot.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0666);
    if (fd >= 0) ::close(fd);
    std::string why;
    if (!bind(real, spot, why)) uncovered.push_back(real + " (basic device): " + why);
  }
  for (const char* name : {"pts", "shm", "mqueue"}) {
    std::string real = std::string("/dev/") + name;
    if (!is_dir(real)) continue;
    std::string spot = dev + "/" + name;
    ::mkdir(spot.c_str(), 0755);
    std::string why;
    if (!bind(real, spot, why)) uncovered.push_back(real + " (basic device): " + why);
  }
  for (auto [name, target] :
       {std::pair{"fd", "/proc/self/fd"}, std::pair{"stdin", "/proc/self/fd/0"},
        std::pair{"stdout", "/proc/self/fd/1"}, std::pair{"stderr", "/proc/self/fd/2"},
        std::pair{"ptmx", "pts/ptmx"}}) {
    std::string spot = dev + "/" + name;
    if (!exists(spot)) ::symlink(target, spot.c_str());
  }
  std::string why;
  if (bind(dev, "/dev", why))
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
// is replaced by the tree's; where an absent one exists here, the same.
void cover_proc(const SandboxSpec& spec, std::vector<std::string>& uncovered,
                std::vector<std::string>& covered) {
  std::vector<std::string> replaced;  // folders below /proc now the tree's
  auto replace_folder = [&](const std::string& dir, const std::string& for_path) {
    if (under_any(dir, replaced)) return;
    if (dir == "/proc") {
      uncovered.push_back(for_path + ": procfs cannot be given or hide entries directly in /proc");
      return;
    }
    std::string mine = spec.tree + dir;
    std::string why;
    std::string make = spec.tree;
    for (const auto& part : path_components(dir)) {
      make += "/" + part;
      ::mkdir(make.c_str(), 0755);
    }
    if (bind(mine, dir, why)) {
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
      if (bind(spec.tree + path, path, why)) {
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

// Tools run by absolute path: the shim bound over the real file, or where there is
// none, the tree's folder laid over the nearest real folder with a read-only overlay
// (the real entries stay visible beside the shim).
void cover_tools(const SandboxSpec& spec, std::vector<std::string>& uncovered,
                 std::vector<std::string>& covered) {
  std::vector<std::string> overlaid;
  for (const auto& path : spec.tool_paths) {
    if (under_any(path, overlaid)) continue;
    std::string why;
    if (exists(path)) {
      if (bind(spec.tree + path, path, why))
        covered.push_back(path + " (tool shim)");
      else
        uncovered.push_back(path + " (tool shim): " + why);
      continue;
    }
    std::string dir = parent_dir(path);
    while (dir != "/" && !is_dir(dir)) dir = parent_dir(dir);
    if (dir == "/") {
      uncovered.push_back(path + " (tool shim): / itself cannot be overlaid");
      continue;
    }
    std::string options = "lowerdir=" + spec.tree + dir + ":" + dir;
    if (::mount("overlay", dir.c_str(), "overlay", MS_RDONLY, options.c_str()) == 0) {
      overlaid.push_back(dir);
      covered.push_back(path + " (tool shim, " + dir + " overlaid)");
    } else {
      uncovered.push_back(path + " (tool shim): overlay on " + dir + ": " + std::strerror(errno));
    }
  }
}

[[noreturn]] void child(const SandboxSpec& spec) {
  std::vector<std::string> uncovered, covered;
  bool uts = false;
  std::string why = spec.use_namespace ? enter_namespace(uts) : "--no-namespace was given";
  if (why.empty() && ::mount("none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
    why = std::string("making / private: ") + std::strerror(errno);
  if (why.empty()) {
    std::string bind_why;
    if (bind(spec.tree + "/sys", "/sys", bind_why))
      covered.push_back("/sys");
    else
      uncovered.push_back("/sys: " + bind_why);
    cover_dev(spec.tree, uncovered, covered);
    cover_proc(spec, uncovered, covered);
    cover_tools(spec, uncovered, covered);
    if (uts && !spec.hostname.empty() &&
        ::sethostname(spec.hostname.data(), spec.hostname.size()) != 0)
      uncovered.push_back("hostname: sethostname: " + std::string(std::strerror(errno)));
  } else {
    say("no private mount namespace (" + why + "); the command sees this machine's files at:");
    uncovered.push_back("/sys (the simulated one is at " + spec.tree + "/sys)");
    uncovered.push_back("/dev (the simulated one is at " + spec.tree + "/dev)");
    for (const auto& p : spec.proc_present) uncovered.push_back(p);
    for (const auto& p : spec.proc_absent) uncovered.push_back(p + " (absent in the snapshot)");
    for (const auto& p : spec.tool_paths) uncovered.push_back(p + " (tool shim)");
    if (!spec.hostname.empty()) uncovered.push_back("hostname (this machine's)");
  }
  for (const auto& u : uncovered) say("not covered: " + u);
  if (spec.verbose)
    for (const auto& c : covered) say("covered: " + c);

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
  pid_t pid = ::fork();
  if (pid < 0) {
    result.error = std::string("fork: ") + std::strerror(errno);
    return result;
  }
  if (pid == 0) child(spec);
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
    bool uts = false;
    ::_exit(enter_namespace(uts).empty() ? 0 : 1);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace hwaccel
