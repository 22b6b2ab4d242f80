// parse_catalogue on big generated DEVICES.toml files (issue 18, item 16): the
// duplicate-id check was quadratic (300,000 SKUs: about 6 minutes); with a set
// the time grows with the file, and toml++'s own parse is most of it.
#include <benchmark/benchmark.h>

#include <string>

#include "src/plan/catalogue.h"

namespace hwaccel::bench {
namespace {

std::string catalogue_of(int skus) {
  std::string text =
      "format = \"hwaccel-devices/1\"\n[perf_class.x]\ndecode_efficiency = 0.5\n"
      "prefill_efficiency = 0.3\nsource = \"test\"\n";
  for (int i = 0; i < skus; ++i) {
    const std::string id = "s" + std::to_string(i);
    text += "\n[[sku]]\nid = \"" + id + "\"\nname = \"Accel " + id +
            "\"\nvendor = \"V\"\nfamily = \"F\"\ntype = \"gpu\"\nmatch = [\"Accel " + id +
            "\"]\npci = []\nmemory_gb = 80\nmemory_type = \"HBM3\"\nusable_fraction = 0.9\n"
            "bandwidth_gbs = 1000\npeak_tflops = { bf16 = 100 }\nnative = [\"bf16\"]\n"
            "target = \"sm_90\"\ncompute_units = 10\nperf_class = \"x\"\nfabric = \"none\"\n"
            "sources = { memory_gb = \"m\", bandwidth_gbs = \"b\", peak_tflops = \"p\", "
            "compute_units = \"c\", usable_fraction = \"u\" }\n";
  }
  return text;
}

void parse_big_catalogue(benchmark::State& state) {
  const std::string text = catalogue_of(int(state.range(0)));
  for (auto _ : state) {
    auto r = plan::parse_catalogue(text, "DEVICES.toml");
    if (!r.catalogue) state.SkipWithError(r.error.c_str());
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(std::int64_t(state.iterations()) * state.range(0));
}

BENCHMARK(parse_big_catalogue)
    ->Arg(10'000)
    ->Arg(100'000)
    ->Arg(300'000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

}  // namespace
}  // namespace hwaccel::bench
