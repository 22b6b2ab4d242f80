// A monotonic stopwatch for measuring our own work (--timings). It lives in
// src/host/ because it reads the clock; what it measures is this process, not
// the machine, so it is never recorded into a snapshot.
#pragma once

#include <chrono>
#include <cstdint>
#include <thread>

namespace hwaccel {

class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
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
  std::chrono::steady_clock::time_point start_;
};

}  // namespace hwaccel
