// A monotonic stopwatch for measuring our own work (--timings). It lives in
// src/host/ because it reads the clock; what it measures is this process, not
// the machine, so it is never recorded into a snapshot.
#pragma once

#include <chrono>
#include <cstdint>
#include <thread>

#include <time.h>

namespace hwaccel {

class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  // Started up to `credit` before now: when this process started, as near as it
  // can tell, but no earlier than `credit` ago. The process's CPU time so far
  // stands in for the wall time since exec (start-up maps cached libraries and
  // relocates them: it is CPU-bound). A recorded tool's wall time is its whole
  // process's, exec and loading included, so a simulated call waits from here;
  // the cap keeps a program that has run for long from skipping the wait.
  static Stopwatch since_process_start(std::chrono::milliseconds credit) {
    Stopwatch watch;
    const auto ran = std::chrono::nanoseconds(process_cpu_ns());
    watch.start_ -= std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        ran < credit ? ran : std::chrono::nanoseconds(credit));
    return watch;
  }
  double elapsed_ms() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
        .count();
  }
  // Sleeps until `ms` have passed since the start (at once when they have): a
  // simulated call that takes the time its recording did (libnvidia-ml's init).
  void wait_until_ms(std::int64_t ms) const {
    std::this_thread::sleep_until(start_ + std::chrono::milliseconds(ms));
  }

 private:
  static std::int64_t process_cpu_ns() {
    timespec t{};
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) != 0) return 0;
    return std::int64_t(t.tv_sec) * 1000000000 + t.tv_nsec;
  }
  std::chrono::steady_clock::time_point start_;
};

}  // namespace hwaccel
