// Stopwatch::since_process_start: a simulated call (libnvidia-ml's init under
// hwsim run --latency) waits from the process's start, as the recorded
// whole-process figure counts, but never from more than `credit` ago.
#include "src/host/stopwatch.h"

#include <gtest/gtest.h>
#include <time.h>

#include <chrono>

namespace hwaccel {
namespace {

std::chrono::nanoseconds process_cpu() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec);
}

TEST(Stopwatch, SinceProcessStartCreditsTheProcessTimeUpToItsCap) {
  const auto begin = process_cpu();
  volatile unsigned spin = 0;
  while (process_cpu() - begin < std::chrono::milliseconds(30)) spin = spin + 1;
  // Uncapped (a cap far above what it ran): at least the 30 ms it worked.
  EXPECT_GE(Stopwatch::since_process_start(std::chrono::seconds(60)).elapsed_ms(), 30.0);
  // Capped at 5 ms: 5 ms ago, not the 30 ms and more it has run.
  const double capped = Stopwatch::since_process_start(std::chrono::milliseconds(5)).elapsed_ms();
  EXPECT_GE(capped, 5.0);
  EXPECT_LT(capped, 25.0);
}

}  // namespace
}  // namespace hwaccel
