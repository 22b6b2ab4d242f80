// One device, one declaration: on every fixture host, every export declares a
// physical device once (the Meteor Lake iGPU seen by vulkan and oneapi, the
// Apple GPU seen by Metal and MoltenVK), and the pieces those exports are made
// of (Slurm types and cores, GFD numbers, nvidia-smi bus ids, RFC 3339 times).
#include "src/export/physical_devices.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "src/export/fleet_exports.h"
#include "src/export/slurm_text.h"
#include "src/export/time_text.h"
#include "src/export/version_numbers.h"
#include "src/host/snapshot_host.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

namespace fs = std::filesystem;

struct Loaded {
  std::unique_ptr<SnapshotHost> host;
  Detection d;
};

Loaded load(const std::string& name) {
  auto loaded = load_snapshot_file(testing::source_path("fixtures/hosts/" + name + ".yaml"));
  EXPECT_FALSE(loaded.error) << name;
  Loaded out{std::make_unique<SnapshotHost>(std::move(*loaded.snapshot)), {}};
  out.d = detect(*out.host);
  return out;
}

// "gpu:h100:8,npu:x:1" -> total count per GRES name.
std::map<std::string, long> node_counts(const std::string& slurm) {
  std::map<std::string, long> out;
  auto at = slurm.find(" Gres=");
  if (at == std::string::npos) return out;
  std::istringstream in(slurm.substr(at + 6, slurm.find('\n', at) - at - 6));
  std::string item;
  while (std::getline(in, item, ','))
    out[item.substr(0, item.find(':'))] += std::stol(item.substr(item.rfind(':') + 1));
  return out;
}

TEST(OneDeviceOneDeclaration, EverySlurmFileDeclaresEachNodeOnceAndCountsMatch) {
  std::size_t hosts = 0;
  for (const auto& f : fs::directory_iterator(testing::source_path("fixtures/hosts"))) {
    if (f.path().extension() != ".yaml") continue;
    Loaded l = load(f.path().stem().string());
    ++hosts;
    const std::string text = render_slurm(*l.host, l.d);
    std::set<std::string> files;
    std::map<std::string, long> declared;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("Name=", 0) != 0) continue;
      auto file = line.substr(line.find("File=") + 5);
      file = file.substr(0, file.find(' '));
      EXPECT_TRUE(files.insert(file).second) << f.path().stem() << ": " << file << " twice";
      long n = 1;
      if (auto open = file.find('['); open != std::string::npos) {
        n = 0;
        std::istringstream r(file.substr(open + 1, file.size() - open - 2));
        std::string part;
        while (std::getline(r, part, ',')) {
          auto dash = part.find('-');
          n += dash == std::string::npos ? 1
                                         : std::stol(part.substr(dash + 1)) - std::stol(part) + 1;
        }
      }
      declared[line.substr(5, line.find(' ') - 5)] += n;
    }
    // MIG slices come from AutoDetect; everything else slurmd counts from these lines.
    auto counts = node_counts(text);
    if (text.find("MIG instances") == std::string::npos) {
      EXPECT_EQ(declared, counts) << f.path().stem() << "\n" << text;
    }
  }
  EXPECT_GT(hosts, 20u);
}

TEST(OneDeviceOneDeclaration, AGpuSeenByTwoApisIsOneDevice) {
  Loaded mtl = load("meteor-lake-npu");
  auto devices = physical_devices(mtl.d);
  ASSERT_EQ(devices.size(), 2u);                   // the iGPU (vulkan + oneapi) and the NPU
  EXPECT_EQ(devices[0].entry->backend, "oneapi");  // the vendor's view, not vulkan's
  EXPECT_EQ(devices[0].views.size(), 2u);
  EXPECT_TRUE(devices[0].integrated);
  Loaded mac = load("mac-studio-m2-ultra");
  const std::string slurm = render_slurm(*mac.host, mac.d);
  EXPECT_NE(slurm.find("Gres=gpu:m2_ultra:1,"), std::string::npos) << slurm;
  EXPECT_NE(render_prometheus(*mac.host, mac.d)
                .find("hwaccel_devices{backend=\"vulkan\",state=\"ready\"} 0"),
            std::string::npos);
}

TEST(OneDeviceOneDeclaration, MigSlicesFollowTheStrategy) {
  Loaded mig = load("h100-mig");
  auto devices = physical_devices(mig.d);
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_EQ(devices[0].slices.size(), 4u);
  EXPECT_EQ(allocatable_devices(devices, MigStrategy::none).size(), 1u);
  auto mixed = allocatable_devices(devices, MigStrategy::mixed);
  ASSERT_EQ(mixed.size(), 4u);
  EXPECT_EQ(mixed[0].resource, "mig-3g.40gb");
  EXPECT_FALSE(single_mig_profile(devices));  // 3g + 2g + 1g: single is invalid, as GFD says
  NfdOptions single;
  single.mig = MigStrategy::single;
  const std::string nfd = render_nfd(mig.d, single);
  EXPECT_NE(nfd.find("hwaccel.io/cuda.product=NVIDIA-H100-80GB-HBM3-MIG-INVALID"),
            std::string::npos)
      << nfd;
  const std::string prom = render_prometheus(*mig.host, mig.d);
  EXPECT_NE(prom.find("hwaccel_accelerators{state=\"ready\"} 4"), std::string::npos);
  EXPECT_NE(prom.find("GPU_I_PROFILE=\"3g.40gb\""), std::string::npos);
  EXPECT_NE(render_slurm(*mig.host, mig.d).find("Gres=gpu:1g.10gb:2,gpu:2g.20gb:1,gpu:3g.40gb:1"),
            std::string::npos);
}

