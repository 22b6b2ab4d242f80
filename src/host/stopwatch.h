// A monotonic stopwatch for measuring our own work (--timings). It lives in
// src/host/ because it reads the clock; what it measures is this process, not
// the machine, so it is never recorded into a snapshot.
#pragma once

#include <chrono>

namespace hwaccel {

class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  double elapsed_ms() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
        .count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace hwaccel
