// `hwsim run` in a private PID namespace: the process that set the namespace up
// is its PID 1 and stays, as a host's init does, while the command runs as its
// child. Programs that look at PID 1 (container checks read /proc/1/environ,
// /proc/1/cgroup, /proc/1/cmdline) see a plain init: its command line reads
// "/sbin/init", its name "init", its environment nothing of this machine's.
// The signals hwsim forwards (TERM, HUP) reach the command, ^C and ^\ reach it
// from the terminal, orphans are reaped, and the command's wait status goes back
// through `status_fd` to the process outside, which dies of the same signal.
#pragma once

#include <sys/types.h>

namespace hwaccel {

// In PID 1 of the namespace, before it starts the command: clears what /proc/1
// tells of this machine (its name, command line and environment). Before, so that
// the command never sees them, however the two are scheduled; nothing of PID 1
// reads its own argv or environ after this.
void look_like_init();

// In PID 1 of the namespace, after starting the command (`command`): reaps
// children until the command ends, ends and reaps every other process of the
// namespace, then writes the command's wait status to `status_fd` and exits. The
// status is the sign that nothing of the run is left but PID 1's own exit.
// Never returns.
[[noreturn]] void run_as_init(pid_t command, int status_fd);

// In the process outside that forked PID 1 (`init`): waits for it and ends as the
// command did (its exit status, or killed by its signal). Never returns.
[[noreturn]] void end_as_command(pid_t init, int status_fd);

}  // namespace hwaccel
