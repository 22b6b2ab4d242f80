// The parent's hold on a tool's process (process_runner.cpp): descriptors that
// close themselves, and a child that is killed and reaped before it is let go.
#pragma once

#include <sys/types.h>

#include <chrono>

namespace hwaccel::process {

// How long a child killed at its deadline may take to die before it is left to a
// background reaper (a process stuck in the kernel, say in a GPU driver ioctl,
// cannot die until the call returns; the run must not wait for that).
inline constexpr std::chrono::milliseconds kKillGrace{1000};
// Without a pidfd, how often the loop looks whether the child has exited.
inline constexpr int kExitPollSliceMs = 10;

// A file descriptor that closes itself.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  int get() const { return fd_; }
  bool open() const { return fd_ >= 0; }
  void reset(int fd = -1);

 private:
  int fd_ = -1;
};

// A pidfd for `pid` (readable once it exits), or -1 where the kernel has none.
// HWACCEL_NO_PIDFD builds the fallback (polling in slices) for testing it.
int open_pidfd(pid_t pid);

// Kills the child's whole process group (and the child itself, should it have
// left the group), and reaps it. Owns the child until then: an early return or an
// exception cannot leave a running tool or a zombie behind.
class Child {
 public:
  explicit Child(pid_t pid) : pid_(pid), pidfd_(open_pidfd(pid)) {}
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child() {
    if (!reaped_) kill_and_reap();
  }

  int pidfd() const { return pidfd_.get(); }
  bool reaped() const { return reaped_; }
  int status() const { return status_; }

  // True once the child has exited; then its group is killed (grandchildren that
  // still hold our pipes would otherwise keep the run going) and it is reaped.
  // The group is killed before reaping: while the child is an unreaped zombie its
  // pid, which names the group, cannot be reused by an unrelated process.
  bool poll_exit();
  // At the deadline: kill, then reap within a grace period or hand the reaping to a
  // detached thread (the process may be stuck in the kernel; it dies when it leaves).
  void kill_and_reap();

 private:
  void kill_group();
  void reap_blocking();
  void wait_briefly();

  pid_t pid_;
  Fd pidfd_;
  bool reaped_ = false;
  int status_ = 0;
};

}  // namespace hwaccel::process
