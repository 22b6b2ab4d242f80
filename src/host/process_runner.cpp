#include "src/host/process_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <utility>

#include "src/host/child_process.h"
#include "src/host/exec_diagnosis.h"

extern char** environ;

namespace hwaccel {
namespace {

using process::Child;
using process::Fd;
using process::kExitPollSliceMs;

using Clock = std::chrono::steady_clock;

constexpr std::size_t kReadChunk = 64 * 1024;
// Reads per wake-up, so that a fast writer cannot starve the deadline check.
constexpr int kReadsPerWake = 16;
constexpr int kCannotExecute = 126;

// Moves `fd` above stdio. When the parent runs with fd 0-2 closed, a pipe could land
// there and be clobbered by the child's dup2 onto 0, 1, 2.
bool lift_above_stdio(Fd& fd) {
  if (fd.get() > 2) return true;
  int lifted = ::fcntl(fd.get(), F_DUPFD_CLOEXEC, 3);
  if (lifted < 0) return false;
  fd.reset(lifted);
  return true;
}

// O_CLOEXEC from the start: another thread forking at the same moment must not
// pass our pipe ends on to its tool, or our reader would never see EOF.
bool make_pipe(Fd& read_end, Fd& write_end) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return false;
  read_end.reset(fds[0]);
  write_end.reset(fds[1]);
  return lift_above_stdio(read_end) && lift_above_stdio(write_end);
}

bool set_nonblocking(int fd) {
  int flags = ::fcntl(fd, F_GETFL);
  return flags >= 0 && ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0;
}

std::int64_t elapsed_ms(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

ToolRun cannot_start(ToolOutcome outcome, int exit_code, std::string why) {
  ToolRun run;
  run.outcome = outcome;
  run.exit_code = exit_code;
  run.err = std::move(why);
  return run;
}

// ---- the child side: between fork and exec only async-signal-safe calls ----

// Everything the child needs, prepared before fork (the child may not allocate).
struct ChildPlan {
  const char* path = nullptr;
  std::vector<char*> argv;
  std::vector<char*> envp;
  int stdin_fd = -1, stdout_fd = -1, stderr_fd = -1, status_fd = -1;
};

[[noreturn]] void report_exec_failure(int status_fd, int error) {
  ssize_t ignored = ::write(status_fd, &error, sizeof error);
  (void)ignored;
  ::_exit(127);
}

// Ignored signals survive exec (a parent ignoring SIGPIPE would make `head` in a
// tool's pipeline misbehave), and so does the signal mask of the forking thread.
void reset_signals() {
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  for (int sig = 1; sig < NSIG; ++sig) ::sigaction(sig, &dfl, nullptr);  // some fail: fine
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
}

// Descriptors that other code in this process opened without O_CLOEXEC would
// otherwise leak into the tool; the status pipe stays open until exec.
void close_inherited_fds_on_exec() {
#if defined(__linux__) && defined(SYS_close_range)
  constexpr unsigned kCloseRangeCloexec = 1u << 2;          // CLOSE_RANGE_CLOEXEC
  ::syscall(SYS_close_range, 3u, ~0u, kCloseRangeCloexec);  // Linux >= 5.11; else no-op
#endif
}

[[noreturn]] void exec_child(const ChildPlan& plan) {
  // Our own process group, so that the deadline kill reaches grandchildren too.
  ::setpgid(0, 0);
  if (::dup2(plan.stdin_fd, 0) < 0 || ::dup2(plan.stdout_fd, 1) < 0 ||
      ::dup2(plan.stderr_fd, 2) < 0) {
    report_exec_failure(plan.status_fd, errno);
  }
  reset_signals();
  close_inherited_fds_on_exec();
  ::execve(plan.path, plan.argv.data(), plan.envp.data());
  report_exec_failure(plan.status_fd, errno);
}

// ---- the parent side ----
// One output stream of the child: what is kept, up to the cap.
struct Capture {
  Fd fd;
  std::string* sink = nullptr;
  std::size_t cap = 0;
  bool truncated = false;

  // Reads what the pipe holds now; closes the stream at EOF or on error.
  void pump(int max_reads) {
    char buffer[kReadChunk];
    for (int i = 0; i < max_reads && fd.open(); ++i) {
      ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
      if (n <= 0) {
        fd.reset();
        return;
      }
      keep(buffer, static_cast<std::size_t>(n));
    }
  }

  // Past the cap the bytes are still read (the child must not block on a full
  // pipe) but dropped.
  void keep(const char* data, std::size_t n) {
    std::size_t room = cap > sink->size() ? cap - sink->size() : 0;
    if (n > room) truncated = true;
    sink->append(data, std::min(n, room));
  }
};

// Reads both pipes while the child runs, until both are closed and the child has
// exited, or the deadline passes. Returns true when the deadline passed first.
bool pump_until_done(Child& child, Capture& out, Capture& err, Clock::time_point deadline) {
  for (;;) {
    child.poll_exit();
    if (child.reaped() && !out.fd.open() && !err.fd.open()) return false;
    const auto now = Clock::now();
    if (now >= deadline) {
      if (!child.reaped()) return true;
      // It has ended, and is only now waited for (a run started early and finished
      // late): what it wrote is still in the pipes, at most their size each.
      out.pump(kReadsPerWake);
      err.pump(kReadsPerWake);
      return false;
    }

    pollfd fds[3];
    nfds_t count = 0;
    for (Capture* c : {&out, &err}) {
      if (c->fd.open()) fds[count++] = pollfd{c->fd.get(), POLLIN, 0};
    }
    if (!child.reaped() && child.pidfd() >= 0) fds[count++] = pollfd{child.pidfd(), POLLIN, 0};

    auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - now).count();
    int wait_ms = static_cast<int>(std::min<std::int64_t>(left, 60'000));
    if (!child.reaped() && child.pidfd() < 0) wait_ms = std::min(wait_ms, kExitPollSliceMs);
    if (::poll(fds, count, wait_ms) < 0 && errno != EINTR) ::poll(nullptr, 0, 1);

    out.pump(kReadsPerWake);
    err.pump(kReadsPerWake);
  }
}

// The errno the child sent when exec failed; 0 when exec succeeded.
int exec_error(int status_fd) {
  int error = 0;
  ssize_t n;
  do {
    n = ::read(status_fd, &error, sizeof error);
  } while (n < 0 && errno == EINTR);
  return n == static_cast<ssize_t>(sizeof error) ? error : 0;
}

// A file that is there but that execve refuses is "found and cannot execute", with
// why (execve's ENOENT for a missing dynamic loader included); only a file that is
// not there is "not found".
ToolRun exec_failure(const std::string& path, int error) {
  std::string why = "exec " + path + ": " + std::strerror(error);
  auto detail = cannot_execute_detail(path, error);
  if (!detail) return cannot_start(ToolOutcome::not_found, 0, std::move(why));
  if (error == EACCES || error == EPERM)
    return cannot_start(ToolOutcome::permission_denied, 0, cannot_execute_text(path, *detail));
  return cannot_start(ToolOutcome::exited, kCannotExecute, cannot_execute_text(path, *detail));
}

ToolRun outcome_of(int status, bool timed_out) {
  ToolRun run;
  if (timed_out) {
    run.outcome = ToolOutcome::timeout;
  } else if (WIFSIGNALED(status)) {
    run.outcome = ToolOutcome::signal;
    run.signal = WTERMSIG(status);
  } else {
    run.outcome = ToolOutcome::exited;
    run.exit_code = WEXITSTATUS(status);
  }
  return run;
}

// Where argv[0] is: as given when it holds a '/', else searched on the real PATH.
std::optional<std::string> locate(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  return find_executable(name, path ? std::string_view(path) : kDefaultSearchPath);
}

bool has_nul(const std::vector<std::string>& argv) {
  return std::any_of(argv.begin(), argv.end(),
                     [](const std::string& a) { return a.find('\0') != std::string::npos; });
}

// A tool from its start to its end: its pipes and its process. Not movable:
// the captures write into its own strings.
class RunningProcess : public StartedRun {
 public:
  RunningProcess(const std::vector<std::string>& argv, const ProcessLimits& limits)
      : limits_(limits), start_(Clock::now()) {
    try {
      if (argv.empty() || argv[0].empty()) {
        answer_ = cannot_start(ToolOutcome::not_found, 0, "empty command");
      } else if (has_nul(argv)) {
        answer_ = cannot_start(ToolOutcome::exited, kCannotExecute, "argument contains a NUL byte");
      } else if (auto path = locate(argv[0]); !path) {
        answer_ = not_on_path(argv[0]);
      } else {
        path_ = *path;
        spawn(argv);
      }
    } catch (const std::exception& e) {  // std::bad_alloc; the Child guard has cleaned up
      child_.reset();
      answer_ = cannot_start(ToolOutcome::exited, kCannotExecute, e.what());
    }
  }
  RunningProcess(const RunningProcess&) = delete;
  RunningProcess& operator=(const RunningProcess&) = delete;

  ToolRun finish() override {
    if (!answer_) {
      try {
        answer_ = collect();
      } catch (const std::exception& e) {
        answer_ = cannot_start(ToolOutcome::exited, kCannotExecute, e.what());
      }
      child_.reset();  // killed and reaped if it still runs
    }
    ToolRun run = std::move(*answer_);
    run.ms = elapsed_ms(start_);
    return run;
  }
  bool answered() const override { return answer_.has_value() && !child_; }
  bool under_way() const override { return child_.has_value() && !answer_; }

 private:
  void spawn(const std::vector<std::string>& argv) {
    Fd null_in(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    Fd out_w, err_w, status_w;
    if (!null_in.open()) {  // a root without /dev (a bare chroot): say so, not "pipe"
      answer_ = cannot_start(ToolOutcome::exited, kCannotExecute,
                             std::string("open /dev/null: ") + std::strerror(errno));
      return;
    }
    if (!lift_above_stdio(null_in) || !make_pipe(out_.fd, out_w) || !make_pipe(err_.fd, err_w) ||
        !make_pipe(status_r_, status_w) || !set_nonblocking(out_.fd.get()) ||
        !set_nonblocking(err_.fd.get()) || !set_nonblocking(status_r_.get())) {
      answer_ = cannot_start(ToolOutcome::exited, kCannotExecute,
                             std::string("pipe: ") + std::strerror(errno));
      return;
    }

    std::vector<std::string> env = child_environment(environ);
    ChildPlan plan;
    plan.path = path_.c_str();
    for (const auto& arg : argv) plan.argv.push_back(const_cast<char*>(arg.c_str()));
    plan.argv.push_back(nullptr);
    for (auto& entry : env) plan.envp.push_back(entry.data());
    plan.envp.push_back(nullptr);
    plan.stdin_fd = null_in.get();
    plan.stdout_fd = out_w.get();
    plan.stderr_fd = err_w.get();
    plan.status_fd = status_w.get();

    // vfork: the child only makes system calls until it execs, and the parent
    // waits for that instead of copying its page tables (and taking a
    // copy-on-write fault for every page it touches while the tool starts).
    // Signals stay blocked until the child has reset their handlers (it shares
    // our memory until exec: a handler of ours must never run in it).
    sigset_t all, previous;
    sigfillset(&all);
    ::pthread_sigmask(SIG_SETMASK, &all, &previous);
#if defined(__SANITIZE_ADDRESS__)
    pid_t pid = ::fork();  // AddressSanitizer's shadow of our stack would be shared too
#else
    pid_t pid = ::vfork();
#endif
    if (pid == 0) exec_child(plan);
    const int vfork_error = errno;
    ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    if (pid < 0) {
      answer_ = cannot_start(ToolOutcome::exited, kCannotExecute,
                             std::string("vfork: ") + std::strerror(vfork_error));
      return;
    }
    // Also here, so that a deadline kill right away already finds the group.
    ::setpgid(pid, pid);
    child_.emplace(pid);
    // Our copies of the child's ends go (when this returns), or the pipes would
    // never reach EOF.
  }

  ToolRun collect() {
    out_.sink = &out_text_;
    err_.sink = &err_text_;
    out_.cap = err_.cap = limits_.output_cap;
    const bool timed_out = pump_until_done(*child_, out_, err_, start_ + limits_.timeout);
    if (timed_out) {
      child_->kill_and_reap();
      // What the tool printed before it was killed helps say why it hung.
      out_.pump(kReadsPerWake);
      err_.pump(kReadsPerWake);
    }

    if (int error = exec_error(status_r_.get()); error != 0 && !timed_out) {
      return exec_failure(path_, error);
    }
    ToolRun run = outcome_of(child_->status(), timed_out);
    run.out = std::move(out_text_);
    run.err = std::move(err_text_);
    run.truncated = out_.truncated || err_.truncated;
    return run;
  }

  ProcessLimits limits_;
  Clock::time_point start_;
  std::string path_;
  Fd status_r_;
  Capture out_, err_;
  std::string out_text_, err_text_;
  std::optional<Child> child_;     // after the pipes: killed and reaped before they close
  std::optional<ToolRun> answer_;  // set when it could not start, and once finished
};

}  // namespace

std::optional<std::string> find_executable(std::string_view name, std::string_view search_path) {
  std::optional<std::string> not_executable;
  std::vector<std::string_view> searched;  // a PATH often names a folder twice
  std::size_t at = 0;
  while (at <= search_path.size()) {
    std::size_t colon = search_path.find(':', at);
    if (colon == std::string_view::npos) colon = search_path.size();
    std::string_view dir = search_path.substr(at, colon - at);
    at = colon + 1;
    if (dir.empty() || std::find(searched.begin(), searched.end(), dir) != searched.end()) continue;
    searched.push_back(dir);
    std::string candidate = std::string(dir) + (dir.back() == '/' ? "" : "/") + std::string(name);
    struct stat st {};
    if (::stat(candidate.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    if (!not_executable) not_executable = std::move(candidate);
  }
  return not_executable;
}

bool is_loader_variable(std::string_view name) {
  return name.starts_with("LD_") || name.starts_with("DYLD_");
}

std::vector<std::string> child_environment(const char* const* env) {
  std::vector<std::string> out;
  for (const char* const* entry = env; entry && *entry; ++entry) {
    std::string_view text(*entry);
    std::string_view name = text.substr(0, text.find('='));
    if (is_loader_variable(name) || name == "LC_ALL") continue;
    out.emplace_back(text);
  }
  out.emplace_back("LC_ALL=C");
  return out;
}

std::unique_ptr<StartedRun> start_process(const std::vector<std::string>& argv,
                                          const ProcessLimits& limits) {
  return std::make_unique<RunningProcess>(argv, limits);
}

ToolRun run_process(const std::vector<std::string>& argv, const ProcessLimits& limits) {
  return start_process(argv, limits)->finish();
}

ToolRun not_on_path(const std::string& name) {
  return cannot_start(ToolOutcome::not_found, 0, name + ": not found on PATH");
}

}  // namespace hwaccel
