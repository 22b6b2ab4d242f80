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
  // Started when this process started, as near as it can tell: the process's CPU
  // time so far stands in for the wall time since exec (start-up maps cached
  // libraries and relocates them: it is CPU-bound). A recorded tool's wall time is
  // its whole process's, so a simulated one waits from here, not from its first call.
  static Stopwatch since_process_start() {
    Stopwatch watch;
    watch.start_ -= std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::nanoseconds(process_cpu_ns()));
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
