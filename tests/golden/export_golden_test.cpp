// Golden exports: `hwaccel export nfd|slurm|prometheus` (and `detect --summary
// --json`) of chosen fixture hosts compared byte for byte with
// NAME.expected/export.{nfd,slurm,prom} and summary.json; rewritten
// only with HWACCEL_REGENERATE_GOLDEN=1 (the suite is named Fixtures* so the
// usual regeneration command covers it).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "src/export/fleet_exports.h"
#include "src/host/snapshot_host.h"
#include "src/registry/detection.h"
#include "src/registry/summary.h"
#include "src/report/summary_report.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

namespace fs = std::filesystem;

// The 8x H100, the GB10, a missing driver, MIG, eight MI300X (DRM nodes), the
// TPU v4 (/dev/accelN) and v5e (/dev/vfio/N) hosts, Gaudi 3, Trainium, AI 100, and
// the recorded H200 VM (its goldens are what the real machine exported live, but for
// the hostname and the slurm note fixtures/hosts/README.md explains). A host listed
// here must have its three export goldens.
std::vector<std::string> export_hosts() {
  std::vector<std::string> names;
  for (const char* n :
       {"dgx-h100", "gx10", "nvidia-no-driver", "h100-mig", "mi300x-8", "tpu-v4-8", "tpu-v5e-8",
        "gaudi3-8", "trn1-32xlarge", "qualcomm-ai100", "h200-firecracker"})
    names.push_back(n);
  return names;
}

class GoldenExport : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenExport, ExportsMatchTheReviewedFiles) {
  const std::string name = GetParam();
  auto loaded = load_snapshot_file(testing::source_path("fixtures/hosts/" + name + ".yaml"));
  ASSERT_FALSE(loaded.error) << loaded.error->to_string();
  SnapshotHost host(*loaded.snapshot);
  Detection d = detect(host);
  fs::path dir = testing::source_path("fixtures/hosts/" + name + ".expected");
  testing::compare_or_regenerate(dir / "export.nfd", render_nfd(d), "export");
  testing::compare_or_regenerate(dir / "export.slurm", render_slurm(host, d), "export");
  // The detection's own duration differs per run; the golden has none.
  PrometheusOptions prom;
  prom.timing = false;
  testing::compare_or_regenerate(dir / "export.prom", render_prometheus(host, d, prom), "export");
  // `hwaccel detect --summary --json`, validated against its schema by ctest.
  testing::compare_or_regenerate(dir / "summary.json",
                                 summary_to_json(d, summarize(d)).dump(2) + "\n", "export");
}

INSTANTIATE_TEST_SUITE_P(FixturesExport, GoldenExport, ::testing::ValuesIn(export_hosts()),
                         [](const auto& info) { return testing::test_name(info.param); });

}  // namespace
}  // namespace hwaccel
