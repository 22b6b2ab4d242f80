#include "src/host/sandbox_init.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace hwaccel {
namespace {

pid_t g_forward_to = -1;

void forward(int sig) {
  if (g_forward_to > 0) ::kill(g_forward_to, sig);
}

void pass_signals_to(pid_t pid) {
  g_forward_to = pid;
  struct sigaction ignore {
  }, pass{};
  ignore.sa_handler = SIG_IGN;
  pass.sa_handler = forward;
  ::sigaction(SIGINT, &ignore, nullptr);
  ::sigaction(SIGQUIT, &ignore, nullptr);
  ::sigaction(SIGTERM, &pass, nullptr);
  ::sigaction(SIGHUP, &pass, nullptr);
}

// Fields 48-51 of /proc/self/stat: where the kernel reads /proc/PID/cmdline and
// /proc/PID/environ from (this process's own memory).
bool args_and_env(unsigned long (&at)[4]) {
  int fd = ::open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[2048];
  ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0) return false;
  buf[n] = '\0';
  char* p = std::strrchr(buf, ')');  // the name may hold spaces and parentheses
  if (!p) return false;
  ++p;
  // After ")" comes field 3; field 48 is the 46th from there.
  for (int field = 3; field < 48; ++field) {
    while (*p == ' ') ++p;
    while (*p && *p != ' ') ++p;
    if (!*p) return false;
  }
  for (auto& v : at) {
    char* end = nullptr;
    v = std::strtoul(p, &end, 10);
    if (end == p) return false;
    p = end;
  }
  return at[0] < at[1] && at[2] < at[3];
}

// Overwrites [start, end) with `text` and zeros; where the kernel lets it (CAP_SYS_RESOURCE),
// the area then ends after `text`.
void rewrite(unsigned long start, unsigned long end, const char* text, std::size_t len,
             int end_option) {
  if (len > end - start) return;
  char* area = reinterpret_cast<char*>(start);
  std::memcpy(area, text, len);
  std::memset(area + len, 0, end - start - len);
  ::prctl(PR_SET_MM, end_option, start + len, 0, 0);  // else: zeros follow, read as empty
}

// Every other process of the namespace ended and reaped. kill(-1) from PID 1
// reaches them all; again until none is left, since one may fork while it goes
// out, and orphans come back to PID 1 to be reaped.
void end_the_rest() {
  while (::kill(-1, SIGKILL) == 0) {
    while (::waitpid(-1, nullptr, 0) > 0 || errno == EINTR) {
    }
  }
}

}  // namespace

// /proc/1 of the namespace: a host's init, not a copy of hwsim with this
// machine's environment.
void look_like_init() {
  ::prctl(PR_SET_NAME, "init", 0, 0, 0);
  unsigned long at[4];
  if (!args_and_env(at)) return;
  static const char kArgs[] = "/sbin/init";  // with its NUL
  static const char kEnv[] = "HOME=/\0TERM=linux";
  rewrite(at[2], at[3], kEnv, sizeof kEnv, PR_SET_MM_ENV_END);
  rewrite(at[0], at[1], kArgs, sizeof kArgs, PR_SET_MM_ARG_END);
}

void run_as_init(pid_t command, int status_fd) {
  pass_signals_to(command);
  int command_status = 0;
  for (;;) {
    int status = 0;
    pid_t done = ::waitpid(-1, &status, 0);
    if (done < 0 && errno == EINTR) continue;
    if (done < 0) break;  // no children left
    if (done == command) {
      command_status = status;
      break;
    }
  }
  // What the command left running ends with it, as on a host's shutdown; before
  // the status goes out, so that nothing of the run is left when the process
  // outside returns. That process does not wait for this one's exit: the
  // namespace's mounts are put away then, and the kernel waits for an RCU grace
  // period for each overlay (docs/performance.md).
  end_the_rest();
  ssize_t ignored = ::write(status_fd, &command_status, sizeof command_status);
  (void)ignored;
  ::_exit(WIFEXITED(command_status) ? WEXITSTATUS(command_status) : 128 + WTERMSIG(command_status));
}

void end_as_command(pid_t init, int status_fd) {
  pass_signals_to(init);
  int status = 0;
  while (::waitpid(init, &status, 0) < 0 && errno == EINTR) {
  }
  int command = 0;
  ssize_t n;
  while ((n = ::read(status_fd, &command, sizeof command)) < 0 && errno == EINTR) {
  }
  if (n != static_cast<ssize_t>(sizeof command)) command = status;  // init itself failed
  if (WIFSIGNALED(command)) {
    int sig = WTERMSIG(command);
    struct rlimit none {};
    ::setrlimit(RLIMIT_CORE, &none);  // the command's core, if any, was its own
    ::signal(sig, SIG_DFL);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, sig);
    ::sigprocmask(SIG_UNBLOCK, &only, nullptr);
    ::raise(sig);
  }
  ::_exit(WIFEXITED(command) ? WEXITSTATUS(command) : 128 + WTERMSIG(command));
}

}  // namespace hwaccel
