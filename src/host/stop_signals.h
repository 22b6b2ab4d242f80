// The agent's sleep between rounds and its way out: SIGTERM, SIGINT and SIGHUP
// are blocked while a StopSignals lives (in the thread that makes it and every
// thread started after, so the probes' threads never take one; the tools the
// Host runs get an empty mask again) and collected with a bounded wait. A
// signal that arrives during a round ends the agent after that round, with
// its file written whole. It lives in src/host/ because it sleeps and takes
// signals, as the clock does.
//
// Once a stop signal has been taken the owner is ending: the destructor then
// leaves the three blocked (a second one, of another kind, sent with the first
// or during the way out, stays pending and dies with the process instead of
// killing it by its default action: exit 129 or 143 instead of 0).
#pragma once

#include <chrono>

#include <signal.h>

namespace hwaccel {

class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // Waits up to `wait` (zero: only looks); the signal that came, or 0.
  int wait(std::chrono::milliseconds wait);

 private:
  sigset_t set_{}, previous_{};
  bool stopping_ = false;
};

// "SIGTERM", "SIGINT", "SIGHUP"; "a signal" for any other.
const char* signal_name(int signal);

}  // namespace hwaccel
