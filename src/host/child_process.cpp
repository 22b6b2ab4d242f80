#include "src/host/child_process.h"

#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <thread>

namespace hwaccel::process {

using Clock = std::chrono::steady_clock;

void Fd::reset(int fd) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
}

int open_pidfd(pid_t pid) {
#if defined(__linux__) && defined(SYS_pidfd_open) && !defined(HWACCEL_NO_PIDFD)
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));  // -1 before Linux 5.3
#else
  (void)pid;
  return -1;
#endif
}

bool Child::poll_exit() {
  if (reaped_) return true;
  siginfo_t info{};
  int rc = ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT);
  if (rc != 0) {
    if (errno == EINTR) return false;
    // ECHILD: SIGCHLD is ignored in this process and the kernel reaped the child
    // itself; its status is lost and its pid may already be reused, so no kill.
    // Report an exit code that no tool uses for success.
    reaped_ = true;
    status_ = 255 << 8;
    return true;
  }
  if (info.si_pid == 0) return false;  // still running
  kill_group();
  reap_blocking();
  return true;
}

void Child::kill_and_reap() {
  kill_group();
  const auto give_up = Clock::now() + kKillGrace;
  while (Clock::now() < give_up) {
    int status = 0;
    pid_t rc = ::waitpid(pid_, &status, WNOHANG);
    if (rc == pid_ || (rc < 0 && errno != EINTR)) {
      reaped_ = true;
      status_ = status;
      return;
    }
    wait_briefly();
  }
  reaped_ = true;  // from here on, the reaper's
  try {
    std::thread([pid = pid_] {
      while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
      }
    }).detach();
  } catch (...) {
    // No thread to spare: the zombie stays until this process exits.
  }
}

void Child::kill_group() {
  ::kill(-pid_, SIGKILL);
  ::kill(pid_, SIGKILL);
}

void Child::reap_blocking() {
  int status = 0;
  pid_t rc;
  do {
    rc = ::waitpid(pid_, &status, 0);
  } while (rc < 0 && errno == EINTR);
  status_ = rc == pid_ ? status : (255 << 8);  // ECHILD, as in poll_exit
  reaped_ = true;
}

void Child::wait_briefly() {
  if (pidfd_.open()) {
    pollfd p{pidfd_.get(), POLLIN, 0};
    ::poll(&p, 1, kExitPollSliceMs);
  } else {
    ::poll(nullptr, 0, 2);
  }
}

}  // namespace hwaccel::process
