#include "src/host/stop_signals.h"

#include <pthread.h>

#include <cerrno>
#include <ctime>

namespace hwaccel {

StopSignals::StopSignals() {
  sigemptyset(&set_);
  sigaddset(&set_, SIGTERM);
  sigaddset(&set_, SIGINT);
  sigaddset(&set_, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &set_, &previous_);
}

StopSignals::~StopSignals() {
  // Unblocking with a signal pending would deliver it at once, to its default
  // action. Pending ones are taken first; if any was, ever, the mask stays.
  timespec none{0, 0};
  while (sigtimedwait(&set_, nullptr, &none) > 0) stopping_ = true;
  if (!stopping_) pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

int StopSignals::wait(std::chrono::milliseconds wait) {
  const auto total = wait.count() < 0 ? 0 : wait.count();
  timespec ts{static_cast<time_t>(total / 1000), static_cast<long>(total % 1000) * 1000000L};
  while (true) {
    int sig = sigtimedwait(&set_, nullptr, &ts);
    if (sig > 0) {
      stopping_ = true;
      return sig;
    }
    if (errno == EAGAIN) return 0;  // the time is up
    if (errno != EINTR) return 0;
    // EINTR (a signal we do not collect, e.g. SIGCHLD with a handler): sleep the
    // rest is not tracked precisely; a shorter round is harmless.
  }
}

const char* signal_name(int signal) {
  switch (signal) {
    case SIGTERM:
      return "SIGTERM";
    case SIGINT:
      return "SIGINT";
    case SIGHUP:
      return "SIGHUP";
    default:
      return "a signal";
  }
}

}  // namespace hwaccel
