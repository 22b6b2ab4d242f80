// The registry: every probe on an in-memory snapshot host (no process, no
// disk), i.e. what detection itself costs once the machine has answered.
#include <benchmark/benchmark.h>

#include "bench/micro/bench_inputs.h"
#include "src/host/snapshot_host.h"
#include "src/registry/detection.h"
#include "src/report/detect_json.h"
#include "src/report/detect_text.h"
#include "src/snapshot/snapshot_codec.h"

namespace hwaccel::bench {
namespace {

void detect_on(benchmark::State& state, const std::string& name) {
  Snapshot s;
  parse_snapshot(slurp("fixtures/hosts/" + name), name, s);
  SnapshotHost host(s);
  for (auto _ : state) benchmark::DoNotOptimize(detect(host));
}

void render_json(benchmark::State& state) {
  Snapshot s;
  parse_snapshot(slurp("fixtures/hosts/dgx-h100.yaml"), "dgx-h100.yaml", s);
  SnapshotHost host(s);
  Detection d = detect(host);
  for (auto _ : state) benchmark::DoNotOptimize(render_detect_json(d));
}

BENCHMARK_CAPTURE(detect_on, gx10, std::string("gx10.yaml"));
BENCHMARK_CAPTURE(detect_on, dgx_h100, std::string("dgx-h100.yaml"));
BENCHMARK_CAPTURE(detect_on, mi300x_8, std::string("mi300x-8.yaml"));
BENCHMARK(render_json);

}  // namespace
}  // namespace hwaccel::bench