TEST(OneDeviceOneDeclaration, AnIgpuBesideADiscreteGpuIsNotAGpuUnlessAsked) {
  Loaded l = load("rtx4090-amd-igpu");
  EXPECT_NE(render_slurm(*l.host, l.d).find("Gres=gpu:rtx_4090:1\n"), std::string::npos);
  SlurmOptions igpu;
  igpu.igpu = true;
  EXPECT_NE(render_slurm(*l.host, l.d, igpu).find("Name=gpu Type=raphael"), std::string::npos)
      << render_slurm(*l.host, l.d, igpu);
}

TEST(SlurmText, TypesFromTheCatalogueAndCoresFromAffinity) {
  Entry e;
  e.type = DeviceType::gpu;
  e.backend = "cuda";
  e.name = "NVIDIA A100-SXM4-80GB";
  EXPECT_EQ(slurm_type(e), "a100");
  e.name = "NVIDIA H100 80GB HBM3";
  EXPECT_EQ(slurm_type(e), "h100");
  e.backend = "rocm";
  e.name = "AMD Instinct MI300X";
  EXPECT_EQ(slurm_type(e), "mi300x");
  e.backend = "gaudi";
  e.type = DeviceType::npu;
  e.name = "Intel Gaudi 3";
  EXPECT_EQ(slurm_type(e), "gaudi3");
  EXPECT_EQ(slurm_cores("0-55,112-167", 224), "0-55");  // second hardware threads folded
  EXPECT_EQ(slurm_cores("0-55", 224), "0-55");
  EXPECT_EQ(slurm_cores("0-3,8-11", 16), "0-3");
  EXPECT_EQ(slurm_cores("0-3,13", 16), "0-3,13");  // 13 without 5: not a sibling pattern
  EXPECT_EQ(slurm_cores("", 16), "");
  EXPECT_EQ(slurm_cores("3-1", 16), "");
  EXPECT_EQ(slurm_cores("0-99999999", 16), "");
  EXPECT_EQ(slurm_cores("0-40000,0-40000", 16), "");  // 65536 CPUs at most, in all
  EXPECT_EQ(slurm_file_ranges({"/dev/nvidia3", "/dev/nvidia1", "/dev/nvidia2", "/dev/nvidia07"}),
            (std::vector<std::string>{"/dev/nvidia[1-3]", "/dev/nvidia07"}));
}

TEST(GfdNumbers, ComputeAndDriverVersions) {
  auto c = compute_version("sm_90");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->major + "." + c->minor, "9.0");
  EXPECT_EQ(compute_version("sm_121")->major, "12");
  EXPECT_EQ(compute_version("gfx942")->minor, "4");
  EXPECT_EQ(compute_version("gfx1100")->major, "11");
  EXPECT_EQ(compute_version("gfx90a")->major, "9");
  EXPECT_FALSE(compute_version("metal3"));
  EXPECT_FALSE(compute_version("sm_9x"));
  auto v = driver_version_numbers("590.48.01");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->major + "/" + v->minor + "/" + v->rev, "590/48/01");
  EXPECT_EQ(driver_version_numbers("550.120")->rev, "");
  EXPECT_EQ(driver_version_numbers("Mesa 24.0.5-1ubuntu1")->major, "24");
  EXPECT_FALSE(driver_version_numbers("unknown"));
  EXPECT_FALSE(driver_version_numbers("1.2.3.4"));
}

TEST(DcgmLabels, BusIdAndTime) {
  EXPECT_EQ(nvidia_smi_bus_id("0000:1b:00.0"), "00000000:1B:00.0");
  EXPECT_EQ(rfc3339_to_unix("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(rfc3339_to_unix("2026-11-29T15:00:00Z"), 1795964400);
  EXPECT_EQ(unix_to_rfc3339(1795964400 + 900), "2026-11-29T15:15:00Z");
  EXPECT_EQ(unix_to_rfc3339(951782400), "2000-02-29T00:00:00Z");
  EXPECT_FALSE(rfc3339_to_unix("2026-11-29 15:00:00Z"));
  EXPECT_FALSE(rfc3339_to_unix("2026-13-29T15:00:00Z"));
}

}  // namespace
}  // namespace hwaccel
