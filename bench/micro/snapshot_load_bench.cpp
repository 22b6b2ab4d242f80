// Snapshot load (parse + validate) and save, in bytes per second: the target
// is at least 50 MB/s for load (docs/performance.md).
#include <benchmark/benchmark.h>

#include "bench/micro/bench_inputs.h"
#include "src/snapshot/fast_reader.h"
#include "src/snapshot/snapshot_codec.h"

namespace hwaccel::bench {
namespace {

void load(benchmark::State& state, const std::string& fixture) {
  const std::string text = slurp("fixtures/hosts/" + fixture);
  for (auto _ : state) {
    Snapshot s;
    auto error = parse_snapshot(text, fixture, s);
    if (error) state.SkipWithError(error->to_string().c_str());
    benchmark::DoNotOptimize(s);
  }
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(text.size()));
}

// The yaml-cpp path alone (what parse_snapshot falls back to outside the
// writer's subset), for the ratio of the fast reader to it.
void load_yaml_cpp(benchmark::State& state, const std::string& fixture) {
  const std::string text = slurp("fixtures/hosts/" + fixture);
  for (auto _ : state) {
    Snapshot s;
    auto error = parse_snapshot_with_yaml_cpp(text, fixture, s);
    if (error) state.SkipWithError(error->to_string().c_str());
    benchmark::DoNotOptimize(s);
  }
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(text.size()));
}

void save(benchmark::State& state, const std::string& fixture) {
  Snapshot s;
  parse_snapshot(slurp("fixtures/hosts/" + fixture), fixture, s);
  std::size_t bytes = 0;
  for (auto _ : state) {
    std::string out = write_snapshot(s);
    bytes = out.size();
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(bytes));
}

BENCHMARK_CAPTURE(load, gx10, std::string("gx10.yaml"));
BENCHMARK_CAPTURE(load, dgx_h100, std::string("dgx-h100.yaml"));
BENCHMARK_CAPTURE(load, mi300x_8, std::string("mi300x-8.yaml"));
BENCHMARK_CAPTURE(load_yaml_cpp, gx10, std::string("gx10.yaml"));
BENCHMARK_CAPTURE(load_yaml_cpp, dgx_h100, std::string("dgx-h100.yaml"));
BENCHMARK_CAPTURE(load_yaml_cpp, mi300x_8, std::string("mi300x-8.yaml"));
BENCHMARK_CAPTURE(save, dgx_h100, std::string("dgx-h100.yaml"));

}  // namespace
}  // namespace hwaccel::bench
