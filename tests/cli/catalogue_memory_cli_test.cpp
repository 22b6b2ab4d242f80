// `hwaccel plan --devices FILE` on a large DEVICES.toml: its peak memory is
// linear in the file, under 5 times its size beyond what the same command
// takes with a small catalogue (issue 31: 146 MB took 2.4 GB, 16 times).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "tests/cli/cli_test_util.h"
#include "tests/support/sanitized.h"

namespace hwaccel::testing {
namespace {

// One SKU as tests/hostile/inputs/item16-many-skus.sh writes it (~600 bytes).
void write_catalogue(const std::string& path, int skus) {
  std::ofstream out(path, std::ios::binary);
  out << "format = \"hwaccel-devices/1\"\n[perf_class.nvidia-datacenter]\n"
         "decode_efficiency = 0.50\nprefill_efficiency = 0.30\nsource = \"test\"\n";
  for (int i = 1; i <= skus; ++i) {
    const std::string id = i == skus ? "h100-test-sku" : "sku-" + std::to_string(i);
    out << "[[sku]]\nid = \"" << id << "\"\nname = \"Large GPU " << i
        << "\"\nvendor = \"NVIDIA\"\nfamily = \"Hopper\"\ntype = \"gpu\"\nmatch = [\"Large GPU "
        << i << "\"]\npci = []\nmemory_gb = 80\nmemory_type = \"HBM3\"\nusable_fraction = 0.9\n"
        << "bandwidth_gbs = 3350\npeak_tflops = { fp32 = 60, bf16 = 900 }\n"
        << "native = [\"fp32\", \"bf16\"]\ntarget = \"sm_90\"\ncompute_units = 132\n"
        << "perf_class = \"nvidia-datacenter\"\nfabric = \"none\"\n"
        << "sources = { memory_gb = \"x\", bandwidth_gbs = \"x\", peak_tflops = \"x\", "
           "compute_units = \"x\", usable_fraction = \"x\" }\n";
  }
}

// Runs `hwaccel plan` on the catalogue: its exit code and peak RSS in bytes.
std::pair<int, long> plan_peak_rss(const std::string& catalogue) {
  std::vector<std::string> args = {bin("hwaccel"), "plan",
                                   "--model",      "Llama-3-8B",
                                   "--devices",    catalogue,
                                   "--add",        "h100-test-sku",
                                   "--host",       source_path("fixtures/hosts/cpu-only.yaml")};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  if (::posix_spawn(&pid, argv[0], &files, nullptr, argv.data(), environ) != 0) return {-1, 0};
  posix_spawn_file_actions_destroy(&files);
  int status = 0;
  struct rusage usage {};
  ::wait4(pid, &status, 0, &usage);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, usage.ru_maxrss * 1024L};
}

TEST(CatalogueMemory, PeakMemoryIsUnderFiveTimesTheFile) {
  const std::string dir = make_temp_dir();
  write_catalogue(dir + "/small.toml", 1);
  // ~60 MB (6 MB under AddressSanitizer, whose allocator's own overhead the
  // bound is not about: there only that it ends well is checked).
  write_catalogue(dir + "/large.toml", 100000 / kSanitizedScale);
  const long size = long(std::filesystem::file_size(dir + "/large.toml"));
  auto [small_exit, base] = plan_peak_rss(dir + "/small.toml");
  auto [large_exit, peak] = plan_peak_rss(dir + "/large.toml");
  EXPECT_EQ(small_exit, 0);
  EXPECT_EQ(large_exit, 0);
  const double ratio = double(peak - base) / double(size);
  std::cout << "catalogue of " << size / 1e6 << " MB: peak RSS " << peak / 1e6 << " MB, "
            << base / 1e6 << " MB with one SKU: " << ratio << " times the file\n";
  if (!kSanitized) {
    EXPECT_LT(ratio, 5.0);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace hwaccel::testing
