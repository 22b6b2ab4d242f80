// The parsers on real-sized inputs from the fixture hosts.
#include <benchmark/benchmark.h>

#include "bench/micro/bench_inputs.h"
#include "src/probe/nvidia_smi_csv.h"
#include "src/probe/nvidia_smi_list.h"
#include "src/probe/nvidia_smi_topo.h"
#include "src/probe/proc_cpuinfo.h"
#include "src/probe/proc_meminfo.h"
#include "src/snapshot/snapshot_codec.h"

namespace hwaccel::bench {
namespace {

Snapshot fixture(const std::string& name) {
  Snapshot s;
  parse_snapshot(slurp("fixtures/hosts/" + name), name, s);
  return s;
}

template <typename Parse>
void run_parser(benchmark::State& state, const std::string& text, Parse parse) {
  if (text.empty()) state.SkipWithError("input not found in the fixture");
  for (auto _ : state) benchmark::DoNotOptimize(parse(text));
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(text.size()));
}

void nvidia_smi_query(benchmark::State& state) {
  run_parser(state, tool_output(fixture("dgx-h100.yaml"), "nvidia-smi --query-gpu=index"),
             [](const std::string& t) { return parse_nvidia_smi_gpu_query(t); });
}
void nvidia_smi_list(benchmark::State& state) {
  run_parser(state, tool_output(fixture("dgx-h100.yaml"), "nvidia-smi -L"),
             [](const std::string& t) { return parse_nvidia_smi_list(t); });
}
void nvidia_smi_topo(benchmark::State& state) {
  run_parser(state, tool_output(fixture("dgx-h100.yaml"), "nvidia-smi topo -m"),
             [](const std::string& t) { return parse_nvidia_smi_topo(t); });
}
void proc_cpuinfo(benchmark::State& state) {
  auto s = fixture("mi300x-8.yaml");
  auto it = s.files.find("/proc/cpuinfo");
  run_parser(state, it == s.files.end() ? "" : it->second.bytes,
             [](const std::string& t) { return parse_proc_cpuinfo(t); });
}
void proc_meminfo(benchmark::State& state) {
  auto s = fixture("gx10.yaml");
  auto it = s.files.find("/proc/meminfo");
  run_parser(state, it == s.files.end() ? "" : it->second.bytes,
             [](const std::string& t) { return parse_proc_meminfo(t); });
}

BENCHMARK(nvidia_smi_query);
BENCHMARK(nvidia_smi_list);
BENCHMARK(nvidia_smi_topo);
BENCHMARK(proc_cpuinfo);
BENCHMARK(proc_meminfo);

}  // namespace
}  // namespace hwaccel::bench
